import { redirect } from "react-router";
import { env } from "~/.server/bindings";
import { markRead, notificationTarget } from "~/.server/notifications/notifications";
import { requireUser } from "~/.server/web/auth/session";
import type { Route } from "./+types/notification-open";

// Opening a notification is the member's own POST (a form per notification, no JavaScript needed):
// it is marked read, then the member goes to what it is about. A GET (an old link, another site's)
// leads there too and changes nothing (decision 0036: no GET changes state).

async function target(userId: number, id: number) {
  if (!Number.isInteger(id)) return null;
  const row = await env.DB.prepare("SELECT kind, subject_id, actor_id FROM notifications WHERE id = ? AND user_id = ?")
    .bind(id, userId)
    .first<{ kind: Parameters<typeof notificationTarget>[0]["kind"]; subject_id: number | null; actor_id: number | null }>();
  return row ? notificationTarget(row) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return redirect((await target(user.id, Number(new URL(request.url).searchParams.get("id")))) ?? "/personal/notifications");
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const id = Number((await request.formData()).get("id"));
  const to = await target(user.id, id);
  if (!to) return redirect("/personal/notifications", { status: 303 });
  await markRead(env.DB, user.id, [id], Date.now());
  return redirect(to, { status: 303 });
}
