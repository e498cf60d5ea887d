import { conversationRoom, memberInbox, memberTag, sessionTag } from "./live";

/**
 * Closes the live sockets of an ended session (or, with `hash` null, of every session the member
 * had: a password reset). The member's inbox and each of their conversations' rooms are told; the
 * rooms also check the session on every event, so nothing sent after the end is accepted even
 * where this could not reach.
 */
export async function closeSessionSockets(env: Env, userId: number, hash: string | null) {
  const tag = hash ? sessionTag(hash) : memberTag(userId);
  const { results } = await env.DB.prepare("SELECT id FROM conversations WHERE member_low = ? OR member_high = ?")
    .bind(userId, userId)
    .all<{ id: number }>();
  await Promise.all([memberInbox(env, userId).closeSockets(tag), ...results.map(({ id }) => conversationRoom(env, id).closeSockets(tag))]);
}
