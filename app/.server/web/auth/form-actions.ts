import type { Submission } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import { credentialOf, logout, saveLanguage } from "~/.server/accounts/accounts";
import { rememberedDevice } from "~/.server/accounts/known-devices";
import type { SessionUser } from "~/.server/accounts/sessions";
import { config } from "~/.server/config/config";
import { readCookie } from "~/.server/http/cookies";
import { languageCookie } from "~/.server/web/i18n/language-cookie";
import { SECRET_FIELDS } from "~/.server/web/shell/refusals";
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE } from "~/lib/i18n";
import { clearPointCookie, KNOWN_DEVICE_COOKIE, knownDeviceCookie, tokenCookie } from "./cookies";
import { sessionContext } from "./session";

/** A failed form post: status 400 with Conform's reply; password fields are never sent back. */
export function invalid(submission: Submission<unknown>) {
  return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), notice: null }, { status: 400 });
}

/** "Send Success": the form comes back with what was typed (passwords aside) and a notice. */
export function codeSent(submission: Submission<unknown>) {
  return data({ result: submission.reply({ hideFields: SECRET_FIELDS }), notice: "notify.sendSuccess" });
}

/** Remembers this browser for the account, as its password is now (see known-devices.ts). */
export async function rememberDevice(request: Request, email: string): Promise<string> {
  const credential = (await credentialOf(email)) ?? "";
  return knownDeviceCookie(
    request,
    await rememberedDevice(config().pepper.secret, email, credential, readCookie(request, KNOWN_DEVICE_COOKIE)),
  );
}

/**
 * Signs the browser in with a fresh token: any session the cookie held before is ended first, so a
 * token planted before login (session fixation) never becomes a member's session. The language
 * follows the member: a browser without a choice takes the one saved with the account, and a
 * choice made in this browser before signing in becomes the account's (the latest choice wins).
 */
export async function signInHeaders(request: Request, context: Readonly<RouterContextProvider>, token: string, member: SessionUser) {
  const previous = context.get(sessionContext).token;
  if (previous) await logout(previous);
  const headers = new Headers();
  headers.append("Set-Cookie", tokenCookie(request, token));
  headers.append("Set-Cookie", clearPointCookie(request));
  headers.append("Set-Cookie", await rememberDevice(request, member.email));
  const chosen = readCookie(request, LANGUAGE_COOKIE);
  if (!isLanguage(chosen))
    headers.append("Set-Cookie", languageCookie(request, isLanguage(member.language) ? member.language : DEFAULT_LANGUAGE));
  else if (chosen !== member.language) await saveLanguage(member.id, chosen);
  return headers;
}
