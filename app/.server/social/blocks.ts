import { env } from "~/.server/bindings";
import { refreshPairRoom } from "~/.server/messaging/room-facts";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { NOT_AVAILABLE } from "./block-rules";

// Blocking and unblocking (the rules the other services check are in block-rules.ts).

export const MAX_BLOCKS = 1000;

/**
 * Blocks `blockedId` for `blockerId` and ends follows both ways; a repeat changes nothing in D1
 * (false) and tells their conversation's room again (so a repeat after a failed telling completes
 * it). Refused: oneself or a member who does not exist (403, as for anything not available), and a
 * block list already holding MAX_BLOCKS (beside nothing: the member unblocks someone first).
 */
export async function block(blockerId: number, blockedId: number, now: number): Promise<boolean> {
  const db = env.DB;
  if (blockerId === blockedId) throw new Refused(NOT_AVAILABLE, { status: 403 });
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO blocks (blocker_id, blocked_id, created_at) SELECT ?1, ?2, ?3
         WHERE EXISTS (SELECT 1 FROM users WHERE id = ?2 AND deleted_at IS NULL) AND (SELECT count(*) FROM blocks WHERE blocker_id = ?1) < ?4
         ON CONFLICT DO NOTHING`,
      )
      .bind(blockerId, blockedId, now, MAX_BLOCKS),
    db
      .prepare(
        `DELETE FROM follows WHERE ((follower_id = ?1 AND followee_id = ?2) OR (follower_id = ?2 AND followee_id = ?1))
         AND EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2)`,
      )
      .bind(blockerId, blockedId),
    // Neither stays in a meeting the other hosts (nor hears of its changes); ended meetings keep their record.
    db
      .prepare(
        `DELETE FROM meeting_participants WHERE EXISTS (SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2)
         AND meeting_id IN (SELECT id FROM meetings WHERE cancelled_at IS NULL AND starts_at + duration_minutes * 60000 > ?3
           AND ((host_id = ?2 AND meeting_participants.user_id = ?1) OR (host_id = ?1 AND meeting_participants.user_id = ?2)))`,
      )
      .bind(blockerId, blockedId, now),
  ]);
  await refreshPairRoom(blockerId, blockedId);
  if ((inserted?.meta.changes ?? 0) > 0) return true;
  if (await hasBlocked(blockerId, blockedId)) return false;
  const member = await db.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NULL").bind(blockedId).first();
  throw member ? new Refused(`safety.blockListFull|max=${MAX_BLOCKS}`) : new Refused(NOT_AVAILABLE, { status: 403 });
}

export async function unblock(blockerId: number, blockedId: number) {
  await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).run();
  await refreshPairRoom(blockerId, blockedId);
}

export async function hasBlocked(blockerId: number, blockedId: number): Promise<boolean> {
  return Boolean(
    await env.DB.prepare("SELECT 1 AS yes FROM blocks WHERE blocker_id = ? AND blocked_id = ?").bind(blockerId, blockedId).first(),
  );
}

/** The members one has blocked, newest first (the settings page's list). */
export const blockedRead = (blockerId: number): Read<{ id: number; nick_name: string; image: string | null; account_type: 1 | 2 }[]> => ({
  statements: [
    env.DB.prepare(
      `SELECT u.id, u.nick_name, u.image, u.account_type FROM blocks b JOIN users u ON u.id = b.blocked_id
       WHERE b.blocker_id = ? ORDER BY b.created_at DESC LIMIT ?`,
    ).bind(blockerId, MAX_BLOCKS),
  ],
  decode: ([found]) => (found?.results ?? []) as { id: number; nick_name: string; image: string | null; account_type: 1 | 2 }[],
});
