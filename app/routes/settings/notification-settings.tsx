import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "~/lib/notifications";
import { sdgKey } from "~/lib/sdg";
import type { Following } from "~/lib/shapes";

/** How each kind of notification reaches the member: a channel each, in one form (no JavaScript needed). */
export function NotificationSettings({
  channels,
  following,
}: {
  channels: Record<NotificationKind, NotificationChannel>;
  following: Following;
}) {
  const { t } = useTranslation();
  return (
    <section id="notifications" aria-labelledby="notification-settings">
      <h2 id="notification-settings" className="mb-1 font-medium">
        {t("notifications.settings")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t("notifications.settingsHelp")}</p>
      <Form method="post" action="/personal/Setting/notifications" data-testid="notification-settings" className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="notifications" />
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            {t(`notifications.kinds.${kind}`)}
            <select
              name={`channel.${kind}`}
              defaultValue={channels[kind]}
              className="rounded border border-slate-300 bg-white px-2 py-1"
              data-kind={kind}
            >
              {NOTIFICATION_CHANNELS.map((channel) => (
                <option key={channel} value={channel}>
                  {t(`notifications.channels.${channel}`)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <p className="text-xs text-slate-600">{t("notifications.securityNote")}</p>
        <Button type="submit" className="mt-2 self-start">
          {t("notifications.save")}
        </Button>
      </Form>
      <h3 className="mt-4 mb-1 text-sm font-medium">{t("notifications.following")}</h3>
      {following.goals.length + following.searches.length === 0 ? (
        <p className="text-sm text-slate-600">{t("notifications.followingNone")}</p>
      ) : null}
      <ul className="flex flex-col gap-1 text-sm" data-testid="following">
        {following.goals.map((sdg) => (
          <li key={`goal-${sdg}`} className="flex items-center justify-between gap-2">
            <span>
              {sdg}. {t(sdgKey(sdg))}
            </span>
            <Form method="post" action="/personal/Setting/notifications">
              <input type="hidden" name="intent" value="unfollow-goal" />
              <input type="hidden" name="sdg" value={sdg} />
              <Button type="submit" variant="outline" size="sm">
                {t("notifications.stopFollowing")}
              </Button>
            </Form>
          </li>
        ))}
        {following.searches.map((search) => (
          <li key={`search-${search.id}`} className="flex items-center justify-between gap-2">
            <span>
              “{search.q}”{search.sdg ? ` · ${search.sdg}. ${t(sdgKey(search.sdg))}` : ""}
            </span>
            <Form method="post" action="/personal/Setting/notifications">
              <input type="hidden" name="intent" value="delete-search" />
              <input type="hidden" name="id" value={search.id} />
              <Button type="submit" variant="outline" size="sm">
                {t("notifications.deleteSearch")}
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
