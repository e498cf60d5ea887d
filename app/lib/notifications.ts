import type { TFunction } from "i18next";

/** Every kind of notification, in the order settings lists them (docs/decisions/0040-calm-notifications.md). */
export const NOTIFICATION_KINDS = [
  "message",
  "comment",
  "reply",
  "mention",
  "follower",
  "like",
  "followed_upload",
  "goal_item",
  "saved_search",
  "meeting",
  "verification",
  "moderation",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * How a kind reaches a member: every channel but "off" shows it in the app; "mail" also mails it at
 * once, "daily" and "weekly" put it in that digest. Mail about the account's security (codes, the
 * password, a suspension) always goes and is not a kind here.
 */
export const NOTIFICATION_CHANNELS = ["app", "mail", "daily", "weekly", "off"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** The calm defaults: mail at once only for meetings, verification decisions and moderation notices. */
export function defaultChannel(kind: NotificationKind): NotificationChannel {
  return kind === "meeting" || kind === "verification" || kind === "moderation" ? "mail" : "weekly";
}

export const isNotificationKind = (value: string): value is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(value);
export const isNotificationChannel = (value: string): value is NotificationChannel =>
  (NOTIFICATION_CHANNELS as readonly string[]).includes(value);

/** The sentence a notification reads as, in the reader's language. */
export function notificationText(
  t: TFunction,
  row: { kind: NotificationKind; event: string; actor_name: string | null; subject_title: string | null },
): string {
  // biome-ignore lint/suspicious/noExplicitAny: kind and event come from the closed list the table allows
  return t(`notifications.events.${row.kind}.${row.event}` as any, {
    actor: row.actor_name || t("notifications.someone"),
    subject: row.subject_title ?? t("notifications.unavailable"),
  });
}
