// The browser entry: the package's main one requires every locale (about 80), which a worker cannot.
import countries from "i18n-iso-countries/index";
import en from "i18n-iso-countries/langs/en.json";
import ja from "i18n-iso-countries/langs/ja.json";
import zh from "i18n-iso-countries/langs/zh.json";
import { LANGUAGES, type Language } from "~/lib/i18n";

// ISO 3166-1 countries named in the three languages (i18n-iso-countries). Server-only: pages get the
// list for their language from the loader, so the names never ship in a client bundle.
for (const locale of [en, ja, zh]) countries.registerLocale(locale);

/** Every country as {code, name} in `language`, in that language's order. */
export function countryOptions(language: Language): { code: string; name: string }[] {
  const names = countries.getNames(language, { select: "official" });
  return Object.entries(names)
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

export const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && countries.getName(code, "en") !== undefined;

export const countryName = (code: string, language: Language) => countries.getName(code, language, { select: "official" }) ?? code;

/** The country as each language names it: what member search matches, whichever language is typed. */
export const countryInEveryLanguage = (code: string) => LANGUAGES.map((language) => countryName(code, language)).join(" ");
