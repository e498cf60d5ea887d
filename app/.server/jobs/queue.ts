import type { MeetingMailJob } from "~/.server/meetings/mail-jobs";
import type { ScoreBatchJob } from "~/.server/ranking/score-runs";

// The background work queue (Cloudflare Queues; docs/decisions/0025-background-jobs.md). Jobs are
// small JSON bodies; every handler is safe to run twice, since a queue delivers at least once.

export type Job = ScoreBatchJob | MeetingMailJob | { type: "cleanup"; at: number };

/** The most messages one sendBatch takes. */
const SEND_BATCH_MAX = 100;

export async function enqueue(queue: Queue, jobs: readonly Job[]) {
  for (let i = 0; i < jobs.length; i += SEND_BATCH_MAX) {
    await queue.sendBatch(jobs.slice(i, i + SEND_BATCH_MAX).map((body) => ({ body, contentType: "json" as const })));
  }
}
