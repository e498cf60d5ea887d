import { useTranslation } from "react-i18next";
import { Form, Link, redirect } from "react-router";
import { listNotifications, markRead } from "~/.server/notifications/notifications";
import { requireUser } from "~/.server/web/auth/session";
import { PageTitle } from "~/components/page-title";
import { RelativeTime } from "~/components/relative-time";
import { Button } from "~/components/ui/button";
import { notificationText } from "~/lib/notifications";
import { cn } from "~/lib/utils";
import type { Route } from "./+types/notifications";

/** /personal/notifications: what happened while the member was away, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return { notifications: await listNotifications(user.id), now: Date.now() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  await markRead(user.id, "all", Date.now());
  return redirect("/personal/notifications", { status: 303 });
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { notifications, now } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <PageTitle titleKey="notifications" />
      <div className="flex items-center justify-end gap-3">
        <Link
          to="/personal/Setting?section=notifications#notifications"
          className="text-sm text-brand underline underline-offset-2"
          data-testid="notification-preferences"
        >
          {t("notifications.preferences")}
        </Link>
        {notifications.some((n) => !n.read_at) ? (
          <Form method="post">
            <Button type="submit" variant="outline" size="sm">
              {t("notifications.markAllRead")}
            </Button>
          </Form>
        ) : null}
      </div>
      {notifications.length === 0 ? <p className="text-sm text-slate-500">{t("notifications.none")}</p> : null}
      <ul className="flex flex-col gap-2" data-testid="notifications">
        {notifications.map((row) => (
          <li key={row.id} data-testid="notification" data-unread={row.read_at ? undefined : "true"}>
            <Form method="post" action="/personal/notifications/open">
              <input type="hidden" name="id" value={row.id} />
              <button
                type="submit"
                className={cn(
                  "flex w-full items-start gap-3 rounded-lg border p-3 text-left text-sm hover:border-brand",
                  row.read_at ? "border-slate-200 bg-white" : "border-brand/40 bg-blue-50/40",
                )}
              >
                {row.read_at ? null : (
                  <span className="mt-1.5 size-2 shrink-0 rounded-full bg-brand">
                    <span className="sr-only">{t("notifications.unread")}</span>
                  </span>
                )}
                <span className="flex-1">{notificationText(t, row)}</span>
                <span className="text-xs text-slate-600">
                  <RelativeTime date={new Date(row.created_at)} now={new Date(now)} />
                </span>
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
