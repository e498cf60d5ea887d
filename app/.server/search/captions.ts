import { textShard } from "~/.server/databases";
import { indexForm, shownForm } from "~/lib/caption-words";
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
 * A shard's videos whose cues hold every word (in one cue), with each caption set's earliest such
 * cue: only its newest ?2 matching cues are looked at, whatever the word (its share of
 * SEARCH_CAPTION_WINDOW). The core keeps the ready sets among them (a set being written or replaced
 * has cues here too).
 */
export const captionCandidatesSql = `SELECT q.content_id AS id, q.caption_key AS key, min(q.id) AS cue
  FROM (SELECT rowid FROM caption_fts WHERE caption_fts MATCH ?1 ORDER BY rowid DESC LIMIT ?2) m
  CROSS JOIN caption_cues q ON q.id = m.rowid
  GROUP BY q.content_id, q.caption_key`;

/** The matched cue of each result (by shard and cue: `${shard}:${cue}`), its words marked, with its second and language. */
export async function cuePassages(cues: { cue: number; shard?: number }[], terms: string[]): Promise<Map<string, CuePassage>> {
  const passages = new Map<string, CuePassage>();
  const shards = new Map<number, number[]>();
  for (const { cue, shard = 0 } of cues) shards.set(shard, [...(shards.get(shard) ?? []), cue]);
  await Promise.all(
    [...shards].map(async ([shard, ids]) => {
      const { results } = await textShard(shard)
        .prepare("SELECT id, start_ms, body, lang FROM caption_cues WHERE id IN (SELECT value FROM json_each(?))")
        .bind(JSON.stringify(ids))
        .all<{ id: number; start_ms: number; body: string; lang: string }>();
      for (const { id, start_ms, body, lang } of results) {
        const text = snippetOf([shownForm(body).replace(/\s+/g, " ")], terms);
        passages.set(`${shard}:${id}`, { text, time: Math.floor(start_ms / 1000), lang });
      }
    }),
  );
  return passages;
}
