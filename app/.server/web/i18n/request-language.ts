import { readCookie } from "~/.server/http/cookies";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGE_PARAM, LANGUAGES, type Language } from "~/lib/i18n";

/**
 * The request's language without the page middleware (for answers given before React Router runs):
 * the address's (`?hl=`), the member's choice in the cookie, then the supported Accept-Language
 * weighed most, then English.
 */
export function languageOf(request: Request): Language {
  return chosenLanguage(request) ?? preferred(request.headers.get("Accept-Language") ?? "") ?? DEFAULT_LANGUAGE;
}

/** The language version the address names (`?hl=`; decision 0050), or null. */
export function askedLanguage(request: Request): Language | null {
  const asked = new URL(request.url).searchParams.get(LANGUAGE_PARAM);
  return isLanguage(asked) ? asked : null;
}

/** What comes before Accept-Language, for the pages' middleware too: the address's language, then the member's cookie. */
export function chosenLanguage(request: Request): Language | null {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  return askedLanguage(request) ?? (isLanguage(chosen) ? chosen : null);
}

/** The supported language the header weighs most (q, 1 when absent; q=0 means "not this one"); ties keep their order. */
function preferred(acceptLanguage: string): Language | undefined {
  const ranked = acceptLanguage
    .split(",")
    .map((part, order) => {
      const [tag = "", ...params] = part.split(";");
      const q = Number(
        params
          .find((param) => param.trim().toLowerCase().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { base: tag.trim().toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, order };
    })
    .filter(({ q }) => q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked.map(({ base }) => LANGUAGES.find((lang) => lang === base)).find((lang) => lang !== undefined);
}
