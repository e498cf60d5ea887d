import { env } from "~/.server/bindings";
import type { LegacyMessage, RoomStore } from "./room-store";

// Messages lived in D1 until each conversation's Durable Object kept its own
// (docs/decisions/0028-messages-in-their-conversation.md). A room moves its conversation's D1 rows
// on first use, and the cron's job moves the rest; moving twice moves nothing twice.

const MOVE_PAGE = 500;
/** Conversations one move job settles before it queues the next. */
export const MOVE_JOB_CONVERSATIONS = 20;

/**
 * Moves one conversation's D1 messages into its room, in order, with each member's read position
 * and the reports on them re-pointed to the new ids; the D1 rows go last, so a move cut short is
 * simply run again.
 */
export async function moveLegacyMessages(store: RoomStore, conversationId: number): Promise<number> {
  const db = env.DB;
  let moved = 0;
  let after = 0;
  for (;;) {
    const { results } = await db
      .prepare(
        `SELECT id, sender_id, client_id, body, created_at, hidden_at FROM messages
         WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT ${MOVE_PAGE}`,
      )
      .bind(conversationId, after)
      .all<LegacyMessage>();
    const last = results.at(-1);
    if (!last) break;
    const ids = store.importMessages(conversationId, results);
    const { results: reported } = await db
      .prepare("SELECT DISTINCT target_id FROM reports WHERE target_type = 'message' AND target_id BETWEEN ? AND ?")
      .bind(results[0]?.id, last.id)
      .all<{ target_id: number }>();
    const moves = reported.flatMap(({ target_id }) => {
      const id = ids.get(target_id);
      return id === undefined
        ? []
        : // OR IGNORE: a member who reported the message again under its new id keeps that one report.
          [db.prepare("UPDATE OR IGNORE reports SET target_id = ? WHERE target_type = 'message' AND target_id = ?").bind(id, target_id)];
    });
    if (moves.length > 0) await db.batch(moves);
    moved += results.length;
    after = last.id;
  }
  if (moved === 0) return 0;
  const { results: reads } = await db
    .prepare("SELECT user_id, last_read_id FROM conversation_members WHERE conversation_id = ?")
    .bind(conversationId)
    .all<{ user_id: number; last_read_id: number }>();
  for (const read of reads) store.importRead(read.user_id, read.last_read_id);
  // Only what was moved: a row written meanwhile (the demo data again) waits for the next move.
  await db.prepare("DELETE FROM messages WHERE conversation_id = ? AND id <= ?").bind(conversationId, after).run();
  return moved;
}

/** Conversations that still have messages in D1, a bounded number. */
export async function conversationsToMove(limit = MOVE_JOB_CONVERSATIONS) {
  const { results } = await env.DB.prepare("SELECT DISTINCT conversation_id AS id FROM messages LIMIT ?").bind(limit).all<{ id: number }>();
  return results.map((r) => r.id);
}

/** The member's conversations that still have messages in D1 (their inbox settles these on first use). */
export async function memberConversationsToMove(userId: number) {
  const { results } = await env.DB.prepare(
    `SELECT cm.conversation_id AS id FROM conversation_members cm
       WHERE cm.user_id = ? AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = cm.conversation_id)`,
  )
    .bind(userId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}
