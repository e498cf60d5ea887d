import { env } from "~/.server/bindings";
import { withCountedDb } from "~/.server/db-session";
import { describeError, logEvent } from "~/.server/observability/log";
import type { Reading } from "./readings";

// The stats queue's consumer (docs/decisions/0039-statistics.md): a batch of readings becomes one
// upsert of per-item daily rows and one insert of the readings themselves, in one transaction.

/** How long folded readings are kept to recognise repeats (a day on any clocks, and late deliveries). */
export const STAT_HITS_KEEP_MS = 2 * 86_400_000;
/** COUNTER's double-click rule: the same member, item and kind within 30 seconds is one. */
export const REPEAT_WINDOW_MS = 30_000;

// The batch's readings, and whether each is the first of its member, item and kind that day.
const BATCH = `e AS (
    SELECT value ->> 'id' AS id, value ->> 'kind' AS kind, value ->> 'content' AS content, value ->> 'member' AS member,
           value ->> 'type' AS type, value ->> 'day' AS day, value ->> 'at' AS at
      FROM json_each(?1)
  )`;
const SAME = "x.member_id = e.member AND x.content_id = e.content AND x.kind = e.kind";
const SAME_IN_BATCH = "b.member = e.member AND b.content = e.content AND b.kind = e.kind";
const EARLIER_IN_BATCH = "(b.at < e.at OR (b.at = e.at AND b.id < e.id))";

const UPSERT = `WITH ${BATCH},
  fresh AS (
    SELECT e.*,
      NOT EXISTS (SELECT 1 FROM stat_hits x WHERE ${SAME} AND x.day = e.day)
        AND NOT EXISTS (SELECT 1 FROM e b WHERE ${SAME_IN_BATCH} AND b.day = e.day AND ${EARLIER_IN_BATCH}) AS first
      FROM e
      -- Not a redelivery, and no reading of the same within 30 s before or after (one delivered late included).
      WHERE NOT EXISTS (SELECT 1 FROM stat_hits x WHERE x.id = e.id)
        AND NOT EXISTS (SELECT 1 FROM stat_hits x WHERE ${SAME} AND x.at > e.at - ?2 AND x.at < e.at + ?2)
        AND NOT EXISTS (SELECT 1 FROM e b WHERE ${SAME_IN_BATCH} AND b.at > e.at - ?2 AND ${EARLIER_IN_BATCH})
  )
  INSERT INTO stat_days (owner_id, content_id, day, kind, reader_type, n, readers)
    SELECT c.owner_id, f.content, f.day, f.kind, f.type, count(*), sum(f.first)
      FROM fresh f JOIN content c ON c.id = f.content
      -- A download counts once a day: a reading's range requests are one.
      WHERE f.kind <> 'download' OR f.first
      GROUP BY c.owner_id, f.content, f.day, f.kind, f.type
  ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers`;

const REMEMBER = `WITH ${BATCH}
  INSERT OR IGNORE INTO stat_hits (id, member_id, content_id, kind, day, at) SELECT id, member, content, kind, day, at FROM e`;

/** Folds readings into the daily rows: safe to repeat (a redelivered reading is known by its id). */
export async function foldReadings(readings: readonly Reading[]) {
  if (readings.length === 0) return;
  const db = env.DB;
  const json = JSON.stringify(readings);
  await db.batch([db.prepare(UPSERT).bind(json, REPEAT_WINDOW_MS), db.prepare(REMEMBER).bind(json)]);
}

/** The stats queue's batch: folded whole, or retried whole (folding twice counts once). */
export async function consumeReadings(batch: MessageBatch<Reading>) {
  try {
    const { statements } = await withCountedDb(() => foldReadings(batch.messages.map((message) => message.body)));
    batch.ackAll();
    // `npm run bench` adds these up: D1 statements per reading.
    logEvent("info", "stats.folded", { readings: batch.messages.length, statements });
  } catch (error) {
    logEvent("error", "stats.fold_failed", { readings: batch.messages.length, error: describeError(error) });
    batch.retryAll({ delaySeconds: 10 });
  }
}
