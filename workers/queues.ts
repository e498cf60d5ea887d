import { env } from "~/.server/bindings";
import { autoCaption } from "~/.server/content/auto-captions";
import { extractDocumentText } from "~/.server/content/document-text";
import { translateText } from "~/.server/content/translate-text";
import { cleanUp } from "~/.server/cron/cleanup";
import { withCountedDb } from "~/.server/db-session";
import { runFollowup } from "~/.server/followups/followups";
import type { Job } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { sendMeetingMail } from "~/.server/meetings/mail-jobs";
import { conversationsToMove, MOVE_JOB_CONVERSATIONS } from "~/.server/messaging/legacy-messages";
import { conversationRoom } from "~/.server/messaging/live";
import { refreshMemberRooms } from "~/.server/messaging/room-facts";
import { queueDueDigests, sendDigests, sendNotificationMail } from "~/.server/notifications/digests";
import { matchNewItem } from "~/.server/notifications/new-items";
import { notify } from "~/.server/notifications/notifications";
import { describeError, logEvent } from "~/.server/observability/log";
import { scoreBatch } from "~/.server/ranking/score-runs";
import { reanchor } from "~/.server/social/anchors";
import { consumeReadings } from "~/.server/stats/fold";
import type { Reading } from "~/.server/stats/readings";

// The queues' consumers, beside the worker's entry that hands them each batch: the statistics
// queue's readings are folded (stats/fold.ts), the jobs queue's jobs each run by its domain.

/** Seconds before a failed job is tried again: 2 s, 4 s, 8 s ... at most 5 minutes. */
export const retryDelay = (attempts: number) => Math.min(300, 2 ** Math.max(1, attempts));

/**
 * Which queue a batch is from, by the end of its name: an environment prefixes the names
 * (research-commons-jobs, research-commons-production-jobs; wrangler.toml), the ends are fixed.
 */
export async function consumeQueue(batch: MessageBatch) {
  if (batch.queue.endsWith("-stats")) return consumeReadings(batch as MessageBatch<Reading>);
  return consumeJobs(batch as MessageBatch<Job>);
}

/** The jobs queue's consumer: each job on its own, so one failure retries that job alone (wrangler.toml bounds the retries). */
export async function consumeJobs(batch: MessageBatch<Job>) {
  for (const message of batch.messages) {
    try {
      await runJob(message.body);
      message.ack();
    } catch (error) {
      logEvent("error", "job.failed", { job: message.body, attempts: message.attempts, error: describeError(error) });
      message.retry({ delaySeconds: retryDelay(message.attempts) });
    }
  }
}

async function runJob(job: Job) {
  switch (job.type) {
    case "scores": {
      const done = await scoreBatch(job);
      if (done.published) logEvent("info", "scores.published", { run: job.run, as_of: job.asOf });
      return;
    }
    case "messages-move": {
      // Each conversation's room moves its own D1 messages; while any remain, the next job follows.
      const waiting = await conversationsToMove();
      // One conversation that cannot move now does not hold up the others.
      const failed: { id: number; error: unknown }[] = [];
      for (const id of waiting)
        await conversationRoom(id)
          .settle(id)
          .catch((error) => failed.push({ id, error: describeError(error) }));
      if (failed.length > 0) logEvent("error", "messages.move_failed", { conversations: failed });
      if (waiting.length === MOVE_JOB_CONVERSATIONS) await enqueue([job]);
      return;
    }
    case "digests":
      return void (await queueDueDigests(job.at));
    case "digest": {
      const { result, statements } = await withCountedDb(() => sendDigests(job));
      // `npm run bench` adds these up.
      logEvent("info", "digests.sent", { members: job.members.length, ...result, statements });
      return;
    }
    case "new-item": {
      const { result, statements } = await withCountedDb(() => matchNewItem(job, Date.now()));
      logEvent("info", "new_item.matched", { id: job.id, stage: job.stage, ...result, statements });
      return;
    }
    case "message-notification": {
      const note = { userId: job.userId, kind: "message", event: "message", subjectId: job.conversationId, actorId: job.senderId } as const;
      return notify([{ ...note, key: `message:${job.conversationId}:${job.messageId}` }], Date.now());
    }
    case "notification-mail":
      return sendNotificationMail(job.id);
    case "rooms-refresh":
      return refreshMemberRooms(job.member, job.after);
    case "document-text":
      return extractDocumentText(job.id);
    case "reanchor":
      await reanchor(job.id);
      return;
    case "auto-captions":
      return autoCaption(job.id);
    case "translate-text":
      return translateText(job.id, job.lang);
    case "followup":
      return runFollowup(job.id);
    case "meeting-mail":
      return sendMeetingMail(job);
    case "cleanup": {
      const removed = await cleanUp(job.at);
      const summary = Object.entries(removed).map(([what, n]) => `${n} ${what}`);
      await env.DB.prepare("INSERT INTO cron_runs (cron, scheduled_at, finished_at, summary) VALUES ('cleanup', ?, ?, ?)")
        .bind(job.at, Date.now(), `removed ${summary.join(", ")}`)
        .run();
      return;
    }
  }
}
