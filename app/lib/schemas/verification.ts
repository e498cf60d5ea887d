import { z } from "zod";
import { PROFILE_LINE_MAX, PROFILE_TEXT_MAX, REJECTION_REASON_MAX } from "~/lib/limits";
import { requiredText } from "./text";

// Identity verification (spec section 3): the fields of a personal or a corporate submission, every
// one required (section 5); the photos are checked on the server by their bytes.

const line = (field: string) => requiredText(field, PROFILE_LINE_MAX);

export const verificationFields = {
  personal: z.object({
    name: line("name"),
    idNumber: line("idNumber"),
    address: requiredText("address", PROFILE_TEXT_MAX),
    contactPhone: line("contactPhone"),
  }),
  corporate: z.object({
    companyName: line("companyName"),
    registrationNumber: line("registrationNumber"),
    legalName: line("legalName"),
    legalIdNumber: line("legalIdNumber"),
  }),
} as const;

/** A reviewer's decision: approve, or reject with a reason. */
export const reviewSchema = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("approve"),
    // An organisation's verification may confirm the ROR record it linked (decision 0052): a
    // checkbox on the page ("on"), true in the API.
    confirm_ror: z.preprocess((value) => value === "on" || value === true, z.boolean()).optional(),
  }),
  z.object({ decision: z.literal("reject"), reason: requiredText("reason", REJECTION_REASON_MAX) }),
]);
