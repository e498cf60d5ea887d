import { BLOCKED_BETWEEN } from "~/.server/social/blocks";
import type { MemberSummary, Message } from "~/lib/shapes";

// Conversations between two members and their messages, in D1. Every write a member makes goes
// through the conversation's Durable Object (conversation-room.ts), which calls these in order.

export const MESSAGE_PAGE_SIZE = 30;

export interface ConversationSummary {
  id: number;
  other: MemberSummary;
  last_message: Pick<Message, "id" | "sender_id" | "body" | "created_at"> | null;
  unread_count: number;
}

/**
 * The conversation of two members, made on first use; null when the other member does not exist,
 * "refused" when a block stands between them.
 */
export async function startConversation(db: D1Database, me: number, other: number, now: number) {
  if (me === other) return null;
  const found = await db
    .prepare(`SELECT ${BLOCKED_BETWEEN("?1", "?2")} AS blocked FROM users WHERE id = ?2 AND deleted_at IS NULL`)
    .bind(me, other)
    .first<{ blocked: number }>();
  if (!found) return null;
  if (found.blocked) return "refused" as const;
  const [low, high] = me < other ? [me, other] : [other, me];
  const inserted = await db
    .prepare("INSERT INTO conversations (member_low, member_high, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id")
    .bind(low, high, now)
    .first<{ id: number }>();
  const row =
    inserted ??
    (await db.prepare("SELECT id FROM conversations WHERE member_low = ? AND member_high = ?").bind(low, high).first<{ id: number }>());
  if (!row) return null;
  await db
    .prepare("INSERT OR IGNORE INTO conversation_members (conversation_id, user_id) VALUES (?1, ?2), (?1, ?3)")
    .bind(row.id, low, high)
    .run();
  return { id: row.id, created: Boolean(inserted) };
}

/** The conversation as one of its members sees it, or null for anyone else. */
export async function conversationFor(db: D1Database, conversationId: number, userId: number) {
  return db
    .prepare(
      `SELECT c.id, u.id AS other_id, u.nick_name, u.image, u.account_type FROM conversations c
       JOIN users u ON u.id = CASE WHEN c.member_low = ?2 THEN c.member_high ELSE c.member_low END
       WHERE c.id = ?1 AND ?2 IN (c.member_low, c.member_high)`,
    )
    .bind(conversationId, userId)
    .first<{ id: number; other_id: number; nick_name: string; image: string | null; account_type: 1 | 2 }>();
}

