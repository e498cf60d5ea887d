import { env } from "~/.server/bindings";

// A write a member may repeat (a double click, a retried post, a client's retry) is made once per
// client_key, the one name the pages and the API give it (a message's client_id is the same thing,
// kept by its conversation's room): the row carries the key under a unique index on its owner and
// key, its insert ends with `ON CONFLICT DO NOTHING RETURNING id`, so two posts at once cannot both
// insert, and a post that inserted nothing answers the row the first one made (issue 31).

/**
 * Runs `insert` (with the statements that must go in the same transaction, `alongside`); when it
 * inserted nothing, `earlier` finds the row a first post made (null when there is none: the insert's
 * own conditions refused it).
 */
export async function madeOnce<T extends { id: number }>(
  insert: D1PreparedStatement,
  earlier: D1PreparedStatement,
  alongside: D1PreparedStatement[] = [],
): Promise<{ id: number; created: true } | (T & { created: false }) | null> {
  const [made] = await env.DB.batch<{ id: number }>([insert, ...alongside]);
  const id = made?.results[0]?.id;
  if (id !== undefined) return { id, created: true };
  const before = await earlier.first<T>();
  return before ? { ...before, created: false } : null;
}
