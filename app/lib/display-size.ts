// The spec's app state "size" (default medium): how dense every page's text and controls are, kept in
// a cookie like the language (docs/decisions/0044-size-and-drafts.md).

export const SIZES = ["small", "medium", "large"] as const;
export type Size = (typeof SIZES)[number];
export const DEFAULT_SIZE: Size = "medium";
export const SIZE_COOKIE = "size";

export const isSize = (value: unknown): value is Size => SIZES.includes(value as Size);
