import { data, type RouterContextProvider } from "react-router";
import type { SessionUser } from "~/.server/accounts/sessions";
import { mayOpen } from "~/lib/menu";
import { requireUser } from "./session";

/**
 * Roles beyond "member" (spec section 6: a route with no roles is open to every signed-in member,
 * otherwise the member needs one of them). Roles are granted by an operator (`npm run role`), never
 * through a form or the API; they ride on the session (sessions.ts reads them with the member).
 */
export type Role = "moderator" | "reviewer";

/** The member, if they hold `role`; anyone else gets the /401 page with status 403 (spec section 2). */
export function requireRole(request: Request, context: Readonly<RouterContextProvider>, role: Role): SessionUser {
  const user = requireUser(request, context);
  if (!mayOpen({ roles: [role] }, user.roles)) throw data(null, { status: 403 });
  return user;
}