/** The member's conversations, latest activity first, each with its unread count. */
export async function listConversations(db: D1Database, userId: number): Promise<ConversationSummary[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id, u.id AS other_id, u.nick_name, u.image, u.account_type,
         m.id AS m_id, m.sender_id, m.body, m.created_at,
         (SELECT count(*) FROM messages x WHERE x.conversation_id = c.id AND x.id > cm.last_read_id AND x.sender_id <> ?1 AND x.hidden_at IS NULL) AS unread_count
       FROM conversation_members cm
       JOIN conversations c ON c.id = cm.conversation_id
       JOIN users u ON u.id = CASE WHEN c.member_low = ?1 THEN c.member_high ELSE c.member_low END
       LEFT JOIN messages m ON m.id = c.last_message_id AND m.hidden_at IS NULL
       WHERE cm.user_id = ?1
       ORDER BY coalesce(m.created_at, c.created_at) DESC, c.id DESC`,
    )
    .bind(userId)
    .all<{
      id: number;
      other_id: number;
      nick_name: string;
      image: string | null;
      account_type: 1 | 2;
      m_id: number | null;
      sender_id: number;
      body: string;
      created_at: number;
      unread_count: number;
    }>();
  return results.map((r) => ({
    id: r.id,
    other: { id: r.other_id, nick_name: r.nick_name, image: r.image, account_type: r.account_type },
    last_message: r.m_id === null ? null : { id: r.m_id, sender_id: r.sender_id, body: r.body, created_at: r.created_at },
    unread_count: r.unread_count,
  }));
}

/** The sum of the member's unread counts (the sidebar badge). */
export async function unreadTotal(db: D1Database, userId: number): Promise<number> {
  const row = await db
    .prepare(
      `SELECT count(*) AS n FROM conversation_members cm JOIN messages m ON m.conversation_id = cm.conversation_id
       WHERE cm.user_id = ?1 AND m.id > cm.last_read_id AND m.sender_id <> ?1 AND m.hidden_at IS NULL`,
    )
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** A message as members see it (moderation columns stay in the database). */
const MESSAGE = "id, conversation_id, sender_id, client_id, body, created_at";

/**
 * Stores a message once per (sender, client id): a resend answers the stored message with
 * `created: false`. The sender has read everything up to their own message. One round trip.
 * Null when a block stands between the two members or one deleted their account (checked inside the insert).
 */
export async function storeMessage(db: D1Database, conversationId: number, senderId: number, body: string, clientId: string, now: number) {
  const stored = "(SELECT id FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND client_id = ?3)";
  const [inserted, , , found] = await db.batch([
    db
      .prepare(
        `INSERT INTO messages (conversation_id, sender_id, client_id, body, created_at) SELECT ?1, ?2, ?3, ?4, ?5
         WHERE NOT EXISTS (SELECT 1 FROM conversations c JOIN blocks b
           ON (b.blocker_id = c.member_low AND b.blocked_id = c.member_high) OR (b.blocker_id = c.member_high AND b.blocked_id = c.member_low)
           WHERE c.id = ?1)
         -- A deleted member's conversation stays readable, but nothing more is sent into it.
         AND NOT EXISTS (SELECT 1 FROM conversations c JOIN users u ON u.id IN (c.member_low, c.member_high)
           WHERE c.id = ?1 AND u.deleted_at IS NOT NULL)
         ON CONFLICT (conversation_id, sender_id, client_id) DO NOTHING RETURNING id`,
      )
      .bind(conversationId, senderId, clientId, body, now),
    db
      .prepare(
        `UPDATE conversations SET last_message_id = max(coalesce(last_message_id, 0), ${stored}) WHERE id = ?1 AND ${stored} IS NOT NULL`,
      )
      .bind(conversationId, senderId, clientId),
    db
      .prepare(
        `UPDATE conversation_members SET last_read_id = max(last_read_id, ${stored}) WHERE conversation_id = ?1 AND user_id = ?2 AND ${stored} IS NOT NULL`,
      )
      .bind(conversationId, senderId, clientId),
    db
      .prepare(`SELECT ${MESSAGE} FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND client_id = ?3`)
      .bind(conversationId, senderId, clientId),
  ]);
  const message = found?.results[0] as Message | undefined;
  if (!message) return null;
  return { message, created: Boolean(inserted?.results.length) };
}

export interface PageOptions {
  /** Messages older than this id (the "older messages" link). */
  before?: number;
  /** Messages newer than this id (catching up after a reconnect). */
  after?: number;
  limit?: number;
}

/** A page of messages, oldest first: the newest ones, or those before / after an id. */
export async function messagesPage(db: D1Database, conversationId: number, { before, after, limit = MESSAGE_PAGE_SIZE }: PageOptions = {}) {
  const size = Math.min(Math.max(limit, 1), 100);
  const statement =
    after !== undefined
      ? db
          .prepare(`SELECT ${MESSAGE} FROM messages WHERE conversation_id = ? AND id > ? AND hidden_at IS NULL ORDER BY id LIMIT ?`)
          .bind(conversationId, after, size + 1)
      : db
          .prepare(`SELECT ${MESSAGE} FROM messages WHERE conversation_id = ? AND id < ? AND hidden_at IS NULL ORDER BY id DESC LIMIT ?`)
          .bind(conversationId, before ?? Number.MAX_SAFE_INTEGER, size + 1);
  const { results } = await statement.all<Message>();
  const page = results.slice(0, size);
  return { messages: after !== undefined ? page : page.reverse(), hasMore: results.length > size };
}

/** Marks the conversation read for the member, up to `upTo` (default, and at most: its latest message). */
export async function markRead(db: D1Database, conversationId: number, userId: number, upTo?: number) {
  await db
    .prepare(
      `UPDATE conversation_members
       SET last_read_id = max(last_read_id, min(?3, (SELECT coalesce(last_message_id, 0) FROM conversations WHERE id = ?1)))
       WHERE conversation_id = ?1 AND user_id = ?2`,
    )
    .bind(conversationId, userId, upTo ?? Number.MAX_SAFE_INTEGER)
    .run();
}

/** The members of a conversation (both of them). */
export async function membersOf(db: D1Database, conversationId: number): Promise<number[]> {
  const row = await db.prepare("SELECT member_low, member_high FROM conversations WHERE id = ?").bind(conversationId).first<{
    member_low: number;
    member_high: number;
  }>();
  return row ? [row.member_low, row.member_high] : [];
}
