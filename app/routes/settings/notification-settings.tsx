import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { NOTIFICATION_CHANNELS, NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "~/lib/notifications";

/** How each kind of notification reaches the member: a channel each, in one form (no JavaScript needed). */
export function NotificationSettings({ channels }: { channels: Record<NotificationKind, NotificationChannel> }) {
  const { t } = useTranslation();
  return (
    <section id="notifications" aria-labelledby="notification-settings">
      <h2 id="notification-settings" className="mb-1 font-medium">
        {t("notifications.settings")}
      </h2>
      <p className="mb-3 text-sm text-slate-600">{t("notifications.settingsHelp")}</p>
      <Form method="post" data-testid="notification-settings" className="flex flex-col gap-2">
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
    </section>
  );
}
