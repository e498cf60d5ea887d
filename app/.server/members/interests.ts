import { MAX_INTERESTS } from "~/lib/limits";

// A member's interests are goals (1-17); they steer the recommended list.

export async function listInterests(db: D1Database, userId: number): Promise<number[]> {
  const { results } = await db
    .prepare("SELECT sdg FROM interests WHERE user_id = ? ORDER BY created_at, sdg")
    .bind(userId)
    .all<{ sdg: number }>();
  return results.map((row) => row.sdg);
}

/** Adds a goal; answers the translation key of the refusal, or null when it was added. */
export async function addInterest(db: D1Database, userId: number, sdg: number, now: number) {
  // The count check and the insert are one statement, so two quick posts cannot make six.
  const result = await db
    .prepare(
      `INSERT OR IGNORE INTO interests (user_id, sdg, created_at)
       SELECT ?1, ?2, ?3 WHERE (SELECT count(*) FROM interests WHERE user_id = ?1) < ?4`,
    )
    .bind(userId, sdg, now, MAX_INTERESTS)
    .run();
  if (result.meta.changes) return null;
  const existing = await db.prepare("SELECT 1 AS yes FROM interests WHERE user_id = ? AND sdg = ?").bind(userId, sdg).first();
  return existing ? "validation.repeatAddition" : `validation.maxInterests|max=${MAX_INTERESTS}`;
}

export async function removeInterest(db: D1Database, userId: number, sdg: number) {
  await db.prepare("DELETE FROM interests WHERE user_id = ? AND sdg = ?").bind(userId, sdg).run();
}
