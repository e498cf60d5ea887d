import { env } from "~/.server/bindings";
import { statsDb } from "~/.server/databases";
import { withCountedDb } from "~/.server/db-session";
import { describeError, logEvent } from "~/.server/observability/log";
import { copyViews, type ItemViews } from "./item-views";
import type { Reading } from "./readings";

// The stats queue's consumer (docs/decisions/0039-statistics.md): a batch of readings becomes one
// upsert of per-item daily rows and one insert of the readings themselves, in one transaction of the
// statistics database (decision 0045), with each item's owner and kind read from the core first; the
// items' count on cards is then copied back to the core.

/** How long folded readings are kept to recognise repeats (a day on any clocks, and late deliveries). */
export const STAT_HITS_KEEP_MS = 2 * 86_400_000;
/** COUNTER's double-click rule: the same member, item and kind within 30 seconds is one. */
export const REPEAT_WINDOW_MS = 30_000;

/** A reading with what the core says of its item. */
type Placed = Reading & { owner: number; itemKind: string };

// The batch's readings, and whether each is the first of its member, item and kind that day.
const BATCH = `e AS (
    SELECT value ->> 'id' AS id, value ->> 'kind' AS kind, value ->> 'content' AS content, value ->> 'member' AS member,
           value ->> 'type' AS type, value ->> 'day' AS day, value ->> 'at' AS at,
           value ->> 'owner' AS owner, value ->> 'itemKind' AS item_kind
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
  INSERT INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers)
    SELECT f.owner, f.content, f.item_kind, f.day, f.kind, f.type, count(*), sum(f.first)
      FROM fresh f
      -- A download counts once a day: a reading's range requests are one.
      WHERE f.kind <> 'download' OR f.first
      GROUP BY f.owner, f.content, f.item_kind, f.day, f.kind, f.type
  ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers`;

const REMEMBER = `WITH ${BATCH}
  INSERT OR IGNORE INTO stat_hits (id, member_id, content_id, kind, day, at) SELECT id, member, content, kind, day, at FROM e`;

// The items' counts after the fold, read in its transaction: what the core's cards should say.
const COUNTS = "SELECT content_id, readers FROM item_views WHERE content_id IN (SELECT DISTINCT value ->> 'content' FROM json_each(?1))";

/**
 * Folds readings into the daily rows, then copies the items' counts to the core: safe to repeat (a
 * redelivered reading is known by its id, and the copy is of totals), which is how a fold that
 * stopped between the two writes is made whole (a retry, or the cron's sweep of item_views).
 * Answers the statements it sent to the statistics database (the core's are counted by withCountedDb).
 */
export async function foldReadings(readings: readonly Reading[]): Promise<number> {
  if (readings.length === 0) return 0;
  const { results: items } = await env.DB.prepare("SELECT id, owner_id, kind FROM content WHERE id IN (SELECT value FROM json_each(?))")
    .bind(JSON.stringify([...new Set(readings.map((reading) => reading.content))]))
    .all<{ id: number; owner_id: number; kind: string }>();
  const known = new Map(items.map((item) => [item.id, item]));
  // A reading of an item deleted meanwhile is dropped: its statistics went with it.
  const placed = readings.flatMap((reading): Placed[] => {
    const item = known.get(reading.content);
    return item ? [{ ...reading, owner: item.owner_id, itemKind: item.kind }] : [];
  });
  if (placed.length === 0) return 0;
  const stats = statsDb();
  const json = JSON.stringify(placed);
  const [, , counts] = await stats.batch([
    stats.prepare(UPSERT).bind(json, REPEAT_WINDOW_MS),
    stats.prepare(REMEMBER).bind(json),
    stats.prepare(COUNTS).bind(json),
  ]);
  const views = (counts?.results ?? []) as ItemViews[];
  if (views.length > 0) await copyViews(views).run();
  return 3;
}

/** The stats queue's batch: folded whole, or retried whole (folding twice counts once). */
export async function consumeReadings(batch: MessageBatch<Reading>) {
  try {
    const folded = await withCountedDb(() => foldReadings(batch.messages.map((message) => message.body)));
    batch.ackAll();
    // `npm run bench` adds these up: the core's D1 statements per reading, and the statistics database's.
    logEvent("info", "stats.folded", { readings: batch.messages.length, statements: folded.statements, statsStatements: folded.result });
  } catch (error) {
    logEvent("error", "stats.fold_failed", { readings: batch.messages.length, error: describeError(error) });
    batch.retryAll({ delaySeconds: 10 });
  }
}
