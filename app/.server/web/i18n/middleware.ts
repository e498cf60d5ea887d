import { initReactI18next } from "react-i18next";
import { createI18nextMiddleware } from "remix-i18next";
import { resources } from "#locales/index";
import { readCookie } from "~/.server/http/cookies";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGE_PARAM, LANGUAGES } from "~/lib/i18n";

/** Language: the address's (`?hl=`), then the member's explicit choice (cookie), then Accept-Language, then English. */
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ["custom", "header"],
    async findLocale({ request }) {
      const asked = new URL(request.url).searchParams.get(LANGUAGE_PARAM);
      if (isLanguage(asked)) return asked;
      const chosen = readCookie(request, LANGUAGE_COOKIE);
      return isLanguage(chosen) ? chosen : null;
    },
  },
  i18next: { resources, interpolation: { escapeValue: false } },
  plugins: [initReactI18next],
});
