import { env } from "~/.server/bindings";
import { stalledDocuments } from "~/.server/content/document-text";
import { staleFollowups } from "~/.server/followups/followups";
import { enqueue } from "~/.server/jobs/queue";
import { conversationsToMove } from "~/.server/messaging/legacy-messages";
import { startScoreRun } from "~/.server/ranking/score-runs";

/** How long the cron log is kept; older rows are pruned by the run itself. */
export const CRON_LOG_DAYS = 30;

/**
 * The Cron Trigger's work is only to queue the work (docs/decisions/0025-background-jobs.md): a
 * credit-score recomputation in batches of members (milestone rewards go with each batch) and the
 * removal of what has expired. It records what it queued and prunes its log.
 */
export async function runScheduled(controller: Pick<ScheduledController, "cron" | "scheduledTime">, now = Date.now()) {
  const db = env.DB;
  const batches = await startScoreRun(now);
  // Messages still in D1 from before each conversation kept its own (decision 0028) move in the background.
  const move = (await conversationsToMove(1)).length > 0 ? [{ type: "messages-move" } as const] : [];
  await enqueue([
    ...batches,
    { type: "cleanup", at: now },
    { type: "digests", at: now },
    ...move,
    ...(await stalledDocuments(now)),
    ...(await staleFollowups(now)),
  ]);
  const cutoff = now - CRON_LOG_DAYS * 86_400_000;
  const [, pruned] = await db.batch([
    db
      .prepare("INSERT INTO cron_runs (cron, scheduled_at, finished_at, summary) VALUES (?, ?, ?, ?)")
      .bind(
        controller.cron,
        controller.scheduledTime,
        now,
        `queued score run ${batches[0]?.run} (${batches.length} batches), the cleanup and the due digests`,
      ),
    db.prepare("DELETE FROM cron_runs WHERE finished_at < ?").bind(cutoff),
  ]);
  return { pruned: pruned?.meta.changes ?? 0, run: batches[0]?.run ?? 0, batches: batches.length };
}
