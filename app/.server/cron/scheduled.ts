import { recomputeScores } from "~/.server/ranking/ranking";
import { grantRewards } from "~/.server/ranking/rewards";
import { cleanUp } from "./cleanup";

/** How long the cron log is kept; older rows are pruned by the run itself. */
export const CRON_LOG_DAYS = 30;

/**
 * The Cron Trigger's work: recompute every credit score, award the milestones reached, remove what has expired (sessions, codes,
 * login failures, abandoned uploads), record the run and prune the log.
 */
export async function runScheduled(
  controller: Pick<ScheduledController, "cron" | "scheduledTime">,
  db: D1Database,
  bucket: R2Bucket,
  now = Date.now(),
) {
  const started = Date.now();
  const { members } = await recomputeScores(db, now);
  await grantRewards(db, now);
  // Date.now() moves on after I/O in a Worker, so this measures the recomputation.
  const took = Date.now() - started;
  const removed = await cleanUp(db, bucket, now);
  const cutoff = now - CRON_LOG_DAYS * 86_400_000;
  const [, pruned] = await db.batch([
    db
      .prepare("INSERT INTO cron_runs (cron, scheduled_at, finished_at, summary) VALUES (?, ?, ?, ?)")
      .bind(
        controller.cron,
        controller.scheduledTime,
        now,
        `scores: ${members} members in ${took} ms; removed ${removed.sessions} sessions, ${removed.codes} codes, ${removed.loginFailures} login failures, ${removed.uploads} uploads, ${removed.verificationPhotos} verifications' photos`,
      ),
    db.prepare("DELETE FROM cron_runs WHERE finished_at < ?").bind(cutoff),
  ]);
  return { pruned: pruned?.meta.changes ?? 0, removed };
}
