import { env } from "~/.server/bindings";
import { shownColumn } from "~/.server/content/item-texts";
import { enqueue } from "~/.server/jobs/queue";
import { pushUnread } from "~/.server/messaging/member-inbox";
import { type Read, readOne } from "~/.server/reads";
import { defaultChannel, NOTIFICATION_KINDS, type NotificationChannel, type NotificationKind } from "~/lib/notifications";

// The notification centre (docs/decisions/0023-notifications.md, 0040-calm-notifications.md). Each
// event has a key, unique per member, so recording it twice (a repeat, two requests at once)
// notifies once. A kind the member turned off is not recorded at all; the others show in the app,
// and their channel says whether mail goes at once or in a digest.

/** Kinds whose producers send their own mail (a meeting's invitation, a decision, a warning), asking mailsAtOnce first. */
const MAILS_ITSELF: NotificationKind[] = ["meeting", "verification", "moderation"];

/** The member's channel for a kind, in SQL (?1 the member, ?2 the kind, ?8 the kind's default). */
const CHANNEL = "coalesce((SELECT channel FROM notification_channels WHERE user_id = ?1 AND kind = ?2), ?8)";

export interface NewNotification {
  userId: number;
  kind: NotificationKind;
  /** What happened, within the kind: "invite", "update", "cancel", "approved"... (a translation key's last part). */
  event: string;
  /** Names the event: the same key is one notification. */
  key: string;
  subjectId: number | null;
  actorId: number | null;
}

/**
 * Records the notifications (skipping muted kinds and repeats) and tells the members' open pages:
 * after the answer when `later` is given (many members), else before it.
 */
export async function notify(notes: NewNotification[], now: number, later?: (work: Promise<unknown>) => void) {
  const db = env.DB;
  const wanted = notes.filter((note) => note.userId !== note.actorId);
  if (wanted.length === 0) return;
  const results = await db.batch([
    ...wanted.map((note) =>
      db
        .prepare(
          `INSERT INTO notifications (user_id, kind, event, event_key, subject_id, actor_id, created_at)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE ${CHANNEL} <> 'off'
           ON CONFLICT (user_id, event_key) DO NOTHING`,
        )
        .bind(note.userId, note.kind, note.event, note.key, note.subjectId, note.actorId, now, defaultChannel(note.kind)),
    ),
    // The ones just recorded that their member wants mailed at once (kinds that mail themselves aside).
    db
      .prepare(
        `SELECT n.id FROM json_each(?1) j JOIN notifications n ON n.user_id = j.value ->> 0 AND n.event_key = j.value ->> 1
           JOIN notification_channels c ON c.user_id = n.user_id AND c.kind = n.kind AND c.channel = 'mail'
           WHERE n.created_at = ?2 AND n.kind NOT IN (${MAILS_ITSELF.map((kind) => `'${kind}'`).join(", ")})`,
      )
      .bind(JSON.stringify(wanted.map((note) => [note.userId, note.key])), now),
  ]);
  const mailed = ((results.at(-1)?.results ?? []) as { id: number }[]).map((row) => ({ type: "notification-mail", id: row.id }) as const);
  if (mailed.length > 0) {
    const queued = enqueue(mailed).catch((error) => console.error("queuing notification mail", error));
    if (later) later(queued);
    else await queued;
  }
  const told = new Set(wanted.filter((_, i) => results[i]?.meta.changes).map((note) => note.userId));
  // Live is a courtesy: the count is right on the next page load whatever happens here.
  const pushes = Promise.all(
    [...told].map((userId) => pushUnread(userId).catch((error) => console.error("notification push failed", error))),
  );
  if (later) later(pushes);
  else await pushes;
}

/**
 * One event for many members at once (a new item for its followers): one statement records them all
 * (skipping who turned the kind off, and repeats: the key is per member), one finds whom to mail at
 * once. Answers the members newly told.
 */
