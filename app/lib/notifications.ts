import type { TFunction } from "i18next";

/** The kinds of notification a member can turn off, each on its own (settings). */
export const NOTIFICATION_KINDS = ["meeting", "follower", "like", "comment", "verification"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The sentence a notification reads as, in the reader's language. */
export function notificationText(
  t: TFunction,
  row: { kind: NotificationKind; event: string; actor_name: string | null; subject_title: string | null },
): string {
  // biome-ignore lint/suspicious/noExplicitAny: kind and event come from the closed list the table allows
  return t(`notifications.events.${row.kind}.${row.event}` as any, {
    actor: row.actor_name || t("notifications.someone"),
    subject: row.subject_title ?? t("notifications.removed"),
  });
}
