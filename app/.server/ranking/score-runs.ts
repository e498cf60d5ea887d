import { env } from "~/.server/bindings";
import type { ScoreBatchJob } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { type Read, readOne } from "~/.server/reads";
import { scoreOf } from "~/lib/credit-score";
import { SCORE_BATCH_MEMBERS } from "~/lib/limits";
import { countsOf, PUBLISHED_RUN } from "./ranking";
import { grantRewards } from "./rewards";

// A recomputation of every credit score (docs/decisions/0025-background-jobs.md): a run is split
// into batches of member ids, each a queued job; the batch that completes the run publishes it in
// the same transaction, so the ranking switches from one whole run to the next.

/** Records a new run counted at `asOf` and answers its batches, to be queued. */
export async function startScoreRun(asOf: number, size = SCORE_BATCH_MEMBERS): Promise<ScoreBatchJob[]> {
  const db = env.DB;
  const top = await db.prepare("SELECT coalesce(max(id), 0) AS id FROM users").first<{ id: number }>();
  const batches = Math.max(1, Math.ceil((top?.id ?? 0) / size));
  const run = await db
    .prepare("INSERT INTO score_runs (as_of, batches, started_at) VALUES (?1, ?2, ?3) RETURNING id")
    .bind(asOf, batches, Date.now())
    .first<{ id: number }>();
  if (!run) throw new Error("The score run was not recorded");
  return Array.from({ length: batches }, (_, batch) => ({
    type: "scores",
    run: run.id,
    batch,
    from: batch * size + 1,
    to: (batch + 1) * size,
    asOf,
  }));
}

/**
 * Computes and stores one batch's scores, counted up to the run's `asOf`. Repeating it (a
 * redelivery, a retry after a failure) before the run is published writes the same rows again and
 * counts the batch once; after, it writes nothing. Older runs' rows in the same range are removed,
 * except the published run's, which the ranking still reads.
 */
export async function scoreBatch(job: ScoreBatchJob) {
  const db = env.DB;
  const counts = await countsOf(job.asOf, job.from, job.to);
  const rows = [...counts].map(([id, memberCounts]) => {
    const { score, breakdown } = scoreOf(memberCounts);
    return [id, score, JSON.stringify(breakdown)];
  });
  const publishedAt = Date.now();
  const results = await db.batch([
    db.prepare(`DELETE FROM credit_scores WHERE user_id BETWEEN ?1 AND ?2 AND run_id < ${PUBLISHED_RUN}`).bind(job.from, job.to),
    db
      .prepare(
        `INSERT OR REPLACE INTO credit_scores (run_id, user_id, score, breakdown)
         SELECT ?1, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM json_each(?2) j
         -- A run already shown is never written again (a batch retried after its rewards failed).
         WHERE (SELECT published_at FROM score_runs WHERE id = ?1) IS NULL`,
      )
      .bind(job.run, JSON.stringify(rows)),
    db
      .prepare("INSERT INTO score_run_batches (run_id, batch, members, done_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING")
      .bind(job.run, job.batch, rows.length, Date.now()),
    // Published once every batch is in, and only if no newer run was published meanwhile.
    db
      .prepare(
        `UPDATE score_runs SET published_at = ?2 WHERE id = ?1 AND published_at IS NULL
         AND batches = (SELECT count(*) FROM score_run_batches WHERE run_id = ?1) AND id > coalesce(${PUBLISHED_RUN}, 0)
         RETURNING id`,
      )
      .bind(job.run, publishedAt),
    // The run this batch published joins every member's history, with the rank the ranking shows.
    db
      .prepare(
        `INSERT OR IGNORE INTO score_history (user_id, run_id, as_of, score, rank)
         SELECT s.user_id, s.run_id, ?2, s.score, RANK() OVER (ORDER BY s.score DESC)
           FROM credit_scores s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL
           WHERE s.run_id = ?1 AND EXISTS (SELECT 1 FROM score_runs WHERE id = ?1 AND published_at = ?3)`,
      )
      .bind(job.run, job.asOf, publishedAt),
  ]);
  await grantRewards(job.asOf, [job.from, job.to]);
  return { members: rows.length, published: Boolean(results[3]?.results.length) };
}

/** A whole run in this invocation: for a fresh install's first ranking and for tests, never for a large membership. */
export async function recomputeScores(asOf: number) {
  let members = 0;
  for (const job of await startScoreRun(asOf)) members += (await scoreBatch(job)).members;
  return { members };
}

/** Whether any recomputation was ever started (a page reads it beside its other reads). */
export const anyScoreRunRead = (): Read<boolean> => ({
  statements: [env.DB.prepare("SELECT 1 AS yes FROM score_runs LIMIT 1")],
  decode: ([found]) => Boolean(found?.results.length),
});

/**
 * A fresh install has never seen the cron fire: its first ranking is computed on the spot when it
 * is one batch, otherwise queued. `started` is what anyScoreRunRead answered, when a page read it.
 */
export async function ensureScores(now: number, started?: boolean) {
  if (started ?? (await readOne(anyScoreRunRead()))) return;
  const batches = await startScoreRun(now);
  if (batches.length === 1 && batches[0]) await scoreBatch(batches[0]);
  else await enqueue(batches);
}
