import type { RouterContextProvider } from "react-router";
import { isLanguage } from "~/lib/i18n";
import type { Caller } from "~/server/accounts/accounts";
import { KNOWN_DEVICE_COOKIE } from "~/server/accounts/known-devices";
import { requestContext } from "~/server/context";
import { readCookie } from "~/server/http/cookies";
import { getLocale } from "~/server/i18n/middleware";
import { clientAddress } from "~/server/security/rate-limit";

/** Who is asking, for the accounts service: address and known-device cookie (limits), clock, language, background work. */
export function callerFrom(request: Request, context: Readonly<RouterContextProvider>): Caller {
  const locale = getLocale(context);
  const { ctx } = context.get(requestContext);
  return {
    client: clientAddress(request),
    device: readCookie(request, KNOWN_DEVICE_COOKIE),
    now: Date.now(),
    language: isLanguage(locale) ? locale : "en",
    waitUntil: ctx ? (promise) => ctx.waitUntil(promise) : undefined,
  };
}
