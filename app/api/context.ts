import type { Caller } from "~/.server/accounts/accounts";
import { currentSession } from "~/.server/accounts/accounts";
import type { SessionUser } from "~/.server/accounts/sessions";
import { translator } from "~/.server/i18n/translate";
import { tokenFromHeader } from "~/.server/web/auth/cookies";
import { API_CODES, fail } from "./envelope";

/** What every API handler gets: who is asking (address, clock, language) and the request. */
export interface ApiContext extends Caller {
  request: Request;
}

/** A signed-in member, and the token they asked with. */
export interface Member {
  user: SessionUser;
  token: string;
}

/** Work that finishes after the answer is sent (in tests without an execution context, it just runs). */
export const afterAnswer = (ctx: ApiContext) => (work: Promise<unknown>) => (ctx.waitUntil ? ctx.waitUntil(work) : void work);

/** The member behind the Authorization header, or the answer to give instead (4010). */
export async function authenticate(ctx: ApiContext): Promise<Member | Response> {
  const token = tokenFromHeader(ctx.request);
  const found = await currentSession(token, ctx.now);
  if (found.status !== "valid" || !token) {
    const t = translator(ctx.language);
    return fail(401, API_CODES.sessionExpired, found.status === "expired" ? t("notify.sessionExpired") : t("notify.loginRequired"));
  }
  return { user: found.user, token };
}
