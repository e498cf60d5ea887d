import { z } from "zod";
import { normalizeDoi } from "~/lib/identifiers";
import { DOI_MAX, VERSION_NOTE_MAX } from "~/lib/limits";
import { licenseField } from "./content";
import { CLIENT_KEY, cleanString } from "./text";

/** A new version's fields (its file and optional thumbnail are judged by their bytes). Only the server imports this module. */
export const versionSchema = z.object({
  note: cleanString("validation.versionNoteEmpty")
    .min(1, "validation.versionNoteEmpty")
    .max(VERSION_NOTE_MAX, `validation.fieldTooLong|field=fields.note|max=${VERSION_NOTE_MAX}`),
  license: licenseField.optional(),
  doi: z
    .string()
    .trim()
    .max(DOI_MAX, "validation.doiInvalid")
    .refine((text) => text === "" || normalizeDoi(text) !== null, "validation.doiInvalid")
    .optional()
    .transform((text) => (text ? normalizeDoi(text) : null)),
  client_key: z.string().regex(CLIENT_KEY).optional().catch(undefined),
});

export type VersionFields = z.infer<typeof versionSchema>;
