/** How many of the member's notifications are unread (the header's bell). */
export const unreadNotifications = async (db: D1Database, userId: number) =>
  (await db.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read_at IS NULL").bind(userId).first<number>("n")) ?? 0;