export async function notifyMany(userIds: readonly number[], note: Omit<NewNotification, "userId">, now: number): Promise<number[]> {
  const db = env.DB;
  const ids = userIds.filter((id) => id !== note.actorId);
  if (ids.length === 0) return [];
  const [inserted, mailed] = await db.batch([
    db
      .prepare(
        `INSERT INTO notifications (user_id, kind, event, event_key, subject_id, actor_id, created_at)
         SELECT j.value, ?2, ?3, ?4, ?5, ?6, ?7 FROM json_each(?1) j
           WHERE coalesce((SELECT channel FROM notification_channels WHERE user_id = j.value AND kind = ?2), ?8) <> 'off'
         ON CONFLICT (user_id, event_key) DO NOTHING RETURNING user_id`,
      )
      .bind(JSON.stringify(ids), note.kind, note.event, note.key, note.subjectId, note.actorId, now, defaultChannel(note.kind)),
    db
      .prepare(
        `SELECT n.id FROM json_each(?1) j JOIN notifications n ON n.user_id = j.value AND n.event_key = ?2 AND n.created_at = ?3
           JOIN notification_channels c ON c.user_id = n.user_id AND c.kind = n.kind AND c.channel = 'mail'`,
      )
      .bind(JSON.stringify(ids), note.key, now),
  ]);
  const mails = ((mailed?.results ?? []) as { id: number }[]).map((row) => ({ type: "notification-mail", id: row.id }) as const);
  if (mails.length > 0) await enqueue(mails);
  const told = ((inserted?.results ?? []) as { user_id: number }[]).map((row) => row.user_id);
  await Promise.all(told.map((userId) => pushUnread(userId).catch((error) => console.error("notification push failed", error))));
  return told;
}

export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  event: string;
  subject_id: number | null;
  actor_id: number | null;
  actor_name: string | null;
  subject_title: string | null;
  created_at: number;
  read_at: number | null;
}

/**
 * What a notification is about, named only while the member may still see it: a meeting they are
 * in, an item that is public or theirs (as findContent decides; a hidden item is not public). Else
 * NULL, read as the neutral "no longer available", never the current title. An item's title is in the
 * member's language where its owner gave one (decision 0050), in the list and the digests alike.
 */
export const SUBJECT_TITLE = `CASE n.kind WHEN 'meeting' THEN (SELECT title FROM meetings m WHERE m.id = n.subject_id
                       AND (m.host_id = n.user_id OR EXISTS (SELECT 1 FROM meeting_participants p WHERE p.meeting_id = m.id AND p.user_id = n.user_id)))
                     WHEN 'follower' THEN NULL WHEN 'verification' THEN NULL WHEN 'moderation' THEN NULL WHEN 'message' THEN NULL
                     ELSE (SELECT ${shownColumn("title", { sql: "(SELECT language FROM users WHERE id = n.user_id)" })} FROM content c
                       WHERE c.id = n.subject_id AND (c.publicize = 1 OR c.owner_id = n.user_id)) END`;

/** The member's notifications, newest first, with who did it and what it concerns. */
export async function listNotifications(userId: number, limit = 50, before?: number) {
  const { results } = await env.DB.prepare(
    `SELECT n.id, n.kind, n.event, n.subject_id, n.actor_id, a.nick_name AS actor_name, n.created_at, n.read_at,
         ${SUBJECT_TITLE} AS subject_title
       FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
       WHERE n.user_id = ?1 AND n.id < ?2 ORDER BY n.id DESC LIMIT ?3`,
  )
    .bind(userId, before ?? Number.MAX_SAFE_INTEGER, limit)
    .all<NotificationRow>();
  return results;
}

