import { redirect } from "react-router";
import { markRead, notificationTargetOf } from "~/.server/notifications/notifications";
import { requireUser } from "~/.server/web/auth/session";
import type { Route } from "./+types/notification-open";

// Opening a notification is the member's own POST (a form per notification, no JavaScript needed):
// it is marked read, then the member goes to what it is about. A GET (an old link, another site's)
// leads there too and changes nothing (decision 0036: no GET changes state).

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return redirect((await notificationTargetOf(user.id, Number(new URL(request.url).searchParams.get("id")))) ?? "/personal/notifications");
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const id = Number((await request.formData()).get("id"));
  const to = await notificationTargetOf(user.id, id);
  if (!to) return redirect("/personal/notifications", { status: 303 });
  await markRead(user.id, [id], Date.now());
  return redirect(to, { status: 303 });
}
