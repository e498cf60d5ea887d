import { env } from "~/.server/bindings";
import { SEARCH_CANDIDATES } from "~/lib/limits";

// Search by funder and by organisation (docs/decisions/0052): research whose funding names a funder,
// members who linked an organisation, and the organisations a query names, from the registry's
// records kept when members named them.

/** An item's funding names the funder (bound next), but for the funder's decline. */
export const FUNDED_BY = "EXISTS (SELECT 1 FROM item_funding f WHERE f.content_id = c.id AND f.funder_id = ? AND f.state != 'declined')";

/**
 * The research a funder funded that passes the filters (`c` the item, `u` its owner), newest first:
 * among the funder's newest `window` references (bounded however much it funded, as search is:
 * decision 0026), the funding index leading.
 */
export async function fundedItems<T>(
  columns: string,
  funder: string,
  filters: string[],
  binds: (string | number)[],
  limit: number,
  offset: number,
) {
  const window = Math.max(SEARCH_CANDIDATES, offset + limit);
  const { results } = await env.DB.prepare(
    `SELECT ${columns} FROM content c CROSS JOIN users u ON u.id = c.owner_id
     WHERE c.id IN (SELECT content_id FROM item_funding WHERE funder_id = ? AND state != 'declined' ORDER BY content_id DESC LIMIT ?)
       AND ${filters.join(" AND ")} ORDER BY c.id DESC LIMIT ? OFFSET ?`,
  )
    .bind(funder, window, ...binds, limit, offset)
    .all<T>();
  return results;
}

/** The members who linked the organisation (`u`) and pass the filters, newest first (the index's order: no sort, however many). */
export async function membersOf<T>(
  columns: string,
  ror: string,
  filters: string[],
  binds: (string | number)[],
  limit: number,
  offset: number,
) {
  const { results } = await env.DB.prepare(
    `SELECT ${columns} FROM users u WHERE u.organisation_ror = ? AND u.deleted_at IS NULL ${filters.map((f) => `AND ${f}`).join(" ")}
     ORDER BY u.id DESC LIMIT ? OFFSET ?`,
  )
    .bind(ror, ...binds, limit, offset)
    .all<T>();
  return results;
}

/** An organisation a query names, as the results show it. */
export interface NamedOrganisation {
  id: string;
  name: string;
}

/**
 * Organisations kept here (each one a member linked or funding named) that hold every word among
 * their names, in any language: words of 3+ characters, as the index is by trigrams.
 */
export async function organisationsNamed(long: string[], limit = 3): Promise<NamedOrganisation[]> {
  if (!long.length) return [];
  const { results } = await env.DB.prepare(
    "SELECT r.ror_id AS id, r.name FROM ror_fts JOIN ror_records r ON r.id = ror_fts.rowid WHERE ror_fts MATCH ? ORDER BY bm25(ror_fts) LIMIT ?",
  )
    .bind(long.map((term) => `"${term.replace(/"/g, '""')}"`).join(" "), limit)
    .all<NamedOrganisation>();
  return results;
}

/**
 * The name shown for a funder or organisation a search is narrowed to: the registry's, else the name
 * a reference the viewer may read gave it (a private work's stays its owner's); the id when neither.
 */
export async function organisationName(id: string, viewerId: number): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT coalesce((SELECT name FROM ror_records WHERE ror_id = ?1),
       (SELECT f.funder_name FROM item_funding f JOIN content c ON c.id = f.content_id
        WHERE f.funder_id = ?1 AND f.state != 'declined' AND (c.publicize = 1 OR c.owner_id = ?2) LIMIT 1)) AS name`,
  )
    .bind(id, viewerId)
    .first<{ name: string | null }>();
  return row?.name ?? id;
}
