import spdxIds from "spdx-license-list/simple";
import { z } from "zod";
import { normalizeDoi } from "~/lib/identifiers";
import { ALL_RIGHTS_RESERVED } from "~/lib/licenses";
import { DOI_MAX, VERSION_NOTE_MAX } from "~/lib/limits";
import { CLIENT_KEY, cleanString } from "./text";

/** A new version's fields (its file and optional thumbnail are judged by their bytes). Only the server imports this module. */
export const versionSchema = z.object({
  note: cleanString("validation.versionNoteEmpty")
    .min(1, "validation.versionNoteEmpty")
    .max(VERSION_NOTE_MAX, `validation.fieldTooLong|field=fields.note|max=${VERSION_NOTE_MAX}`),
  license: z
    .string()
    .trim()
    .refine((id) => id === "" || id === ALL_RIGHTS_RESERVED || spdxIds.has(id), "validation.licenseUnknown")
    .optional()
    .transform((id) => id || undefined),
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
