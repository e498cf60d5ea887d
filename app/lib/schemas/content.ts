import spdxIds from "spdx-license-list/simple";
import { z } from "zod";
import { normalizeDoi, parseAuthors } from "~/lib/identifiers";
import { ALL_RIGHTS_RESERVED } from "~/lib/licenses";
import {
  AUTHORS_MAX,
  AUTHORS_TEXT_MAX,
  COMMENT_MAX,
  CONTENT_MAX,
  DOI_MAX,
  KEYWORDS_MAX,
  MOMENT_MAX_SECONDS,
  QUOTE_CONTEXT,
  QUOTE_MAX,
  SUMMARY_MAX,
  TITLE_MAX,
} from "~/lib/limits";
import { LANGUAGES } from "../i18n";
import { canonicalLanguage } from "../item-languages";
import { CLIENT_KEY, cleanString, requiredLine, requiredText } from "./text";

// The Upload entity's fields (spec section 3); every one is required (section 5). The DOI and the
// co-authors (issue 17) are optional.

/** A DOI, or empty: stored bare and in lower case (null when empty). */
const doiField = cleanString("validation.doiInvalid")
  .max(DOI_MAX, "validation.doiInvalid")
  .refine((text) => text === "" || normalizeDoi(text) !== null, "validation.doiInvalid")
  .transform((text) => (text === "" ? null : normalizeDoi(text)))
  .nullish()
  .transform((doi) => doi ?? null);

/** Co-authors, one per line, "Name" or "Name, ORCID iD"; each ORCID iD checked by its check digit. */
const authorsField = cleanString("validation.authorsInvalid")
  .max(AUTHORS_TEXT_MAX, `validation.fieldTooLong|field=fields.authors|max=${AUTHORS_TEXT_MAX}`)
  .transform((text, ctx) => {
    const parsed = parseAuthors(text);
    if ("badLine" in parsed) {
      ctx.addIssue({ code: "custom", message: `validation.authorLineInvalid|line=${parsed.badLine}` });
      return z.NEVER;
    }
    if (parsed.authors.length > AUTHORS_MAX) {
      ctx.addIssue({ code: "custom", message: `validation.authorsTooMany|max=${AUTHORS_MAX}` });
      return z.NEVER;
    }
    return parsed.authors;
  })
  .nullish()
  .transform((authors) => authors ?? []);

/** The year a work was published, or empty: four digits (a number from the API). */
const yearField = z
  .preprocess((value) => (typeof value === "number" ? String(value) : value), cleanString("validation.yearInvalid"))
  .refine((text) => text === "" || /^[1-9]\d{3}$/.test(text), "validation.yearInvalid")
  .transform((text) => (text === "" ? null : Number(text)))
  .nullish()
  .transform((year) => year ?? null);

/** An SPDX licence identifier (or all rights reserved); checked against SPDX's list. Only the server imports this module. */
export const licenseField = z
  .string({ error: "validation.licenseUnknown" })
  .trim()
  .refine((id) => id === "" || id === ALL_RIGHTS_RESERVED || spdxIds.has(id), "validation.licenseUnknown")
  // Empty: none chosen (a new upload gets the default, an edit keeps the item's).
  .transform((id) => id || undefined);

/** The language the title and abstract are written in (BCP 47, decision 0050); empty: not said (an edit keeps the item's). */
const languageField = z
  .string()
  .trim()
  .refine((tag) => tag === "" || canonicalLanguage(tag) !== null, "validation.languageInvalid")
  .transform((tag) => (tag === "" ? undefined : (canonicalLanguage(tag) ?? undefined)));

/** A checkbox as forms send it ("1" or "on" ticked, absent not) and the API (1 or true, 0 or false). */
const checkbox = z.preprocess(
  (value) => (value === "1" || value === 1 || value === true || value === "on" ? "1" : "0"),
  z.enum(["1", "0"]),
);

/** Who uploads a work for its authors names them: the work is cited by its authors only. */
function namesItsAuthors(fields: { on_behalf: "1" | "0"; authors: readonly unknown[] }, ctx: z.RefinementCtx) {
  if (fields.on_behalf === "1" && fields.authors.length === 0) {
    ctx.addIssue({ code: "custom", path: ["authors"], message: "validation.authorsNeeded" });
  }
}

