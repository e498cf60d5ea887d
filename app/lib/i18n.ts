export const LANGUAGES = ["en", "ja", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
export const LANGUAGE_COOKIE = "language";
/** A page's address may name its language (`?hl=ja`): an open record's language versions (decision 0050), before the cookie. */
export const LANGUAGE_PARAM = "hl";

/** The top bar's labels, in the spec's order: JP, EN, CN. */
export const LANGUAGE_SWITCH: ReadonlyArray<{ lang: Language; label: string; name: string }> = [
  { lang: "ja", label: "JP", name: "日本語" },
  { lang: "en", label: "EN", name: "English" },
  { lang: "zh", label: "CN", name: "中文" },
];

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}
