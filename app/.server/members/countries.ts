// The browser entry: the package's main one requires every locale (about 80), which a worker cannot.
import countries from "i18n-iso-countries/index";
import en from "i18n-iso-countries/langs/en.json";
import ja from "i18n-iso-countries/langs/ja.json";
import zh from "i18n-iso-countries/langs/zh.json";
import { LANGUAGES, type Language } from "~/lib/i18n";

// ISO 3166-1 countries named in the three languages (i18n-iso-countries). Server-only: pages get the
// list for their language from the loader, so the names never ship in a client bundle.
for (const locale of [en, ja, zh]) countries.registerLocale(locale);

/** Every country's name in `language`, in that language's order: what the form's country fields suggest. */
export const countryNames = (language: Language): string[] =>
  Object.values(countries.getNames(language, { select: "official" })).sort((a, b) => a.localeCompare(b, language));

const typed = (text: string) => text.normalize("NFKC").trim().toLocaleLowerCase("en");
/** Every name a country goes by in the three languages (and its code), as typed, to its code. */
const BY_NAME = new Map<string, string>();
for (const language of LANGUAGES)
  for (const [code, names] of Object.entries(countries.getNames(language, { select: "all" })))
    for (const name of [code, ...names]) if (!BY_NAME.has(typed(name))) BY_NAME.set(typed(name), code);

/** The ISO code of a country typed by its code or by a name in any of the three languages; null for none. */
export const countryCode = (text: string): string | null => BY_NAME.get(typed(text)) ?? null;

export const isCountry = (code: string) => /^[A-Z]{2}$/.test(code) && countries.getName(code, "en") !== undefined;

export const countryName = (code: string, language: Language) => countries.getName(code, language, { select: "official" }) ?? code;

/** The country as each language names it: what member search matches, whichever language is typed. */
export const countryInEveryLanguage = (code: string) => LANGUAGES.map((language) => countryName(code, language)).join(" ");
