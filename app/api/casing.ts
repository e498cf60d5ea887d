import { z } from "zod";

// The API is snake_case in every request body and answer, as the spec's calls are (issue 31), while
// the pages' forms and the services keep the names the code uses. The form schemas the API reuses
// are taken under snake_case names here, once, and answers' keyed maps are renamed on the way out.

export const snakeName = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
export const camelName = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** A map's keys in snake_case (a score's breakdown by input, the point rules by reason). */
export const snakeKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).map(([name, value]) => [snakeName(name), value]));

/** A form's fields under their snake_case names, each checked by `field` (the form's own checks by default). */
export const snakeShape = (schema: z.ZodObject, field: (form: z.ZodType) => z.ZodType = (form) => form) =>
  z.object(Object.fromEntries(Object.entries(schema.shape).map(([name, form]) => [snakeName(name), field(form as z.ZodType)])));

const documented = new WeakMap<z.ZodType, z.ZodType>();

/** What the API document shows for a schema: the snake_case form of one taken through snakeCased. */
export const documentedAs = (schema: z.ZodType) => documented.get(schema) ?? schema;

/**
 * A form's schema as the API takes it: the same fields under snake_case names (the document shows
 * them with the form's checks), renamed to the form's names and checked by the form's own schema
 * (its refinements across fields and its transforms, once). camelCase names are not taken. A
 * refusal's field is named in snake_case again by the envelope.
 */
export function snakeCased<S extends z.ZodObject>(schema: S) {
  const taken = z
    .unknown()
    .transform((value) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).flatMap(([name, field]) => (/[A-Z]/.test(name) ? [] : [[camelName(name), field]])))
        : value,
    )
    .pipe(schema);
  documented.set(taken, snakeShape(schema));
  return taken;
}
