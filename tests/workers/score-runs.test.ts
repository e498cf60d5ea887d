import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Job, ScoreBatchJob } from "~/.server/jobs/jobs";
import { INPUT_SQL, rankingList, scoreFor } from "~/.server/ranking/ranking";
import { recomputeScores, scoreBatch, startScoreRun } from "~/.server/ranking/score-runs";
import { scoreHistory } from "~/.server/stats/stats";
import { COEFFICIENTS } from "~/lib/credit-score";
import { consumeJobs } from "../../workers/queues";
import { newItem, newMember } from "./helpers";

const NOW = Date.UTC(2026, 10, 23, 12);
const DAY = 86_400_000;

const scoreIn = async (user: number) => (await rankingList(100_000)).find((m) => m.user_id === user)?.score;
const published = (run: number) =>
  env.DB.prepare("SELECT published_at FROM score_runs WHERE id = ?")
    .bind(run)
    .first<{ published_at: number | null }>()
    .then((row) => row?.published_at ?? null);
const batchesDone = (run: number) =>
  env.DB.prepare("SELECT count(*) AS n FROM score_run_batches WHERE run_id = ?")
    .bind(run)
    .first<{ n: number }>()
    .then((row) => row?.n ?? 0);

describe("a credit-score recomputation in batches", () => {
  it("reads only its own members' rows: every input is searched by member, never scanned", async () => {
    for (const [input, sql] of Object.entries(INPUT_SQL)) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(0, 1, 1000, 1).all<{ detail: string }>();
      const steps = results.map((row) => row.detail);
      expect(
        steps.some((step) => step.startsWith("SCAN")),
        `${input}: ${steps.join("; ")}`,
      ).toBe(false);
      // The first step reaches the members' own rows (by kind, it would read every item of the kind).
      expect(steps[0], input).toMatch(/\((owner_id|follower_id|followee_id|user_id)>\? AND \1<\?\)/);
    }
  });

  it("shows the previous ranking until every batch is in, then the new one whole", async () => {
    const early = await newMember("Early");
    await recomputeScores(NOW);
    expect(await scoreIn(early)).toBe(0);
    const late = await newMember("Late");
    await newItem(early, { kind: "document", created_at: NOW - DAY });
    await newItem(late, { kind: "video", created_at: NOW - DAY });

    // Batches small enough that the two members fall in different ones, the later one held back.
    const jobs = await startScoreRun(NOW, Math.ceil(late / 3));
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    const last = jobs.find((job) => job.from <= late && late <= job.to) as ScoreBatchJob;
    expect(early).toBeLessThan(last.from);
    for (const job of jobs.filter((j) => j !== last)) expect((await scoreBatch(job)).published).toBe(false);

    // Every other batch is stored, yet the ranking is still the previous run's, whole.
    expect(await published(last.run)).toBeNull();
    expect(await scoreIn(early)).toBe(0);
    expect(await scoreIn(late)).toBeUndefined();
    // The member's own score is counted now, and placed in the ranking shown.
    const own = await scoreFor(late, NOW);
    expect(own.score).toBe(COEFFICIENTS.videoUploads);
    expect(own.rank).toBe(1 + (await rankingList(100_000)).filter((m) => m.score > own.score).length);

    expect((await scoreBatch(last)).published).toBe(true);
    expect(await scoreIn(early)).toBe(COEFFICIENTS.documentUploads);
    expect(await scoreIn(late)).toBe(COEFFICIENTS.videoUploads);
    // The previous run's rows in each batch's range go with the next run's batches, not the shown one's.
    const stale = await env.DB.prepare("SELECT count(*) AS n FROM credit_scores WHERE user_id = ? AND run_id < ?")
      .bind(late, last.run)
      .first<{ n: number }>();
    expect(stale?.n).toBe(0);
  });

  it("counts a batch delivered twice once, and a late older run never replaces a newer ranking", async () => {
    const member = await newMember("Twice");
    await newItem(member, { kind: "document", created_at: NOW - DAY });
    const [older] = await startScoreRun(NOW);
    const [newer] = await startScoreRun(NOW + DAY);
    if (!older || !newer) throw new Error("no batches");
    expect((await scoreBatch(newer)).published).toBe(true);
    expect((await scoreBatch(newer)).published).toBe(false);
    expect(await batchesDone(newer.run)).toBe(1);
    // The older run finishes after the newer one: it is never shown.
    expect((await scoreBatch(older)).published).toBe(false);
    const shown = await env.DB.prepare("SELECT max(id) AS id FROM score_runs WHERE published_at IS NOT NULL").first<{ id: number }>();
    expect(shown?.id).toBe(newer.run);
    expect(await scoreIn(member)).toBe(COEFFICIENTS.documentUploads);
  });

  it("counts up to the run's moment however late a batch runs, and never rewrites a run already shown", async () => {
    const member = await newMember("Late batch");
    await newItem(member, { kind: "document", created_at: NOW - DAY });
    const [job] = await startScoreRun(NOW);
    if (!job) throw new Error("no batch");
    // Activity after the run's moment, before its batch runs: not counted.
    await newItem(member, { kind: "video", created_at: NOW + 60_000 });
    expect((await scoreBatch(job)).published).toBe(true);
    expect(await scoreIn(member)).toBe(COEFFICIENTS.documentUploads);
    // The same batch again after the run is shown (a retry), with more activity meanwhile: the ranking stays whole.
    await env.DB.prepare("DELETE FROM content WHERE owner_id = ?").bind(member).run();
    await scoreBatch(job);
    expect(await scoreIn(member)).toBe(COEFFICIENTS.documentUploads);
  });

  it("asks the queue to retry a failed job and acknowledges the others", async () => {
    const [job] = await startScoreRun(NOW);
    if (!job) throw new Error("no batch");
    const broken: Job = { ...job, run: job.run + 2_000_000 };
    const batch = createMessageBatch<Job>("research-commons-jobs", [
      { id: "good", timestamp: NOW, attempts: 1, body: job },
      { id: "broken", timestamp: NOW, attempts: 1, body: broken },
    ]);
    const ctx = createExecutionContext();
    await consumeJobs(batch);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["good"]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["broken"]);
    expect(await published(job.run)).not.toBeNull();
    // Redelivered once the run exists, the retried job completes it, counted once.
    await env.DB.prepare("INSERT INTO score_runs (id, as_of, batches, started_at) VALUES (?, ?, 1, ?)").bind(broken.run, NOW, NOW).run();
    const again = createMessageBatch<Job>("research-commons-jobs", [{ id: "broken", timestamp: NOW, attempts: 2, body: broken }]);
    await consumeJobs(again);
    expect((await getQueueResult(again, createExecutionContext())).explicitAcks).toEqual(["broken"]);
    expect(await published(broken.run)).not.toBeNull();
    expect(await batchesDone(broken.run)).toBe(1);
  });

  it("adds each published run's score and rank to every member's history, once", async () => {
    const [top, other] = [await newMember("Top"), await newMember("Other")];
    await newItem(top, { created_at: NOW - DAY });
    await recomputeScores(NOW);
    const [run] = await startScoreRun(NOW + DAY);
    if (!run) throw new Error("no batch");
    await scoreBatch(run);
    // A batch delivered again after the run was published adds nothing.
    await scoreBatch(run);
    const history = await scoreHistory(top);
    expect(history.map((point) => point.as_of)).toEqual([NOW, NOW + DAY]);
    expect(history[0]?.rank).toBe(1);
    expect((await scoreHistory(other))[0]?.rank).toBeGreaterThan(1);
  });
});
