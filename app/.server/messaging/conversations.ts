import { env } from "~/.server/bindings";
import { Refused } from "~/.server/refused";
import { BLOCKED_BETWEEN, NOT_AVAILABLE } from "~/.server/social/block-rules";
import type { MessageInput } from "~/lib/schemas/message";
import type { MemberSummary, Message } from "~/lib/shapes";
import { conversationRoom, memberInbox } from "./live";

// Conversations between two members: which exist and who is in them, in D1 (for authorisation and
// across members). Their messages live in each conversation's Durable Object (conversation-room.ts),
// their unread counts in each member's inbox object (member-inbox.ts).

export const MESSAGE_PAGE_SIZE = 30;

export interface ConversationSummary {
  id: number;
  other: MemberSummary;
  last_message: Pick<Message, "id" | "sender_id" | "body" | "created_at"> | null;
  unread_count: number;
}

const NO_MEMBER = () => new Refused("member.notFound", { status: 404 });

/**
 * The conversation of two members, made on first use. Refused with oneself, with a member who does
 * not exist (404), and where a block stands between them (403, without saying so).
 */
export async function startConversation(me: number, other: number, now: number): Promise<{ id: number; created: boolean }> {
  const db = env.DB;
  if (me === other) throw new Refused("notify.requestFailed", { field: "userId" });
  const found = await db
    .prepare(`SELECT ${BLOCKED_BETWEEN("?1", "?2")} AS blocked FROM users WHERE id = ?2 AND deleted_at IS NULL`)
    .bind(me, other)
    .first<{ blocked: number }>();
  if (!found) throw NO_MEMBER();
  if (found.blocked) throw new Refused(NOT_AVAILABLE, { status: 403 });
  const [low, high] = me < other ? [me, other] : [other, me];
  const inserted = await db
    .prepare("INSERT INTO conversations (member_low, member_high, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id")
    .bind(low, high, now)
    .first<{ id: number }>();
  const row =
    inserted ??
    (await db.prepare("SELECT id FROM conversations WHERE member_low = ? AND member_high = ?").bind(low, high).first<{ id: number }>());
  if (!row) throw NO_MEMBER();
  await db
    .prepare("INSERT OR IGNORE INTO conversation_members (conversation_id, user_id) VALUES (?1, ?2), (?1, ?3)")
    .bind(row.id, low, high)
    .run();
  return { id: row.id, created: Boolean(inserted) };
}

/**
 * A message sent into its conversation (the room stores and relays it; the same client id again
 * answers the stored one, `created` false). Refused to anyone not in the conversation (404, as for
 * one that does not exist) and where a block, a deleted account or a full conversation stands in
 * the way (403, without saying which): the room answers values, since a class does not cross to a
 * Durable Object and back.
 */
export async function sendMessage(conversationId: number, senderId: number, input: MessageInput) {
  const sent = await conversationRoom(conversationId).send(conversationId, senderId, input);
  if (sent === "not-member") throw new Refused("message.notFound", { status: 404 });
  if (!sent) throw new Refused(NOT_AVAILABLE, { status: 403 });
  return sent;
}

/** The conversation as one of its members sees it, or null for anyone else. */
export async function conversationFor(conversationId: number, userId: number) {
  return env.DB.prepare(
    `SELECT c.id, u.id AS other_id, u.nick_name, u.image, u.account_type FROM conversations c
       JOIN users u ON u.id = CASE WHEN c.member_low = ?2 THEN c.member_high ELSE c.member_low END
       WHERE c.id = ?1 AND ?2 IN (c.member_low, c.member_high)`,
  )
    .bind(conversationId, userId)
    .first<{ id: number; other_id: number; nick_name: string; image: string | null; account_type: 1 | 2 }>();
}

/**
 * The member's conversations, latest activity first, each with its unread count and last message:
 * which conversations and with whom from D1, the rest from the member's inbox object.
 */
export async function listConversations(userId: number): Promise<ConversationSummary[]> {
  const [{ results }, entries] = await Promise.all([
    env.DB.prepare(
      `SELECT c.id, c.created_at, u.id AS other_id, u.nick_name, u.image, u.account_type FROM conversation_members cm
       JOIN conversations c ON c.id = cm.conversation_id
       JOIN users u ON u.id = CASE WHEN c.member_low = ?1 THEN c.member_high ELSE c.member_low END
       WHERE cm.user_id = ?1`,
    )
      .bind(userId)
      .all<{ id: number; created_at: number; other_id: number; nick_name: string; image: string | null; account_type: 1 | 2 }>(),
    memberInbox(userId).entries(userId),
  ]);
  const inbox = new Map(entries.map((entry) => [entry.id, entry]));
  const at = (r: { id: number; created_at: number }) => inbox.get(r.id)?.last_message?.created_at ?? r.created_at;
  return results
    .sort((x, y) => at(y) - at(x) || y.id - x.id)
    .map((r) => ({
      id: r.id,
      other: { id: r.other_id, nick_name: r.nick_name, image: r.image, account_type: r.account_type },
      last_message: inbox.get(r.id)?.last_message ?? null,
      unread_count: inbox.get(r.id)?.unread ?? 0,
    }));
}

/** The sum of the member's unread counts (the sidebar badge), kept by their inbox object. */
export const unreadTotal = (userId: number) => memberInbox(userId).total(userId);

/**
 * What a conversation's room answers sends from: its two members, and whether it is closed (a block
 * stands between them, or one deleted their account; what was said stays readable). Null when it
 * does not exist.
 */
export async function roomFacts(conversationId: number) {
  const row = await env.DB.prepare(
    `SELECT member_low, member_high, ${BLOCKED_BETWEEN("member_low", "member_high")}
         OR EXISTS (SELECT 1 FROM users WHERE id IN (member_low, member_high) AND deleted_at IS NOT NULL) AS closed
       FROM conversations WHERE id = ?`,
  )
    .bind(conversationId)
    .first<{ member_low: number; member_high: number; closed: number }>();
  return row ? { members: [row.member_low, row.member_high] as [number, number], closed: Boolean(row.closed) } : null;
}
