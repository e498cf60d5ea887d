import { redirect } from "react-router";
import { requireUser } from "~/.server/auth/session";
import { env } from "~/.server/bindings";
import { markRead, notificationTarget } from "~/.server/notifications/notifications";
import { isOwnNavigation } from "~/.server/security/same-origin";
import type { Route } from "./+types/notification-open";

/**
 * Opening a notification: it is marked read, and the member goes to what it is about (a plain link,
 * no JavaScript needed). Marked only when the member opened it here, never from another site's link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const id = Number(new URL(request.url).searchParams.get("id"));
  const row = Number.isInteger(id)
    ? await env.DB.prepare("SELECT kind, subject_id, actor_id FROM notifications WHERE id = ? AND user_id = ?")
        .bind(id, user.id)
        .first<{ kind: Parameters<typeof notificationTarget>[0]["kind"]; subject_id: number | null; actor_id: number | null }>()
    : null;
  if (!row) return redirect("/personal/notifications");
  if (isOwnNavigation(request)) await markRead(env.DB, user.id, [id], Date.now());
  return redirect(notificationTarget(row));
}
