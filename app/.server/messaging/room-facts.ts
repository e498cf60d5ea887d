import { env } from "~/.server/bindings";
import { enqueue } from "~/.server/jobs/queue";
import { conversationRoom } from "./live";

// A conversation's room answers sends from its own facts (who is in it, whether it is closed), so a
// message never waits on D1. What changes those facts tells the rooms here, after its D1 write:
// a block or an unblock (the pair's one room), an account deletion (every room of the member).

/** Rooms one call tells; a member with more conversations has the rest told by queued jobs. */
export const ROOM_REFRESH_BATCH = 100;

/** Tells the room of two members' conversation, if they have one, to read its facts again. */
export async function refreshPairRoom(a: number, b: number) {
  const [low, high] = a < b ? [a, b] : [b, a];
  const row = await env.DB.prepare("SELECT id FROM conversations WHERE member_low = ? AND member_high = ?")
    .bind(low, high)
    .first<{ id: number }>();
  if (row) await conversationRoom(row.id).refresh(row.id);
}

/**
 * Tells the rooms of a member's conversations after `after` (by id) to read their facts again, a
 * batch at a time: the first here, the rest through the queue.
 */
export async function refreshMemberRooms(userId: number, after = 0) {
  const { results } = await env.DB.prepare(
    `SELECT id FROM conversations WHERE (member_low = ?1 OR member_high = ?1) AND id > ?2 ORDER BY id LIMIT ${ROOM_REFRESH_BATCH}`,
  )
    .bind(userId, after)
    .all<{ id: number }>();
  await Promise.all(results.map(({ id }) => conversationRoom(id).refresh(id)));
  const last = results.at(-1);
  if (last && results.length === ROOM_REFRESH_BATCH) await enqueue([{ type: "rooms-refresh", member: userId, after: last.id }]);
}
