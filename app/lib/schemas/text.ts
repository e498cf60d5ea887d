import { z } from "zod";

// What members write is stored as they meant it, and only that: NFC-normalised (one way to spell
// "é"), and without the characters that change how other text looks or hide what it says: control
// characters (tab and line breaks excepted), including the two that mark search matches, and the
// bidirectional overrides, embeddings and isolates that reorder a line ("txt.exe" shown as "exe.txt").
export const HIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** A string member text starts from: trimmed, NFC, refused with a translated message if it hides anything. */
export const cleanString = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .normalize("NFC")
    .refine((text) => !HIDDEN.test(text), "validation.hiddenCharacters");

/** A required field: its translated "{field} cannot be empty", and at most `max` characters. */
export const requiredText = (field: string, max: number) =>
  cleanString(`validation.fieldEmpty|field=fields.${field}`)
    .min(1, `validation.fieldEmpty|field=fields.${field}`)
    .max(max, `validation.fieldTooLong|field=fields.${field}|max=${max}`);

/** A required one-line field (a title, a name): a line break in it would end a mail's subject line. */
export const requiredLine = (field: string, max: number) =>
  requiredText(field, max).refine((text) => !/[\r\n\u2028\u2029]/.test(text), `validation.oneLine|field=fields.${field}`);

/** A key a form or client makes once, so that a repeat of the same submission is stored once. */
export const CLIENT_KEY = /^[\w-]{8,64}$/;