const contentFieldsObject = z.object({
  kind: z.enum(["document", "video"], { error: "validation.fileMismatch" }),
  sdg: z.coerce.number({ error: "validation.fieldEmpty|field=fields.sdg" }).int().min(1, "validation.fieldEmpty|field=fields.sdg").max(17),
  title: requiredLine("title", TITLE_MAX),
  summary: requiredText("summary", SUMMARY_MAX),
  content: requiredText("content", CONTENT_MAX),
  keywords: requiredText("keywords", KEYWORDS_MAX),
  publicize: z.enum(["1", "0"], { error: "validation.fieldEmpty|field=fields.publicize" }),
  /** A checkbox: ticked, anyone may read the record (decision 0049); left out, it is members-only. */
  open_record: checkbox,
  /** A checkbox: ticked, the uploader is not an author and names the work's authors (decision 0049); left out, they are one. */
  on_behalf: checkbox,
  doi: doiField,
  authors: authorsField,
  year: yearField,
  /** Left out: a new upload gets the default licence, an edit keeps the item's. */
  license: licenseField.optional(),
  language: languageField.optional(),
});

export const contentFieldsSchema = contentFieldsObject.superRefine(namesItsAuthors);

export type ContentFields = z.infer<typeof contentFieldsSchema>;

/** The form as the browser sees it: the same fields plus the files (checked on the server by their bytes) and a caption file's language. */
export const uploadFormSchema = contentFieldsObject
  .extend({
    file: z.unknown().optional(),
    thumbnail: z.unknown().optional(),
    captions: z.unknown().optional(),
    captions_lang: z.string().optional(),
  })
  .superRefine(namesItsAuthors);

/** What an owner may change after upload: everything but the file (and so its kind). */
export const editContentSchema = contentFieldsObject.omit({ kind: true }).superRefine(namesItsAuthors);

/** A field left empty in a form is absent. */
const optionalNumber = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

/** A moment as members write it ("1:05", "1:02:05", "65"), in seconds; empty is absent. */
const clock = z.preprocess(
  (value) => {
    if (typeof value === "number") return value;
    if (typeof value !== "string" || !value.trim()) return undefined;
    const parts = value.trim().split(":");
    if (parts.length > 3 || !parts.every((part) => /^\d{1,6}(\.\d+)?$/.test(part))) return Number.NaN;
    return parts.reduce((total, part) => total * 60 + Number(part), 0);
  },
  z.number("validation.momentInvalid").min(0, "validation.momentInvalid").max(MOMENT_MAX_SECONDS, "validation.momentInvalid"),
);

/** Text a member writes to others (comments, messages): trimmed, never blank ('Input Cannot Empty'), at most `max`. */
export const memberText = (max: number, tooLongKey: string) =>
  cleanString("validation.inputEmpty").min(1, "validation.inputEmpty").max(max, `${tooLongKey}|max=${max}`);

export const commentSchema = z.object({
  body: memberText(COMMENT_MAX, "validation.commentTooLong"),
  /** Made when the form was rendered, so a repeated submission stores once. */
  client_key: z.string().regex(CLIENT_KEY, "notify.requestFailed").optional(),
  /** The comment this one answers (on the same item). */
  parent_id: z.coerce.number().int().positive().optional(),
  /** A passage of a document (docs/decisions/0051): the page, the words as it shows them; the server finds them there. */
  page: optionalNumber(
    z.coerce.number().int("validation.pageInvalid").min(1, "validation.pageInvalid").max(100_000, "validation.pageInvalid"),
  ),
  quote: z
    .string()
    .trim()
    .max(QUOTE_MAX, `validation.quoteTooLong|max=${QUOTE_MAX}`)
    .optional()
    .transform((value) => value || undefined),
  /** The words just before and after, which tell apart the same quote twice on a page (the viewer sends them). */
  prefix: z
    .string()
    .max(4 * QUOTE_CONTEXT)
    .optional(),
  suffix: z
    .string()
    .max(4 * QUOTE_CONTEXT)
    .optional(),
  /** A moment of a video: from `at` to `until` ("1:05", "0:01:05" or seconds). */
  at: clock.optional(),
  until: clock.optional(),
  /** A checkbox: ticked, only the item's owner sees it (and the thread's replies), feedback in private. */
  private: checkbox,
});

/** Adding an interest: one of the 17 goals. */
export const interestSchema = z.object({
  sdg: z.coerce
    .number({ error: "validation.fieldEmpty|field=fields.sdg" })
    .int("validation.fieldEmpty|field=fields.sdg")
    .min(1, "validation.fieldEmpty|field=fields.sdg")
    .max(17, "validation.fieldEmpty|field=fields.sdg"),
});

/** The owner's title and abstract in one of the interface's languages (decision 0050), limited like the originals. */
export const itemTextSchema = z.object({
  lang: z.enum(LANGUAGES, { error: "validation.inputInvalid" }),
  title: requiredLine("title", TITLE_MAX),
  summary: requiredText("summary", SUMMARY_MAX),
});
