import { env } from "~/.server/bindings";
import { conversationRoom, memberInbox, memberTag, sessionTag } from "./live";

/** Conversations told at once when a session ends: the newest ones. */
export const CLOSE_FANOUT_MAX = 100;

/**
 * Closes the live sockets of an ended session (or, with `hash` null, of every session the member
 * had: a password reset). The member's inbox and their newest conversations' rooms
 * are told; every room also checks the session on each event, so nothing sent after the end is
 * accepted even where this did not reach. The session has ended whatever happens here: a failure is
 * logged, never the member's error.
 */
export async function closeSessionSockets(userId: number, hash: string | null) {
  const tag = hash ? sessionTag(hash) : memberTag(userId);
  try {
    const { results } = await env.DB.prepare(
      `SELECT id FROM conversations WHERE member_low = ?1 OR member_high = ?1 ORDER BY id DESC LIMIT ${CLOSE_FANOUT_MAX}`,
    )
      .bind(userId)
      .all<{ id: number }>();
    await Promise.all([memberInbox(userId).closeSockets(tag), ...results.map(({ id }) => conversationRoom(id).closeSockets(tag))]);
  } catch (error) {
    console.error("closing an ended session's sockets", error);
  }
}
