import { LANGUAGES, type Language } from "./i18n";

// The language an item is written in (decision 0050): a BCP 47 tag its owner chooses, and the
// interface's languages its title and abstract may be given in besides.

/** The tag as BCP 47 writes it ("zh-hant" → "zh-Hant"), or null when it is not one. */
export function canonicalLanguage(value: string): string | null {
  try {
    return Intl.getCanonicalLocales(value.trim())[0] ?? null;
  } catch {
    return null;
  }
}

/** The interface language a tag is written in ("zh-Hant" → "zh"), or null for another. */
export function interfaceLanguage(tag: string | null): Language | null {
  const base = tag?.split("-")[0]?.toLowerCase();
  return LANGUAGES.find((lang) => lang === base) ?? null;
}

/** The languages whose mismatch the owner is warned of: the interface's and a few others research is often written in (their names are the interface's). */
export const COMMON_LANGUAGES = ["en", "ja", "zh", "ko", "es", "fr", "de"] as const;

const COUNT = {
  kana: /[\u3040-\u30ff]/gu,
  han: /\p{Script=Han}/gu,
  hangul: /\p{Script=Hangul}/gu,
  latin: /\p{Script=Latin}/gu,
};

/**
 * Whether text plainly is not in the language declared, by its script: Japanese has kana, Chinese Han
 * without kana, Korean Hangul, English and the other Latin-script languages Latin letters. Only a
 * warning (a title may be a formula, an abstract may quote), and silent for scripts it does not know.
 */
export function looksUnlike(text: string, tag: string): boolean {
  const count = (script: keyof typeof COUNT) => text.match(COUNT[script])?.length ?? 0;
  const letters = count("kana") + count("han") + count("hangul") + count("latin");
  if (letters < 20) return false;
  const base = tag.split("-")[0]?.toLowerCase();
  const share = (n: number) => n / letters;
  if (base === "ja") return share(count("kana") + count("han")) < 0.3 || count("kana") === 0;
  if (base === "zh") return share(count("han")) < 0.3 || share(count("kana")) > 0.05;
  if (base === "ko") return share(count("hangul")) < 0.3;
  if (["en", "es", "fr", "de"].includes(base ?? "")) return share(count("latin")) < 0.5;
  return false;
}

/**
 * The notice an owner gets when their title and abstract do not look like the language they chose
 * (saved all the same), or null. Named only for the languages the form suggests, whose names the
 * interface has.
 */
export function languageWarning(fields: { title: string; summary: string; language?: string | null }): string | null {
  const base = fields.language?.split("-")[0]?.toLowerCase();
  if (!base || !(COMMON_LANGUAGES as readonly string[]).includes(base)) return null;
  return looksUnlike(`${fields.title}\n${fields.summary}`, base) ? `content.languageMismatch|language=languages.${base}` : null;
}
