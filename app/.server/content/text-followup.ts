import { env } from "~/.server/bindings";
import { textShard } from "~/.server/databases";
import { FOLLOWUP_GRACE_MINUTES } from "~/lib/limits";

// An item's text and cues in a shard made to agree with the core (the follow-up of
// docs/decisions/0045-databases.md): kept only while the core holds the item in that shard, the
// text only for the item's current file once the core marks it done, the cues only under a caption
// set the core has.

/**
 * Rows written this recently may belong to a write whose core half is still to come (its set is
 * pending, its file just became the item's): they are left, and the record kept for a later run.
 */
export const WRITE_MARGIN_MS = 60_000;

/** Makes shard `n` agree with the core for item `contentId`; false when rows or a pending set were left for a later run. */
export async function reconcileText(n: number, contentId: number, now: number): Promise<boolean> {
  const db = env.DB;
  // A caption write that stopped before making its set ready has left it pending: past the grace period it goes.
  const [, item, sets] = await db.batch([
    db
      .prepare("DELETE FROM captions WHERE content_id = ? AND state = 'pending' AND updated_at < ?")
      .bind(contentId, now - FOLLOWUP_GRACE_MINUTES * 60_000),
    db.prepare("SELECT text_shard, file_key, text_state FROM content WHERE id = ?").bind(contentId),
    db.prepare("SELECT write_key, state FROM captions WHERE content_id = ?").bind(contentId),
  ]);
  const row = item?.results[0] as { text_shard: number; file_key: string; text_state: string | null } | undefined;
  const shard = textShard(n);
  if (!row || row.text_shard !== n) {
    // The item is gone (ids are never reused), or was never here: nothing here can be claimed.
    await shard.batch([
      shard.prepare("DELETE FROM document_text WHERE content_id = ?").bind(contentId),
      shard.prepare("DELETE FROM caption_cues WHERE content_id = ?").bind(contentId),
    ]);
    return true;
  }
  const held = (sets?.results ?? []) as { write_key: string; state: string }[];
  const keys = JSON.stringify(held.map((set) => set.write_key));
  // The text the core vouches for: its current file's, once marked done (a job that stopped or failed leaves none).
  const claimed = row.text_state === "done" ? row.file_key : null;
  const settled = now - WRITE_MARGIN_MS;
  const [, , left] = await shard.batch([
    shard
      .prepare("DELETE FROM document_text WHERE content_id = ? AND file_key IS NOT ? AND extracted_at < ?")
      .bind(contentId, claimed, settled),
    shard
      .prepare("DELETE FROM caption_cues WHERE content_id = ? AND caption_key NOT IN (SELECT value FROM json_each(?)) AND written_at < ?")
      .bind(contentId, keys, settled),
    shard
      .prepare(
        `SELECT (SELECT count(*) FROM document_text WHERE content_id = ?1 AND file_key IS NOT ?2)
              + (SELECT count(*) FROM caption_cues WHERE content_id = ?1 AND caption_key NOT IN (SELECT value FROM json_each(?3))) AS left_over`,
      )
      .bind(contentId, claimed, keys),
  ]);
  // A set still pending is a write that may yet finish, or one that stopped: kept until the grace period says which.
  const pending = held.some((set) => set.state === "pending");
  return !pending && Number((left?.results[0] as { left_over: number } | undefined)?.left_over ?? 0) === 0;
}
