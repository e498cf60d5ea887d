import { z } from "zod";
import { SEXES } from "~/lib/choices";
import { normalizeOrcid } from "~/lib/identifiers";
import { BIRTHDAY_EARLIEST, EMAIL_MAX, NICK_NAME_MAX, PROFILE_LINE_MAX, PROFILE_TEXT_MAX } from "~/lib/limits";
import { cleanString, requiredLine, requiredText } from "./text";

// The settings' profile fields (spec section 3); every one is required with '{field} cannot be empty'
// (section 5). Country codes are checked against ISO 3166 on the server (app/.server/members/countries.ts).

const empty = (field: string) => `validation.fieldEmpty|field=fields.${field}`;
const line = (field: string) => requiredText(field, PROFILE_LINE_MAX);
const text = (field: string) => requiredText(field, PROFILE_TEXT_MAX);
const country = (field: string) => requiredText(field, 2).regex(/^[A-Z]{2}$/, "validation.countryInvalid");
/** International format (E.164): + and the country code, then the number; spaces, dots, dashes and brackets are dropped. */
const phone = (field: string) =>
  requiredText(field, 32)
    .transform((value) => value.replace(/[\s().-]/g, ""))
    .pipe(z.string().regex(/^\+[1-9]\d{6,14}$/, "validation.phoneFormat"));

const today = () => new Date().toISOString().slice(0, 10);

const individual = z.object({
  nickName: requiredLine("nickName", NICK_NAME_MAX),
  sex: z.enum(SEXES, { error: empty("sex") }),
  birthday: requiredText("birthday", 10)
    .pipe(z.iso.date({ error: "validation.birthdayInvalid" }))
    .refine((day) => day >= BIRTHDAY_EARLIEST, "validation.birthdayInvalid")
    .refine((day) => day <= today(), "validation.birthdayFuture"),
  address: text("address"),
  firstName: line("firstName"),
  middleName: line("middleName"),
  familyName: line("familyName"),
  country: country("country"),
  nationality: country("nationality"),
  academic: line("academic"),
  research: text("research"),
  website: line("website").pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: "validation.websiteFormat" })),
  phone: phone("phone"),
  purpose: text("purpose"),
  /** Optional, unlike the spec's fields: checked by its check digit, stored as 0000-0000-0000-000X. */
  orcid: cleanString("validation.orcidInvalid")
    .refine((value) => value === "" || normalizeOrcid(value) !== null, "validation.orcidInvalid")
    .transform((value) => (value === "" ? null : normalizeOrcid(value)))
    .nullish()
    .transform((value) => value ?? null),
  /** Whether names, academic field, research and country show on the Space and in member search. */
  public: z.preprocess((value) => value === "on" || value === "1" || value === true, z.boolean()),
});

const ORGANISATION_FIELDS = {
  abbreviation: true,
  industry: true,
  organisationPhone: true,
  description: true,
  legal: true,
  organisationEmail: true,
} as const;

const facilitator = individual.extend({
  abbreviation: line("abbreviation"),
  industry: line("industry"),
  organisationPhone: phone("organisationPhone"),
  description: text("description"),
  legal: line("legal"),
  organisationEmail: requiredText("organisationEmail", EMAIL_MAX).pipe(z.email({ error: "validation.emailFormat" })),
});

/** Either kind's fields in one body (the API's): the organisation's are checked against the account's kind after. */
export const anyProfileSchema = individual.extend(facilitator.pick(ORGANISATION_FIELDS).partial().shape);

/** The profile form of an account's kind: a facilitator's has the organisation's fields too. */
export const profileSchema = (kind: "individual" | "facilitator") => (kind === "facilitator" ? facilitator : individual);
/** The fields of either form: the organisation's are absent for an individual. */
export type ProfileInput = z.infer<typeof individual> & Partial<z.infer<typeof facilitator>>;
