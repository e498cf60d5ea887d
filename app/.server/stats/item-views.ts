import { env } from "~/.server/bindings";
import { statsDb } from "~/.server/databases";
import { dropItemStats } from "./followup";

// The count on cards (`content.views` in the core, which the feeds sort and recommendations weigh)
// is the statistics database's `item_views` copied over (decision 0045). The core keeps the total it
// last copied (`views_synced`), so a copy adds only the difference, and repeating one, or copying an
// older total after a newer one, changes nothing.

export interface ItemViews {
  content_id: number;
  readers: number;
}

/** How far back the cron looks for counts a fold did not copy (the stats queue's retries end long before). */
export const VIEWS_SWEEP_MS = 2 * 86_400_000;

/** The core's one statement copying the items' totals. */
export const copyViews = (views: readonly ItemViews[]) =>
  env.DB.prepare(
    `UPDATE content SET views = views + (j.value ->> 1) - views_synced, views_synced = j.value ->> 1
       FROM json_each(?1) j WHERE content.id = j.value ->> 0 AND content.views_synced < j.value ->> 1`,
  ).bind(JSON.stringify(views.map((row) => [row.content_id, row.readers])));

/**
 * The cron's copy of what a fold that stopped between its two writes left behind: the item_views rows
 * changed within VIEWS_SWEEP_MS, `limit` a run, oldest first (so each is looked at before it leaves
 * the window while fewer than `limit` leave it between runs; the item's next reading copies its total
 * anyway). The rows of an item the core no longer has (a fold that read it just before its deletion
 * wrote after its follow-up) go as the follow-up removes them.
 */
export async function sweepViews(now: number, limit: number) {
  const { results } = await statsDb()
    .prepare("SELECT content_id, readers FROM item_views WHERE changed_at >= ? ORDER BY changed_at LIMIT ?")
    .bind(now - VIEWS_SWEEP_MS, limit)
    .all<ItemViews>();
  if (results.length === 0) return { copied: 0, dropped: 0 };
  const [copied, gone] = await env.DB.batch([
    copyViews(results),
    env.DB.prepare("SELECT value AS id FROM json_each(?) WHERE NOT EXISTS (SELECT 1 FROM content WHERE id = value)").bind(
      JSON.stringify(results.map((row) => row.content_id)),
    ),
  ]);
  const dropped = ((gone?.results ?? []) as { id: number }[]).map((row) => row.id);
  if (dropped.length > 0) await statsDb().batch(dropItemStats(dropped));
  return { copied: copied?.meta.changes ?? 0, dropped: dropped.length };
}
