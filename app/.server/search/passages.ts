import { PAGE_BREAK } from "~/.server/content/pdf-text";
import { SEARCH_TEXT_CANDIDATES } from "~/lib/limits";
import { findsAll, snippetOf } from "./mark";

/** The columns of a result, before its matches are marked. */
export const HIT_COLUMNS = "c.id, c.kind, c.sdg, c.created_at, u.nick_name AS owner_name, c.title, c.summary, c.content, c.keywords";
export interface HitRow {
  id: number;
  kind: "document" | "video";
  sdg: number;
  created_at: number;
  owner_name: string;
  title: string;
  summary: string;
  content: string;
  keywords: string;
}

/**
 * Documents whose own text holds every word and whose fields do not (those are the fields'
 * matches), newest first. The text index answers LIKE with its trigrams and checks each candidate
 * against the text, so only the newest SEARCH_TEXT_CANDIDATES are read (or as many as the page
 * needs). LIKE's wildcards cannot be escaped there (an ESCAPE clause turns the index off), so a
 * word holding one does not search the text. At least one word needs 3+ characters.
 */
export async function textMatches(
  db: D1Database,
  terms: string[],
  filters: { viewerId: number; sdg?: number; since: number },
  limit: number,
  offset: number,
): Promise<HitRow[]> {
  if (terms.some((term) => /[%_]/.test(term)) || !terms.some((term) => [...term].length >= 3)) return [];
  const fields = "lower(c.title || ' ' || c.summary || ' ' || c.content || ' ' || c.keywords || ' ' || c.authors)";
  const where = ["(c.publicize = 1 OR c.owner_id = ?)", "c.kind = 'document'", "c.created_at >= ?"];
  const binds: (string | number)[] = [filters.viewerId, filters.since];
  if (filters.sdg) {
    where.push("c.sdg = ?");
    binds.push(filters.sdg);
  }
  where.push(`NOT (${terms.map(() => `instr(${fields}, ?) > 0`).join(" AND ")})`);
  binds.push(...terms.map((term) => term.toLowerCase()));
  // CROSS JOIN keeps the text's matches the outer loop (else SQLite scans every document: 80 ms at 100,000 items).
  const { results } = await db
    .prepare(
      `SELECT ${HIT_COLUMNS}
       FROM (SELECT rowid FROM document_fts WHERE ${terms.map(() => "body LIKE ?").join(" AND ")} ORDER BY rowid DESC LIMIT ?) t
       CROSS JOIN content c ON c.id = t.rowid CROSS JOIN users u ON u.id = c.owner_id
       WHERE ${where.join(" AND ")} ORDER BY c.id DESC LIMIT ? OFFSET ?`,
    )
    .bind(...terms.map((term) => `%${term}%`), Math.max(SEARCH_TEXT_CANDIDATES, offset + limit), ...binds, limit, offset)
    .all<HitRow>();
  return results;
}

/** Where a document's own text matched: the passage (matches marked) and the page it is on. */
export interface Passage {
  text: string;
  page: number;
}

/** Characters read around a match, enough for a snippet on either side. */
const AROUND = 160;

/**
 * Passages for the results found by their documents' text: those whose form fields lack one of the
 * words. Each is cut from the page of the earliest such word, and the page counted from the
 * page breaks before it, in the database, so no document's whole text leaves it.
 */
export async function documentPassages(
  db: D1Database,
  hits: { id: number; kind: string; fields: string[] }[],
  terms: string[],
): Promise<Map<number, Passage>> {
  const wanted = hits.filter((hit) => hit.kind === "document" && !findsAll(hit.fields.join(" "), terms));
  const passages = new Map<number, Passage>();
  if (!wanted.length) return passages;
  const lowered = [...new Set(terms.map((term) => term.toLowerCase()))];
  const { results } = await db
    .prepare(
      `WITH t(term) AS (VALUES ${lowered.map(() => "(?)").join(", ")}),
       hit AS (SELECT d.content_id AS id, min(nullif(instr(lower(d.body), t.term), 0)) AS at
               FROM document_text d JOIN t WHERE d.content_id IN (${wanted.map(() => "?").join(", ")}) GROUP BY d.content_id)
       SELECT hit.id, hit.at - max(1, hit.at - ${AROUND}) AS offset, substr(d.body, max(1, hit.at - ${AROUND}), ${2 * AROUND}) AS around,
         hit.at - length(replace(substr(d.body, 1, hit.at), char(12), '')) + 1 AS page
       FROM hit JOIN document_text d ON d.content_id = hit.id WHERE hit.at IS NOT NULL`,
    )
    .bind(...lowered, ...wanted.map((hit) => hit.id))
    .all<{ id: number; offset: number; around: string; page: number }>();
  for (const { id, offset, around, page } of results) {
    // Only the match's own page, as one line.
    const start = around.lastIndexOf(PAGE_BREAK, offset) + 1;
    const end = around.indexOf(PAGE_BREAK, offset);
    const text = around.slice(start, end < 0 ? undefined : end).replace(/\s+/g, " ");
    passages.set(id, { text: snippetOf([text], terms), page });
  }
  return passages;
}
