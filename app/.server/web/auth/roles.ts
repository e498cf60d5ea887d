import { data, type RouterContextProvider } from "react-router";
import type { SessionUser } from "~/.server/accounts/sessions";
import { findContent } from "~/.server/content/content";
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

/**
 * The item `?id=` names, for its owner's own pages (edit, new version, statistics); for anyone else,
 * or an id that names nothing, 404: to them it is no page.
 */
export async function requireOwnItem(request: Request, context: Readonly<RouterContextProvider>) {
  const user = requireUser(request, context);
  const id = Number(new URL(request.url).searchParams.get("id"));
  const item = Number.isInteger(id) && id > 0 ? await findContent(id, user.id) : null;
  if (item?.owner_id !== user.id) throw data(null, { status: 404 });
  return { user, item };
}
