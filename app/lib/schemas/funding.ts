import { z } from "zod";
import { AWARD_MAX, FUNDER_NAME_MAX } from "~/lib/limits";
import { cleanString, requiredLine } from "./text";

// A funding reference as DataCite names its parts (docs/decisions/0052): the funder by name, and by
// a ROR id or a Crossref Funder ID, typed or pasted in any of their usual forms.

const ROR = /^(?:https?:\/\/)?(?:www\.)?ror\.org\/(0[a-hj-km-np-tv-z0-9]{6}[0-9]{2})\/?$/i;
const FUNDREF = /^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/)?(10\.13039\/[0-9]{6,12})\/?$/i;

/** A funder's identifier: its kind and its canonical form, or null when none is given; undefined when it is neither. */
export function funderIdentifier(text: string): { id: string; type: "ROR" | "Crossref Funder ID" } | null | undefined {
  const typed = text.trim();
  if (!typed) return null;
  const ror = ROR.exec(typed)?.[1];
  if (ror) return { id: `https://ror.org/${ror.toLowerCase()}`, type: "ROR" };
  const fundref = FUNDREF.exec(typed)?.[1];
  return fundref ? { id: fundref, type: "Crossref Funder ID" } : undefined;
}

const optionalLine = (field: string, max: number) =>
  cleanString("validation.inputEmpty")
    .max(max, `validation.fieldTooLong|field=fields.${field}|max=${max}`)
    .refine((text) => !/[\r\n\u2028\u2029]/.test(text), `validation.oneLine|field=fields.${field}`)
    .optional()
    .default("");

export const fundingSchema = z.object({
  funder_name: requiredLine("funderName", FUNDER_NAME_MAX),
  funder_id: z
    .string()
    .optional()
    .default("")
    .transform((text, context) => {
      const found = funderIdentifier(text);
      if (found === undefined) {
        context.issues.push({ code: "custom", message: "validation.funderIdInvalid", input: text });
        return z.NEVER;
      }
      return found;
    }),
  award_number: optionalLine("awardNumber", AWARD_MAX),
  award_uri: optionalLine("awardUri", AWARD_MAX).refine((uri) => !uri || /^https:\/\/\S+$/.test(uri), "validation.awardUriInvalid"),
  award_title: optionalLine("awardTitle", AWARD_MAX),
  /** The funder as a member of this platform, by their member number (a supporter without a ROR id too). */
  funder_member: z.coerce.number().int().positive().optional(),
});

export type FundingInput = z.output<typeof fundingSchema>;
