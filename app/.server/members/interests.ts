import { env } from "~/.server/bindings";
import { Refused } from "~/.server/refused";
import { MAX_INTERESTS } from "~/lib/limits";

// A member's interests are goals (1-17); they steer the recommended list.

export async function listInterests(userId: number): Promise<number[]> {
  const { results } = await env.DB.prepare("SELECT sdg FROM interests WHERE user_id = ? ORDER BY created_at, sdg")
    .bind(userId)
    .all<{ sdg: number }>();
  return results.map((row) => row.sdg);
}

/** Adds a goal; refused beside the field when it is there already or the limit is reached. */
export async function addInterest(userId: number, sdg: number, now: number) {
  const db = env.DB;
  // The count check and the insert are one statement, so two quick posts cannot make six.
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO interests (user_id, sdg, created_at)
       SELECT ?1, ?2, ?3 WHERE (SELECT count(*) FROM interests WHERE user_id = ?1) < ?4`,
    )
    .bind(userId, sdg, now, MAX_INTERESTS)
    .run();
  if (result.meta.changes) return;
  const existing = await db.prepare("SELECT 1 AS yes FROM interests WHERE user_id = ? AND sdg = ?").bind(userId, sdg).first();
  throw new Refused(existing ? "validation.repeatAddition" : `validation.maxInterests|max=${MAX_INTERESTS}`, { field: "sdg" });
}

export async function removeInterest(userId: number, sdg: number) {
  await env.DB.prepare("DELETE FROM interests WHERE user_id = ? AND sdg = ?").bind(userId, sdg).run();
}
