import { z } from "zod";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { MARK_END, MARK_START } from "~/lib/highlight";
import type { Language } from "~/lib/i18n";
import { LICENSE_ID } from "~/lib/licenses";
import { SEARCH_CANDIDATES, SEARCH_CAPTION_WINDOW, SEARCH_SHORT_WORD_WINDOW, SEARCH_TEXT_WINDOW } from "~/lib/limits";
import { funderIdentifier } from "~/lib/schemas/funding";
import { type CuePassage, captionCandidatesSql, cuePassages, cueQuery } from "./captions";
import { markTerms, snippetOf } from "./mark";
import { FUNDED_BY, fundedItems, membersOf } from "./organisations";
import { documentPassages, type PagePassage } from "./passages";
import { askShards } from "./shards";

const TRIGRAM = 3;
const HISTORY_SIZE = 10;
export const SEARCH_PAGE_SIZE = 20;

export const searchQuerySchema = z.object({
  q: z.string().trim().max(200).default("").catch(""),
  tab: z.enum(["documents", "videos", "members"]).default("documents").catch("documents"),
  sdg: z.coerce.number().int().min(1).max(17).optional().catch(undefined),
  since: z.enum(["week", "month", "year"]).optional().catch(undefined),
  type: z.enum(["1", "2"]).optional().catch(undefined),
  license: z.string().regex(LICENSE_ID).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(500).default(1).catch(1),
  funder: z
    .string()
    .max(200)
    .transform((text) => funderIdentifier(text)?.id)
    .optional()
    .catch(undefined)
    .describe("documents and videos whose funding names this funder: a ROR id or a Crossref Funder ID; the words may then be left out"),
  org: z
    .string()
    .max(200)
    .transform((text) => {
      const found = funderIdentifier(text);
      return found?.type === "ROR" ? found.id : undefined;
    })
    .optional()
    .catch(undefined)
    .describe("members who linked this organisation's ROR id; the words may then be left out"),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Words of the query; each becomes a quoted FTS phrase, so no text is ever read as query syntax. */
export function searchTerms(q: string): string[] {
  return q
    .split(/[\s\u3000]+/)
    .map((term) => term.replace(/[\u0000-\u001f]/g, ""))
    .filter(Boolean)
    .slice(0, 8);
}

const phrase = (term: string) => `"${term.replace(/"/g, '""')}"`;
const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const isLong = (term: string) => [...term].length >= TRIGRAM;
/** The words of the query the trigram indexes can find. */
export const longTerms = (q: string) => searchTerms(q).filter(isLong);

/** D1 refuses a LIKE pattern over 50 bytes (17 Chinese characters and their wildcards). */
const LIKE_MAX_BYTES = 50;
const utf8Length = (text: string) => new TextEncoder().encode(text).length;
/** The longest start of `chars` whose LIKE pattern D1 takes. */
function fitting(chars: string[]): string {
  let piece = "";
  for (const char of chars) {
    if (utf8Length(`%${piece}${char}%`) > LIKE_MAX_BYTES) break;
    piece += char;
  }
  return piece;
}
/**
 * The text index's LIKE patterns for a word: the word itself, or, for one too long for D1, its first
 * and last pieces that fit (the word is then checked whole on the text: `tooLongToLike`).
 */
function likePatterns(term: string): string[] {
  if (!tooLongToLike(term)) return [`%${term}%`];
  const chars = [...term];
  return [`%${fitting(chars)}%`, `%${[...fitting(chars.reverse())].reverse().join("")}%`];
}
const tooLongToLike = (term: string) => utf8Length(`%${term}%`) > LIKE_MAX_BYTES;
const SINCE_DAYS = { week: 7, month: 31, year: 366 } as const;

export interface ContentHit {
  id: number;
  kind: "document" | "video";
  sdg: number;
  title: string;
  snippet: string;
  owner_name: string;
  created_at: number;
  /**
   * Where a document's own text (its page) or a video's captions (the second and language) matched,
   * when its form fields lack a word of the query.
   */
  passage: PagePassage | CuePassage | null;
  /** The language of the title and abstract that matched, when it is a translation's (decision 0050); null for the original. */
  matched_lang: Language | null;
}

/** The columns of a result, before its matches are marked. */
const HIT_COLUMNS = "c.id, c.kind, c.sdg, c.created_at, u.nick_name AS owner_name, c.title, c.summary, c.content, c.keywords, c.texts";
type HitRow = Omit<ContentHit, "snippet" | "passage" | "matched_lang"> & {
  summary: string;
  content: string;
  keywords: string;
  texts: string;
};
/** A row found by its text, with its shard: a video's carries the cue that matched. */
type FoundRow = HitRow & { cue?: number; shard?: number };

export interface MemberHit {
  id: number;
  nick_name: string;
  organisation: string | null;
  account_type: 1 | 2;
  /** 1 once a reviewer approved their identity. */
  verified: 0 | 1;
  /** The ORCID iD they linked by signing in to ORCID. */
  orcid: string | null;
}

const VERIFIED = "EXISTS (SELECT 1 FROM verifications v WHERE v.user_id = u.id AND v.status = 'approved') AS verified";
/** A member hit's columns, as stored (the words' search marks the name itself). */
const MEMBER_COLUMNS = `u.id, u.nick_name, u.organisation, u.account_type, u.orcid, ${VERIFIED}`;

/** How much a word found in each field adds to an item's relevance: the title weighs most. */
const FIELD_WEIGHTS = { title: 10, summary: 4, keywords: 3, content: 1, texts: 4 } as const;

/**
 * Documents or videos matching every word, most relevant first. Words of 3+ characters go through
 * the trigram index; shorter ones (e.g. 2-character Chinese words) by LIKE. Only publicized items,
 * and the viewer's own.
 *
 * Bounded at any catalogue size (docs/decisions/0026-search-at-a-million.md): the newest
 * SEARCH_CANDIDATES items matching the words are ranked by the fields each word is found in
 * (FIELD_WEIGHTS), newest first among equals, and filters narrow those; a query of short words only
 * reads the newest SEARCH_SHORT_WORD_WINDOW items of the kind, newest first. Matches are marked here.
 *
 * Words of 3+ characters are found in co-authors' names too, and documents whose own text holds
 * every word follow the matches in the fields, newest first, with the passage and its page
 * (docs/decisions/0030-document-text.md); in the videos tab, videos whose captions hold every word
 * in one cue, with the cue and its second (docs/decisions/0043-captions.md).
 */
export async function searchContent(
  query: SearchQuery,
  viewerId: number,
  now: number,
  limit = SEARCH_PAGE_SIZE,
): Promise<{ hits: ContentHit[]; partial: boolean }> {
  const db = env.DB;
  const terms = searchTerms(query.q);
  const kind = query.tab === "videos" ? "video" : "document";
  // What every result must be, whichever part of it matched: visible to the viewer, of the tab's kind, the filters.
  const filters = ["(c.publicize = 1 OR c.owner_id = ?)", "c.kind = ?"];
  const filterBinds: (string | number)[] = [viewerId, kind];
  if (query.sdg) {
    filters.push("c.sdg = ?");
    filterBinds.push(query.sdg);
  }
  if (query.license) {
    filters.push("c.license = ?");
    filterBinds.push(query.license);
  }
  if (query.since) {
    filters.push("c.created_at >= ?");
    filterBinds.push(now - SINCE_DAYS[query.since] * 86_400_000);
  }
  if (!terms.length) {
    if (!query.funder) return { hits: [], partial: false };
    // No words: the funder's research, newest first.
    const rows = await fundedItems<HitRow>(HIT_COLUMNS, query.funder, filters, filterBinds, limit, (query.page - 1) * SEARCH_PAGE_SIZE);
    return {
      hits: rows.map(({ summary, content, keywords, texts: _, ...hit }) => ({
        ...hit,
        snippet: snippetOf([summary, content, keywords], []),
        passage: null,
        matched_lang: null,
      })),
      partial: false,
    };
  }
  if (query.funder) {
    filters.push(FUNDED_BY);
    filterBinds.push(query.funder);
  }
  const long = terms.filter(isLong);
  const short = terms.filter((t) => !isLong(t));
  const phraseQuery = long.map(phrase).join(" ");
  const shortInFields = short.map(
    () => "(c.title || ' ' || c.summary || ' ' || c.content || ' ' || c.keywords || ' ' || c.texts) LIKE ? ESCAPE '\\'",
  );
  const shortBinds = short.map(likeTerm);
  const where = [...filters];
  const binds = [...filterBinds];
  // Deep pages widen the window so every page the query allows can be reached.
  const window = Math.max(long.length ? SEARCH_CANDIDATES : SEARCH_SHORT_WORD_WINDOW, query.page * SEARCH_PAGE_SIZE + 1);
  if (long.length) {
    // Item ids grow with time, so the newest matches are the highest ids: a rowid range FTS5 seeks to.
    where.unshift("content_fts MATCH ?");
    binds.unshift(phraseQuery);
    where.push(
      "content_fts.rowid >= coalesce((SELECT rowid FROM content_fts WHERE content_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ?), 0)",
    );
  } else {
    where.push(
      "c.created_at >= coalesce((SELECT created_at FROM content INDEXED BY content_kind_recent WHERE kind = ? ORDER BY created_at DESC LIMIT 1 OFFSET ?), 0)",
    );
    binds.push(kind);
  }
  binds.push(window - 1);
  where.push(...shortInFields);
  binds.push(...shortBinds);
  const relevance = terms
    .map(() =>
      (Object.entries(FIELD_WEIGHTS) as [string, number][])
        .map(([field, weight]) => `${weight} * (instr(lower(c.${field}), ?) > 0)`)
        .join(" + "),
    )
    .join(" + ");
  // Past the first window (deep pages), older matches follow newest first, so every page keeps its place.
  const inFirstWindow = `(content_fts.rowid >= coalesce((SELECT rowid FROM content_fts WHERE content_fts MATCH ?1 ORDER BY rowid DESC LIMIT 1 OFFSET ${SEARCH_CANDIDATES - 1}), 0))`;
  const order = long.length ? `${inFirstWindow} DESC, ${inFirstWindow} * (${relevance}) DESC, c.id DESC` : "c.created_at DESC";
  const orderBinds = long.length ? terms.flatMap((term) => Object.keys(FIELD_WEIGHTS).map(() => term.toLowerCase())) : [];
  const matches = `FROM ${long.length ? "content_fts JOIN content c ON c.id = content_fts.rowid" : "content c INDEXED BY content_kind_recent"}
       JOIN users u ON u.id = c.owner_id WHERE ${where.join(" AND ")}`;
  const skipped = (query.page - 1) * SEARCH_PAGE_SIZE;
  const { results } = await db
    .prepare(`SELECT ${HIT_COLUMNS} ${matches} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .bind(...binds, ...orderBinds, limit, skipped)
    .all<HitRow>();
  let found: FoundRow[] = [];
  let partial = false;
  // Items found by their own text follow every match in the fields: documents by their PDF's text
  // (decision 0030), videos by their captions (decision 0043). LIKE's wildcards cannot be escaped in
  // the documents' text index (ESCAPE turns it off): such words skip it.
  const byText = kind === "video" || (long.length > 0 && !long.some((term) => /[%_]/.test(term)));
  if (byText && results.length < limit) {
    const inFields =
      results.length > 0 || query.page === 1
        ? skipped + results.length
        : Number(
            await db
              .prepare(`SELECT count(*) AS n ${matches}`)
              .bind(...binds)
              .first<number>("n"),
          );
    const textOffset = Math.max(0, skipped - inFields);
    // The fields' matches as one list read once (a MATCH per candidate cost 4 times as much in the bench).
    const inFieldsIndex = long.length ? ["c.id IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ?)"] : [];
    const notInFields = [...inFieldsIndex, ...shortInFields].join(" AND ");
    const notInFieldsBinds = [...(long.length ? [phraseQuery] : []), ...shortBinds];
    const page = { filters, filterBinds, notInFields, notInFieldsBinds, limit: limit - results.length, offset: textOffset };
    ({ found, partial } = kind === "video" ? await captionMatches(terms, page) : await textMatches(long, short, page));
  }
  const [pages, cues] = await Promise.all([
    documentPassages(
      found.filter((hit) => hit.cue === undefined),
      long,
    ),
    cuePassages(
      found.flatMap((hit) => (hit.cue === undefined ? [] : [{ cue: hit.cue, shard: hit.shard }])),
      terms,
    ),
  ]);
  const hits = [...results, ...found].map(({ summary, content, keywords, title, texts, cue, shard, ...hit }: FoundRow) => {
    // A word the original lacks but a translation holds: the hit shows that language's title and abstract, and says so.
    const original = [title, summary, content, keywords].join(" ").toLowerCase();
    const translated = terms.every((term) => original.includes(term.toLowerCase())) ? undefined : matchedText(texts, terms);
    return {
      ...hit,
      title: markTerms(translated?.title ?? title, terms),
      snippet: snippetOf(translated ? [translated.summary] : [summary, content, keywords], terms),
      passage: (cue === undefined ? pages.get(hit.id) : cues.get(`${shard}:${cue}`)) ?? null,
      matched_lang: translated?.lang ?? null,
    };
  });
  return { hits, partial };
}

/** The translation (of an item's `texts`, decision 0050) holding every word, if one does. */
function matchedText(texts: string, terms: string[]): { lang: Language; title: string; summary: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(texts);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  return (parsed as { lang: Language; title: string; summary: string }[]).find((text) =>
    terms.every((term) => `${text.title} ${text.summary}`.toLowerCase().includes(term.toLowerCase())),
  );
}

/**
 * A shard's share of a window over the newest documents or cues: items go to the open shards at
 * random, so each shard's newest `window / shards` are, together, about the newest `window` of all,
 * and a search does the work of one database's window however many shards there are.
 */
const perShard = (window: number) => Math.ceil(window / config().textShards.length);

/** The part of a text search's page the core decides: what every result must be, and which of the page's places are left. */
interface TextPage {
  filters: string[];
  filterBinds: (string | number)[];
  notInFields: string;
  notInFieldsBinds: (string | number)[];
  limit: number;
  offset: number;
}

/**
 * Documents whose own text holds every word (decision 0030), from every text shard at once (decision
 * 0045): each shard gives its candidates among its share of the newest SEARCH_TEXT_WINDOW documents
 * with text (`perShard`), the core keeps those it says are done for their item's current file and
 * that pass the filters, newest first: text a write stopped halfway stored is not shown.
 */
async function textMatches(long: string[], short: string[], page: TextPage) {
  const window = perShard(SEARCH_TEXT_WINDOW);
  // Short words, and words too long for one LIKE, are checked on the text itself.
  const checkedWhole = [...short, ...long.filter(tooLongToLike)];
  // The text's index checks each candidate against its text. CROSS JOIN keeps its matches the outer loop.
  const { rows, partial } = await askShards("documents", async (shard) => {
    const { results } = await shard
      .prepare(
        `SELECT d.content_id AS id, d.file_key FROM (SELECT rowid FROM document_fts WHERE ${long
          .flatMap(likePatterns)
          .map(() => "body LIKE ?")
          .join(" AND ")}
             AND rowid >= coalesce((SELECT content_id FROM document_text ORDER BY content_id DESC LIMIT 1 OFFSET ?), 0)) t
         CROSS JOIN document_text d ON d.content_id = t.rowid
         ${checkedWhole.length ? `WHERE ${checkedWhole.map(() => "instr(lower(d.body), ?) > 0").join(" AND ")}` : ""}`,
      )
      .bind(...long.flatMap(likePatterns), window - 1, ...checkedWhole.map((term) => term.toLowerCase()))
      .all<{ id: number; file_key: string }>();
    return results;
  });
  const found = await inCore(
    rows.map((row) => [row.id, row.shard, row.file_key]),
    "CROSS JOIN content c ON c.id = j.value ->> 0 AND c.text_shard = j.value ->> 1 AND c.file_key = j.value ->> 2 AND c.text_state = 'done'",
    page,
  );
  return { found, partial };
}

/**
 * Videos whose captions hold every word in one cue (decision 0043), from every text shard at once:
 * each shard gives the videos among its share of the newest SEARCH_CAPTION_WINDOW matching cues
 * (whatever the word), with each set's earliest such cue; the core keeps the ready sets' videos that
 * pass the filters.
 */
async function captionMatches(terms: string[], page: TextPage) {
  const window = perShard(SEARCH_CAPTION_WINDOW);
  const { rows, partial } = await askShards("captions", async (shard) => {
    const { results } = await shard
      .prepare(captionCandidatesSql)
      .bind(cueQuery(terms), window)
      .all<{ id: number; key: string; cue: number }>();
    return results;
  });
  const found = await inCore(
    rows.map((row) => [row.id, row.shard, row.key, row.cue]),
    `CROSS JOIN captions k ON k.write_key = j.value ->> 2 AND k.state = 'ready'
     CROSS JOIN content c ON c.id = k.content_id AND c.id = j.value ->> 0 AND c.text_shard = j.value ->> 1`,
    page,
    "min(j.value ->> 3) AS cue",
  );
  return { found, partial };
}

/**
 * The shards' candidates (as JSON rows, joined to the core's rows by `join`) that pass the page's
 * filters, newest first, one row an item: the page's places of them.
 */
async function inCore(candidates: unknown[][], join: string, page: TextPage, extra = "NULL AS cue"): Promise<FoundRow[]> {
  if (!candidates.length) return [];
  const { results } = await env.DB.prepare(
    `SELECT ${HIT_COLUMNS}, c.text_shard AS shard, ${extra} FROM json_each(?) j ${join} CROSS JOIN users u ON u.id = c.owner_id
     WHERE ${[...page.filters, `NOT (${page.notInFields})`].join(" AND ")}
     GROUP BY c.id ORDER BY c.id DESC LIMIT ? OFFSET ?`,
  )
    .bind(JSON.stringify(candidates), ...page.filterBinds, ...page.notInFieldsBinds, page.limit, page.offset)
    .all<FoundRow & { cue: number | null }>();
  return results.map(({ cue, ...row }) => (cue === null ? row : { ...row, cue }));
}

/** Members by nick name, organisation or the profile they made public, with the same rules for short words. */
export async function searchMembers(query: SearchQuery, limit = SEARCH_PAGE_SIZE): Promise<MemberHit[]> {
  const terms = searchTerms(query.q);
  const where: string[] = [];
  const binds: (string | number)[] = [];
  if (query.type) {
    where.push("u.account_type = ?");
    binds.push(Number(query.type));
  }
  if (!terms.length) return query.org ? membersOf(MEMBER_COLUMNS, query.org, where, binds, limit, (query.page - 1) * SEARCH_PAGE_SIZE) : [];
  if (query.org) {
    where.push("u.organisation_ror = ?");
    binds.push(query.org);
  }
  const long = terms.filter(isLong);
  for (const term of terms.filter((t) => !isLong(t))) {
    // The public profile too (names, academic field, research, country in every language), and every
    // name of the organisation they linked, as the index has them.
    where.push(
      "(u.nick_name || ' ' || coalesce(u.organisation, '') || ' ' || coalesce((SELECT r.names FROM ror_records r WHERE r.ror_id = u.organisation_ror), '') || ' ' || coalesce((SELECT p.search_text FROM profiles p WHERE p.user_id = u.id AND p.public = 1), '')) LIKE ? ESCAPE '\\'",
    );
    binds.push(likeTerm(term));
  }
  const filter = where.length ? `AND ${where.join(" AND ")}` : "";
  const sql = long.length
    ? `SELECT u.id, highlight(member_fts, 0, '${MARK_START}', '${MARK_END}') AS nick_name, u.organisation, u.account_type, u.orcid, ${VERIFIED}
       FROM member_fts JOIN users u ON u.id = member_fts.rowid WHERE member_fts MATCH ? AND u.deleted_at IS NULL ${filter} ORDER BY bm25(member_fts, 10.0, 4.0, 1.0) LIMIT ? OFFSET ?`
    : `SELECT ${MEMBER_COLUMNS} FROM users u WHERE u.deleted_at IS NULL ${filter} ORDER BY u.nick_name LIMIT ? OFFSET ?`;
  return runPage<MemberHit>(sql, long, binds, limit, query.page);
}

/** Runs a search statement: the MATCH phrase first (when there are long words), filters, then the page. */
async function runPage<T>(sql: string, long: string[], binds: (string | number)[], limit: number, page: number) {
  const match = long.length ? [long.map(phrase).join(" ")] : [];
  const { results } = await env.DB.prepare(sql)
    .bind(...match, ...binds, limit, (page - 1) * SEARCH_PAGE_SIZE)
    .all<T>();
  return results;
}

/** One page of the query's tab, for the page's load-more list and the API. */
export async function searchPage(query: SearchQuery, viewerId: number, now: number) {
  const { hits, partial }: { hits: Array<ContentHit | MemberHit>; partial: boolean } =
    query.tab === "members"
      ? { hits: await searchMembers(query, SEARCH_PAGE_SIZE + 1), partial: false }
      : await searchContent(query, viewerId, now, SEARCH_PAGE_SIZE + 1);
  return { items: hits.slice(0, SEARCH_PAGE_SIZE), has_more: hits.length > SEARCH_PAGE_SIZE, page: query.page, partial };
}

export async function rememberSearch(userId: number, q: string, now: number) {
  const db = env.DB;
  if (!q) return;
  await db.batch([
    db
      .prepare(
        "INSERT INTO search_history (user_id, query, searched_at) VALUES (?, ?, ?) ON CONFLICT (user_id, query) DO UPDATE SET searched_at = excluded.searched_at",
      )
      .bind(userId, q, now),
    db
      .prepare(
        "DELETE FROM search_history WHERE user_id = ? AND query NOT IN (SELECT query FROM search_history WHERE user_id = ? ORDER BY searched_at DESC LIMIT ?)",
      )
      .bind(userId, userId, HISTORY_SIZE),
  ]);
}

/** The history as it is once `q` is remembered (the page shows it before the write, which follows the answer). */
export const withSearch = (history: string[], q: string) => (q ? [q, ...history.filter((h) => h !== q)].slice(0, HISTORY_SIZE) : history);

export async function searchHistory(userId: number): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT query FROM search_history WHERE user_id = ? ORDER BY searched_at DESC LIMIT ?")
    .bind(userId, HISTORY_SIZE)
    .all<{ query: string }>();
  return results.map((r) => r.query);
}

export async function clearSearchHistory(userId: number) {
  await env.DB.prepare("DELETE FROM search_history WHERE user_id = ?").bind(userId).run();
}
