import { env } from "~/.server/bindings";
import type { Job } from "./jobs";

// The background work queue (Cloudflare Queues; docs/decisions/0025-background-jobs.md). Jobs are
// small JSON bodies; every handler is safe to run twice, since a queue delivers at least once.

/** What one sendBatch takes at most: 100 messages, 256 KB in all (kept under, for the encoding's overhead). */
const SEND_BATCH_MAX = 100;
const SEND_BATCH_BYTES = 200_000;

export async function enqueue(jobs: readonly Job[]) {
  const queue = env.JOBS;
  const encoder = new TextEncoder();
  let batch: MessageSendRequest<Job>[] = [];
  let bytes = 0;
  for (const body of jobs) {
    const size = encoder.encode(JSON.stringify(body)).length;
    if (batch.length === SEND_BATCH_MAX || (batch.length > 0 && bytes + size > SEND_BATCH_BYTES)) {
      await queue.sendBatch(batch);
      batch = [];
      bytes = 0;
    }
    batch.push({ body, contentType: "json" });
    bytes += size;
  }
  if (batch.length > 0) await queue.sendBatch(batch);
}
