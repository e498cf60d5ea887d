import { env } from "~/.server/bindings";
import { reconcileText } from "~/.server/content/text-followup";
import type { FollowupJob } from "~/.server/jobs/jobs";
import { reconcileStats } from "~/.server/stats/followup";
import { FOLLOWUP_GRACE_MINUTES } from "~/lib/limits";

// Writes that span two databases (docs/decisions/0045-databases.md) have no shared transaction. Each
// records, in the core, what the other database may hold that the core does not vouch for: before
// writing there, or in the batch that deletes what it belonged to. The record goes once the write is
// whole; a follow-up job makes the other database agree with the core for the record's subject (safe
// to repeat, and to run beside a write still under way), and the cron queues it again for a record
// left behind by a write that stopped between its halves.

/** What a record is about: an item's text and cues in shard n, an item's statistics, a member's. */
export type FollowupTarget = `text:${number}` | "stats" | "stats-member";

/**
 * The statement recording follow-ups for the rows `select` gives (its columns: target, subject; its
 * placeholders from ?2), answering their ids; ?1 is the time.
 */
export const recordFollowups = (select: string, now: number, ...values: unknown[]) =>
  env.DB.prepare(`INSERT INTO shard_followups (target, subject, queued_at) ${select} RETURNING id, target`).bind(now, ...values);

/** One record's statement. */
export const recordFollowup = (target: FollowupTarget, subject: number, now: number) =>
  recordFollowups("SELECT ?2, ?3, ?1", now, target, subject);

/** The jobs for the records a `recordFollowups` statement made. */
export const followupJobs = (recorded: D1Result | undefined): FollowupJob[] =>
  ((recorded?.results ?? []) as { id: number }[]).map(({ id }) => ({ type: "followup", id }));

/** A write's own record, once the write is whole. */
export const forgetFollowup = (id: number) => env.DB.prepare("DELETE FROM shard_followups WHERE id = ?").bind(id);

/**
 * The job: the other database made to agree with the core for the record's subject; the record goes
 * unless a part was left for a write that may still claim it (the cron has it run again later).
 */
export async function runFollowup(id: number, now = Date.now()) {
  const row = await env.DB.prepare("SELECT target, subject FROM shard_followups WHERE id = ?")
    .bind(id)
    .first<{ target: FollowupTarget; subject: number }>();
  if (!row) return;
  const whole = row.target.startsWith("text:")
    ? await reconcileText(Number(row.target.slice(5)), row.subject, now)
    : await reconcileStats(row.target as "stats" | "stats-member", row.subject);
  if (whole) await forgetFollowup(id).run();
}

/** Records older than the grace period (a write that stopped halfway, a lost job), marked queued now. */
export async function staleFollowups(now: number, limit = 100): Promise<FollowupJob[]> {
  const { results } = await env.DB.prepare(
    `UPDATE shard_followups SET queued_at = ?1 WHERE id IN (
       SELECT id FROM shard_followups WHERE queued_at < ?2 ORDER BY queued_at LIMIT ?3) RETURNING id`,
  )
    .bind(now, now - FOLLOWUP_GRACE_MINUTES * 60_000, limit)
    .all<{ id: number }>();
  return results.map(({ id }) => ({ type: "followup", id }));
}
