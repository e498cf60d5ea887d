// The fixed choices forms offer, shared by the schemas (on the server) and the forms (in the
// browser) without bringing the schema library to the browser.

export const SEXES = ["female", "male", "other", "unsaid"] as const;

export const REPORT_REASONS = ["spam", "harassment", "copyright", "misinformation", "other"] as const;
export const REPORT_TARGETS = ["content", "comment", "message", "member"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const VERIFICATION_KINDS = ["personal", "corporate"] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];

/** The text fields of each kind of verification, in the form's order (every one required). */
export const VERIFICATION_FIELDS = {
  personal: ["name", "idNumber", "address", "contactPhone"],
  corporate: ["companyName", "registrationNumber", "legalName", "legalIdNumber"],
} as const;

/** The photos each kind requires (extra files, personal only, are optional). */
export const VERIFICATION_PHOTOS = {
  personal: ["idFront", "idBack"],
  corporate: ["license", "legalIdFront", "legalIdBack"],
} as const;
