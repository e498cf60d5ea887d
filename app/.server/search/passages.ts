import { PAGE_BREAK } from "~/.server/content/pdf-text";
import { textShard } from "~/.server/databases";
import { snippetOf } from "./mark";

/** Where a document's own text matched: the passage (matches marked) and the page it is on. */
export interface PagePassage {
  text: string;
  page: number;
}

/** Characters read around a match, enough for a snippet on either side. */
const AROUND = 160;

/**
 * Passages for the results found by their documents' text (the text query's rows; the fields'
 * query decided which those are). Each is cut from the page of the earliest word, and the page
 * counted from the page breaks before it, in the document's shard, so no document's whole text leaves it.
 */
export async function documentPassages(found: { id: number; shard?: number }[], terms: string[]): Promise<Map<number, PagePassage>> {
  const passages = new Map<number, PagePassage>();
  const shards = new Map<number, number[]>();
  for (const { id, shard = 0 } of found) shards.set(shard, [...(shards.get(shard) ?? []), id]);
  await Promise.all([...shards].map(async ([shard, ids]) => passagesIn(textShard(shard), ids, terms, passages)));
  return passages;
}

/** The passages of one shard's documents, into `passages`. */
async function passagesIn(shard: D1Database, ids: number[], terms: string[], passages: Map<number, PagePassage>) {
  const lowered = [...new Set(terms.map((term) => term.toLowerCase()))];
  const { results } = await shard
    .prepare(
      `WITH t(term) AS (SELECT value FROM json_each(?1)),
       hit AS (SELECT d.content_id AS id, min(nullif(instr(lower(d.body), t.term), 0)) AS at
               FROM document_text d JOIN t WHERE d.content_id IN (SELECT value FROM json_each(?2)) GROUP BY d.content_id)
       SELECT hit.id, hit.at - max(1, hit.at - ${AROUND}) AS offset, substr(d.body, max(1, hit.at - ${AROUND}), ${2 * AROUND}) AS around,
         hit.at - length(replace(substr(d.body, 1, hit.at), char(12), '')) + 1 AS page
       FROM hit JOIN document_text d ON d.content_id = hit.id WHERE hit.at IS NOT NULL`,
    )
    .bind(JSON.stringify(lowered), JSON.stringify(ids))
    .all<{ id: number; offset: number; around: string; page: number }>();
  for (const { id, offset, around, page } of results) {
    // Only the match's own page, as one line. SQLite counts characters, not UTF-16 units.
    const chars = Array.from(around);
    const start = chars.lastIndexOf(PAGE_BREAK, offset) + 1;
    const end = chars.indexOf(PAGE_BREAK, offset);
    const text = chars
      .slice(start, end < 0 ? undefined : end)
      .join("")
      .replace(/\s+/g, " ");
    passages.set(id, { text: snippetOf([text], terms), page });
  }
}
