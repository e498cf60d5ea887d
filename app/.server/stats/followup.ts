import { env } from "~/.server/bindings";
import { statsDb } from "~/.server/databases";

// The statistics database made to agree with the core (the follow-up of docs/decisions/0045-databases.md):
// a deleted item's days, months and count go (its owner's days stay: what happened), and a deleted
// member's every row and the readings they made, as their account's deletion removed them when they
// lived in the core.

/** The statements removing the items' own rows (by their content_id indexes). */
export const dropItemStats = (ids: readonly number[]) => {
  const stats = statsDb();
  return ["stat_days", "stat_months", "item_views"].map((table) =>
    stats.prepare(`DELETE FROM ${table} WHERE content_id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(ids)),
  );
};

/** Removes the statistics of an item or member the core no longer has; true when done. */
export async function reconcileStats(target: "stats" | "stats-member", subject: number): Promise<boolean> {
  const stats = statsDb();
  if (target === "stats") {
    if (await env.DB.prepare("SELECT 1 FROM content WHERE id = ?").bind(subject).first()) return true;
    await stats.batch(dropItemStats([subject]));
    return true;
  }
  if (!(await env.DB.prepare("SELECT 1 FROM users WHERE id = ? AND deleted_at IS NOT NULL").bind(subject).first())) return true;
  await stats.batch([
    // Their items' counts first, found through their days (each item's own follow-up removes them too).
    stats
      .prepare("DELETE FROM item_views WHERE content_id IN (SELECT DISTINCT content_id FROM stat_days WHERE owner_id = ?)")
      .bind(subject),
    ...["stat_days", "stat_months", "stat_owner_days"].map((table) =>
      stats.prepare(`DELETE FROM ${table} WHERE owner_id = ?`).bind(subject),
    ),
    stats.prepare("DELETE FROM stat_hits WHERE member_id = ?").bind(subject),
  ]);
  return true;
}
