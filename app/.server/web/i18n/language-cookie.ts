import { ONE_YEAR, serializeCookie } from "~/.server/http/cookies";
import { LANGUAGE_COOKIE } from "~/lib/i18n";

/** The page language choice (read by the i18n middleware before Accept-Language). */
export const languageCookie = (request: Request, language: string) =>
  serializeCookie(request, LANGUAGE_COOKIE, language, { maxAge: ONE_YEAR, httpOnly: false });
