import { env } from "~/.server/bindings";
import { indexForm, shownForm } from "~/lib/caption-words";
import { SEARCH_CAPTION_WINDOW } from "~/lib/limits";
import { snippetOf } from "./mark";

// Videos found by what is said in them (docs/decisions/0043-captions.md): their cues' own index,
// words with positions, each CJK character a word, so "水" and "安全" are found as "water" is.

/** Where a video's captions matched: the cue (matches marked), its second and its language. */
export interface CuePassage {
  text: string;
  time: number;
  lang: string;
}

/**
 * The query for the cues' index: every word a quoted phrase (no text read as query syntax), all in
 * one cue. No prefix queries: FTS5 merges a prefix's every posting before it can stop, which would
 * make a query's work grow with the catalogue; English words match by their stem instead.
 */
export const cueQuery = (terms: string[]) => terms.map((term) => `"${indexForm(term).replace(/"/g, '""')}"`).join(" AND ");

/**
 * The videos whose cues hold every word (in one cue), newest first, with the earliest such cue:
 * only the newest SEARCH_CAPTION_WINDOW matching cues are looked at, whatever the word. The page's
 * ids are chosen first and only they are joined to their columns, so the sort carries no text.
 * `filters` are what every result must be; `notInFields` leaves out the fields' matches.
 */
export function captionMatchesSql(columns: string, filters: string[], notInFields: string) {
  return `SELECT ${columns}, r.cue
    FROM (SELECT c.id, t.cue
          FROM (SELECT min(q.id) AS cue, cap.content_id AS id
                FROM (SELECT rowid FROM caption_fts WHERE caption_fts MATCH ? ORDER BY rowid DESC LIMIT ${SEARCH_CAPTION_WINDOW}) m
                CROSS JOIN caption_cues q ON q.id = m.rowid CROSS JOIN captions cap ON cap.id = q.caption_id
                GROUP BY cap.content_id) t
          CROSS JOIN content c ON c.id = t.id
          WHERE ${[...filters, `NOT (${notInFields})`].join(" AND ")}
          ORDER BY c.id DESC LIMIT ? OFFSET ?) r
    CROSS JOIN content c ON c.id = r.id CROSS JOIN users u ON u.id = c.owner_id
    ORDER BY c.id DESC`;
}

/** The matched cue of each result, its words marked, with its second and language. */
export async function cuePassages(cues: number[], terms: string[]): Promise<Map<number, CuePassage>> {
  const passages = new Map<number, CuePassage>();
  if (!cues.length) return passages;
  const { results } = await env.DB.prepare(
    `SELECT q.id, q.start_ms, q.body, cap.lang FROM caption_cues q JOIN captions cap ON cap.id = q.caption_id
     WHERE q.id IN (${cues.map(() => "?").join(", ")})`,
  )
    .bind(...cues)
    .all<{ id: number; start_ms: number; body: string; lang: string }>();
  for (const { id, start_ms, body, lang } of results) {
    passages.set(id, { text: snippetOf([shownForm(body).replace(/\s+/g, " ")], terms), time: Math.floor(start_ms / 1000), lang });
  }
  return passages;
}
