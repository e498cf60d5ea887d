import { env } from "~/.server/bindings";

/** How many of the member's notifications are unread (the header's bell). */
export const unreadNotifications = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read_at IS NULL").bind(userId).first<number>("n")) ??
  0;
