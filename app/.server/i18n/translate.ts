import i18next, { type TFunction } from "i18next";
import { resources } from "#locales/index";
import { DEFAULT_LANGUAGE, isLanguage } from "~/lib/i18n";

// Outside a page (mail, API messages) text is translated with a fixed language.
const instance = i18next.createInstance();
instance.init({ resources, fallbackLng: DEFAULT_LANGUAGE, interpolation: { escapeValue: false }, initAsync: false });

export function translator(language: string | null | undefined): TFunction {
  return instance.getFixedT(isLanguage(language) ? language : DEFAULT_LANGUAGE);
}

const bound = new Map<string, typeof instance>();
/** An i18next instance fixed to a language, for React rendered on the server outside a page (fragments). */
export function i18nFor(language: string | null | undefined) {
  const lng = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  const found = bound.get(lng) ?? instance.cloneInstance({ lng, initAsync: false });
  bound.set(lng, found);
  return found;
}