/** The member's notifications of these kinds that arrived in [since, until), oldest first (a digest's). */
export async function listNotificationsSince(
  userId: number,
  kinds: readonly NotificationKind[],
  since: number,
  until: number,
  limit: number,
) {
  const { results } = await env.DB.prepare(
    `SELECT n.id, n.kind, n.event, n.subject_id, n.actor_id, a.nick_name AS actor_name, n.created_at, n.read_at, ${SUBJECT_TITLE} AS subject_title
       FROM notifications n LEFT JOIN users a ON a.id = n.actor_id
       WHERE n.user_id = ?1 AND n.created_at >= ?2 AND n.created_at < ?3 AND n.kind IN (SELECT value FROM json_each(?4))
       ORDER BY n.created_at, n.id LIMIT ?5`,
  )
    .bind(userId, since, until, JSON.stringify(kinds), limit)
    .all<NotificationRow>();
  return results;
}

/** Marks the member's notifications read (these ids, or all); answers how many changed. */
export async function markRead(userId: number, ids: number[] | "all", now: number) {
  const db = env.DB;
  const result =
    ids === "all"
      ? await db.prepare("UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL").bind(now, userId).run()
      : await db
          .prepare("UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL AND id IN (SELECT value FROM json_each(?))")
          .bind(now, userId, JSON.stringify(ids))
          .run();
  if (result.meta.changes) await pushUnread(userId).catch(() => {});
  return result.meta.changes;
}

/** Where one of the member's notifications leads (null when it is not theirs). */
export async function notificationTargetOf(userId: number, id: number) {
  if (!Number.isInteger(id)) return null;
  const row = await env.DB.prepare("SELECT kind, subject_id, actor_id FROM notifications WHERE id = ? AND user_id = ?")
    .bind(id, userId)
    .first<Pick<NotificationRow, "kind" | "subject_id" | "actor_id">>();
  return row ? notificationTarget(row) : null;
}

/** Where a notification leads: its subject's page. */
export function notificationTarget(row: Pick<NotificationRow, "kind" | "subject_id" | "actor_id">): string {
  switch (row.kind) {
    case "meeting":
      return `/liveStreaming/join?id=${row.subject_id}`;
    case "follower":
      return `/personal?member=${row.actor_id}`;
    case "like":
    case "comment":
    case "reply":
    case "mention":
    case "followed_upload":
    case "goal_item":
    case "saved_search":
      return `/retrieval/detail?id=${row.subject_id}`;
    case "message":
      return `/message?conversation=${row.subject_id}`;
    case "verification":
      return "/personal/verification";
    case "moderation":
      return "/personal";
  }
}

export type Channels = Record<NotificationKind, NotificationChannel>;

/** The member's channel for every kind (their choice, else the calm default). */
export const channelsRead = (userId: number): Read<Channels> => ({
  statements: [env.DB.prepare("SELECT kind, channel FROM notification_channels WHERE user_id = ?").bind(userId)],
  decode: ([found]) => {
    const chosen = new Map(
      ((found?.results ?? []) as { kind: string; channel: NotificationChannel }[]).map((row) => [row.kind, row.channel]),
    );
    return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? defaultChannel(kind)])) as Channels;
  },
});

export const channelsOf = (userId: number) => readOne(channelsRead(userId));

/** Whether the member wants this kind mailed at once (a producer that mails asks before it does). */
export async function mailsAtOnce(userId: number, kind: NotificationKind): Promise<boolean> {
  const row = await env.DB.prepare(`SELECT ${CHANNEL.replace("?8", "?3")} AS channel`)
    .bind(userId, kind, defaultChannel(kind))
    .first<{ channel: NotificationChannel }>();
  return row?.channel === "mail";
}

/** Sets the member's channel for the kinds given (the others keep theirs); a repeat changes nothing. */
export async function setChannels(userId: number, channels: Partial<Channels>) {
  const db = env.DB;
  const entries = Object.entries(channels);
  if (entries.length === 0) return;
  await db.batch(
    entries.map(([kind, channel]) =>
      db
        .prepare(
          "INSERT INTO notification_channels (user_id, kind, channel) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET channel = excluded.channel",
        )
        .bind(userId, kind, channel),
    ),
  );
}
