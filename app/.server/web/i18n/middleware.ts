import { initReactI18next } from "react-i18next";
import { createI18nextMiddleware } from "remix-i18next";
import { resources } from "#locales/index";
import { DEFAULT_LANGUAGE, LANGUAGES } from "~/lib/i18n";
import { chosenLanguage } from "./request-language";

/** Language: the address's (`?hl=`), then the member's explicit choice (cookie), then Accept-Language, then English. */
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ["custom", "header"],
    async findLocale({ request }) {
      return chosenLanguage(request);
    },
  },
  i18next: { resources, interpolation: { escapeValue: false } },
  plugins: [initReactI18next],
});
