import type { RouterContextProvider } from "react-router";
import type { Caller } from "~/.server/accounts/accounts";
import { readCookie } from "~/.server/http/cookies";
import { clientAddress } from "~/.server/security/rate-limit";
import { requestContext } from "~/.server/web/context";
import { getLocale } from "~/.server/web/i18n/middleware";
import { languageOf } from "~/.server/web/i18n/request-language";
import { isLanguage, type Language } from "~/lib/i18n";
import { KNOWN_DEVICE_COOKIE } from "./cookies";

/** Who is asking, for the accounts service: address and known-device cookie (limits), clock, language, background work. */
function caller(request: Request, language: Language, ctx: ExecutionContext | undefined): Caller {
  return {
    client: clientAddress(request),
    device: readCookie(request, KNOWN_DEVICE_COOKIE),
    now: Date.now(),
    language,
    origin: new URL(request.url).origin,
    waitUntil: ctx ? (promise) => ctx.waitUntil(promise) : undefined,
  };
}

/** A page request's caller: the language the page middleware chose. */
export function callerFrom(request: Request, context: Readonly<RouterContextProvider>): Caller {
  const locale = getLocale(context);
  return caller(request, isLanguage(locale) ? locale : "en", context.get(requestContext).ctx);
}

/** An API request's caller: the API runs before React Router, so without its middleware. */
export const apiCaller = (request: Request, ctx: ExecutionContext | undefined): Caller => caller(request, languageOf(request), ctx);
