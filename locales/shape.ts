import type { Translation } from "./en/translation";

/** The same keys as English, every leaf a string: what ja and zh must satisfy. */
type Shape<T> = { [K in keyof T]: T[K] extends string ? string : Shape<T[K]> };
export type TranslationShape = Shape<Translation>;
