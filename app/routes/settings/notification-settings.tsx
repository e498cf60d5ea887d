import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { NOTIFICATION_KINDS } from "~/lib/notifications";

/** Which kinds of notification reach the member (a checkbox each; one form, no JavaScript needed). */
export function NotificationSettings({ muted }: { muted: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <>
      <h2 className="mb-1 font-medium">{t("notifications.settings")}</h2>
      <p className="mb-3 text-sm text-slate-600">{t("notifications.settingsHelp")}</p>
      <Form method="post" data-testid="notification-settings" className="flex flex-col gap-2">
        <input type="hidden" name="intent" value="notifications" />
        {NOTIFICATION_KINDS.map((kind) => (
          <label key={kind} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="kinds" value={kind} defaultChecked={!muted.includes(kind)} />
            {t(`notifications.kinds.${kind}`)}
          </label>
        ))}
        <Button type="submit" className="mt-2 self-start">
          {t("notifications.save")}
        </Button>
      </Form>
    </>
  );
}
