import { readCookie } from "~/.server/http/cookies";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, LANGUAGES, type Language } from "~/lib/i18n";

/**
 * The request's language without the page middleware (for answers given before React Router runs):
 * the member's choice in the cookie, then the first supported Accept-Language, then English.
 */
export function languageOf(request: Request): Language {
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  for (const part of (request.headers.get("Accept-Language") ?? "").split(",")) {
    const base = part.split(";")[0]?.trim().toLowerCase().split("-")[0];
    const match = LANGUAGES.find((lang) => lang === base);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}
