import { env } from "~/.server/bindings";
import { textShard } from "~/.server/databases";
import { forgetFollowup, recordFollowups } from "~/.server/followups/followups";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { indexForm, shownForm } from "~/lib/caption-words";
import { type CaptionInfo, captionLang, clockTime, type ShownCue, type TranscriptCue } from "~/lib/captions";
import { CAPTION_CUES_PER_MINUTE, CAPTION_END_SLACK_MS, CAPTIONS_MAX_LANGUAGES, CAPTIONS_MEMBER_MAX_MB } from "~/lib/limits";
import { captionFile, readCaptionFile } from "./caption-file";
import { mp4DurationMs } from "./sniff";

// A video's captions (docs/decisions/0043-captions.md): one set of cues per language, its row in the
// core and its cues, indexed for search, in the item's text shard (decision 0045); the .vtt a player
// reads is written from them.

/** Cues per statement: the JSON they travel in stays far below D1's limit on one value. */
const CUES_PER_STATEMENT = 2000;

const BUDGET_BYTES = CAPTIONS_MEMBER_MAX_MB * 1024 * 1024;
/**
 * The caption text as stored, in bytes, of the owner of ?1: every set, ready or being written,
 * except the ready set of ?1 in ?2 (the one a new set replaces).
 */
const OWNER_CAPTION_BYTES = `(SELECT coalesce(sum(k.text_bytes), 0) FROM captions k JOIN content x ON x.id = k.content_id
  WHERE x.owner_id = (SELECT owner_id FROM content WHERE id = ?1) AND NOT (k.content_id = ?1 AND k.lang = ?2 AND k.state = 'ready'))`;

/** Refuses cues that do not fit the video: one that starts after it ends, or more than its length holds. */
export async function checkAgainstVideo(file: { key: string; size: number }, cues: TranscriptCue[]) {
  const end = await mp4DurationMs(file.size, async (offset, length) => {
    const part = await env.FILES.get(file.key, { range: { offset, length: Math.min(length, file.size - offset) } });
    return part ? new Uint8Array(await part.arrayBuffer()) : new Uint8Array(0);
  });
  // A file that does not say how long it is (fragmented, or cut) is bounded by the file's limits alone.
  if (end === null) return;
  const late = cues.find((cue) => cue.start_ms > end + CAPTION_END_SLACK_MS);
  if (late)
    throw new Refused(`content.captionsPastEnd|at=${clockTime(late.start_ms / 1000)}|end=${clockTime(end / 1000)}`, { field: "captions" });
  const most = Math.max(1, Math.ceil(end / 60_000)) * CAPTION_CUES_PER_MINUTE;
  if (cues.length > most)
    throw new Refused(`content.captionsTooManyForLength|max=${most}|length=${clockTime(end / 1000)}`, { status: 413, field: "captions" });
}

/** Refuses captions that would take their owner past CAPTIONS_MEMBER_MAX_MB (a check before an upload makes its item). */
export async function checkBudget(ownerId: number, cues: TranscriptCue[]) {
  const used = Number(
    await env.DB.prepare(
      "SELECT coalesce(sum(k.text_bytes), 0) AS n FROM captions k JOIN content x ON x.id = k.content_id WHERE x.owner_id = ?",
    )
      .bind(ownerId)
      .first("n"),
  );
  if (used + storedBytes(cues.map((cue) => indexForm(cue.text))) > BUDGET_BYTES) throw budgetFull();
}

const budgetFull = () => new Refused(`content.captionsBudgetFull|max=${CAPTIONS_MEMBER_MAX_MB}`, { status: 413, field: "captions" });
const encoder = new TextEncoder();
const storedBytes = (bodies: string[]) => bodies.reduce((sum, body) => sum + encoder.encode(body).length, 0);

/**
 * Stores a video's cues in a language. The owner's replace what that language had; automatic ones are
 * stored only while the video has no captions at all, so a repeated job or an owner's file that came
 * first keeps what is there. Cues must fit the video's length, and the owner's captions in all their
 * budget (decision 0043). Answers whether they were stored; refuses past CAPTIONS_MAX_LANGUAGES
 * languages or the budget.
 *
 * The cues live in the item's text shard and the set's row in the core (decision 0045), so a write
 * has three steps: (1) the core makes the row 'pending', checked against the budget and the languages
 * by the statement that writes it (two writes at once cannot both pass), with a record of the write;
 * (2) the shard stores the cues under the row's key; (3) the core makes the row 'ready' and drops the
 * set it replaces, whose cues then leave the shard, and the record goes. A write that stops between
 * steps leaves its record: the follow-up removes the cues no ready or recent set claims.
 */
export async function saveCaptions(
  contentId: number,
  lang: string,
  cues: TranscriptCue[],
  source: CaptionInfo["source"],
  now: number,
): Promise<boolean> {
  const db = env.DB;
  const video = await db
    .prepare("SELECT file_key, file_size, text_shard FROM content WHERE id = ? AND kind = 'video'")
    .bind(contentId)
    .first<{ file_key: string; file_size: number; text_shard: number }>();
  if (!video) {
    if (source === "owner") throw new Refused("content.notFound", { status: 404 });
    return false;
  }
  try {
    await checkAgainstVideo({ key: video.file_key, size: video.file_size }, cues);
  } catch (error) {
    // A model's captions that do not fit the video are not stored (and not retried).
    if (source === "automatic" && error instanceof Refused) return false;
    throw error;
  }
  const key = crypto.randomUUID();
  const durationMs = Math.max(...cues.map((cue) => cue.end_ms));
  const rows = cues.map((cue) => [cue.start_ms, cue.end_ms, indexForm(cue.text)] as const);
  const bytes = storedBytes(rows.map(([, , body]) => body));
  const fits = `${OWNER_CAPTION_BYTES} + ?3 <= ?4`;
  const room =
    source === "owner"
      ? "(SELECT count(DISTINCT lang) FROM captions WHERE content_id = ?1 AND lang <> ?2) < ?5"
      : "NOT EXISTS (SELECT 1 FROM captions WHERE content_id = ?1) AND ?5 > 0";
  // (1) The pending row and the write's record.
  const [pending, recorded] = await db.batch([
    db
      .prepare(
        `INSERT INTO captions (content_id, lang, source, state, cue_count, duration_ms, write_key, text_bytes, updated_at)
         SELECT ?1, ?2, ?6, 'pending', ?7, ?8, ?9, ?3, ?10 WHERE EXISTS (SELECT 1 FROM content WHERE id = ?1 AND kind = 'video') AND ${fits} AND ${room}`,
      )
      .bind(contentId, lang, bytes, BUDGET_BYTES, CAPTIONS_MAX_LANGUAGES, source, cues.length, durationMs, key, now),
    recordFollowups(
      "SELECT 'text:' || text_shard, id, ?1 FROM content WHERE id = ?2 AND EXISTS (SELECT 1 FROM captions WHERE write_key = ?3)",
      now,
      contentId,
      key,
    ),
  ]);
  const followup = (recorded?.results[0] as { id: number } | undefined)?.id;
  if (!pending?.meta.changes || followup === undefined) {
    if (source === "automatic") return false;
    throw await refusal(contentId, lang, bytes);
  }
  // (2) The cues, in the item's shard.
  const shard = textShard(video.text_shard);
  const statements: D1PreparedStatement[] = [];
  for (let from = 0; from < rows.length; from += CUES_PER_STATEMENT) {
    statements.push(
      shard
        .prepare(
          `INSERT INTO caption_cues (caption_key, content_id, lang, start_ms, end_ms, body, written_at)
           SELECT ?1, ?2, ?3, j.value ->> 0, j.value ->> 1, j.value ->> 2, ?5 FROM json_each(?4) j ORDER BY j.key`,
        )
        .bind(key, contentId, lang, JSON.stringify(rows.slice(from, from + CUES_PER_STATEMENT)), now),
    );
  }
  try {
    await shard.batch(statements);
  } catch (error) {
    await abandon(key, followup, shard);
    throw error;
  }
  // (3) Ready, in place of the set it replaces (an automatic set only while there is still none).
  const [replaced, made] = await db.batch([
    db
      .prepare(
        `DELETE FROM captions WHERE content_id = ?1 AND lang = ?2 AND state = 'ready' AND ?4 = 'owner'
           AND EXISTS (SELECT 1 FROM captions WHERE write_key = ?3 AND state = 'pending') RETURNING write_key`,
      )
      .bind(contentId, lang, key, source),
    db
      .prepare(
        `UPDATE captions SET state = 'ready' WHERE write_key = ?1 AND state = 'pending'
           AND (?2 = 'owner' OR NOT EXISTS (SELECT 1 FROM captions WHERE content_id = ?3 AND state = 'ready'))`,
      )
      .bind(key, source, contentId),
  ]);
  if (!made?.meta.changes) {
    // The video went meanwhile, or an owner's set came first: this write's cues and row go.
    await abandon(key, followup, shard);
    if (source === "owner") throw new Refused("content.notFound", { status: 404 });
    return false;
  }
  const old = ((replaced?.results ?? []) as { write_key: string }[]).map((set) => set.write_key);
  await dropCues(shard, old);
  await forgetFollowup(followup).run();
  return true;
}

/** A write that will not be made ready: its cues leave the shard, then its row and record the core. */
async function abandon(key: string, followup: number, shard: D1Database) {
  await dropCues(shard, [key]);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM captions WHERE write_key = ? AND state = 'pending'").bind(key),
    forgetFollowup(followup),
  ]);
}

/** The cues of sets the core no longer has. */
async function dropCues(shard: D1Database, keys: string[]) {
  if (keys.length)
    await shard.prepare("DELETE FROM caption_cues WHERE caption_key IN (SELECT value FROM json_each(?))").bind(JSON.stringify(keys)).run();
}

/** Why an owner's set was not stored: the video gone, the budget, or its languages. */
async function refusal(contentId: number, lang: string, bytes: number) {
  const state = await env.DB.prepare(
    `SELECT EXISTS (SELECT 1 FROM content WHERE id = ?1 AND kind = 'video') AS video, ${OWNER_CAPTION_BYTES} + ?3 <= ?4 AS fits`,
  )
    .bind(contentId, lang, bytes, BUDGET_BYTES)
    .first<{ video: number; fits: number }>();
  if (!state?.video) return new Refused("content.notFound", { status: 404 });
  if (!state.fits) return budgetFull();
  return new Refused(`content.captionsTooManyLanguages|max=${CAPTIONS_MAX_LANGUAGES}`, { status: 409, field: "captions" });
}

/**
 * The owner's caption file for a language tag, as the page and the API send it: a tag that is no
 * language is refused beside it, an empty or unparsable file beside the file; else stored as
 * saveCaptions stores it. Answers the language it was stored under.
 */
export async function saveOwnerCaptions(contentId: number, tag: string, file: Uint8Array, now: number): Promise<string> {
  const lang = captionLang(tag.trim());
  if (!lang) throw new Refused("content.captionsLanguageInvalid", { field: "lang" });
  if (file.byteLength === 0) throw new Refused("content.captionsMissing", { field: "captions" });
  await saveCaptions(contentId, lang, readCaptionFile(file), "owner", now);
  return lang;
}

/** Removes a language's captions (their cues leave the shard after); removing what is not there is not an error. */
export async function removeCaptions(contentId: number, lang: string) {
  const db = env.DB;
  const now = Date.now();
  const [recorded, removed] = await db.batch([
    recordFollowups("SELECT 'text:' || text_shard, id, ?1 FROM content WHERE id = ?2", now, contentId),
    db.prepare("DELETE FROM captions WHERE content_id = ? AND lang = ? AND state = 'ready' RETURNING write_key").bind(contentId, lang),
  ]);
  const record = recorded?.results[0] as { id: number; target: string } | undefined;
  if (!record) return;
  await dropCues(
    textShard(Number(record.target.slice(5))),
    ((removed?.results ?? []) as { write_key: string }[]).map((set) => set.write_key),
  );
  await forgetFollowup(record.id).run();
}

/** The languages a video has captions in, as one read of a page's round trip. */
export const captionsRead = (contentId: number): Read<CaptionInfo[]> => ({
  statements: [
    env.DB.prepare(
      "SELECT lang, source, cue_count, duration_ms, updated_at FROM captions WHERE content_id = ? AND state = 'ready' ORDER BY lang",
    ).bind(contentId),
  ],
  decode: ([listed]) => (listed?.results ?? []) as CaptionInfo[],
});

/** Where a language's ready set lives: its key, in the item's shard. */
export interface CaptionSet {
  key: string;
  shard: D1Database;
}

/** A language's ready set, or null: read once for every read of its cues a page makes. */
export async function captionSet(contentId: number, lang: string): Promise<CaptionSet | null> {
  const set = await env.DB.prepare(
    "SELECT k.write_key, c.text_shard FROM captions k JOIN content c ON c.id = k.content_id WHERE k.content_id = ? AND k.lang = ? AND k.state = 'ready'",
  )
    .bind(contentId, lang)
    .first<{ write_key: string; text_shard: number }>();
  return set ? { key: set.write_key, shard: textShard(set.text_shard) } : null;
}

/** Where each ready language's cues live (lang -> set), as one read of a page's round trip. */
export const captionSetsRead = (contentId: number): Read<Map<string, CaptionSet>> => ({
  statements: [
    env.DB.prepare(
      "SELECT k.lang, k.write_key, c.text_shard FROM captions k JOIN content c ON c.id = k.content_id WHERE k.content_id = ? AND k.state = 'ready'",
    ).bind(contentId),
  ],
  decode: ([listed]) =>
    new Map(
      ((listed?.results ?? []) as { lang: string; write_key: string; text_shard: number }[]).map((set) => [
        set.lang,
        { key: set.write_key, shard: textShard(set.text_shard) },
      ]),
    ),
});

/** A set's cues in order, as members read them: `limit` from `offset`. */
export async function captionCues(set: CaptionSet | null, offset = 0, limit = -1): Promise<ShownCue[]> {
  if (!set) return [];
  const { results } = await set.shard
    .prepare("SELECT id, start_ms, end_ms, body AS text FROM caption_cues WHERE caption_key = ? ORDER BY id LIMIT ? OFFSET ?")
    .bind(set.key, limit, offset)
    .all<ShownCue>();
  return results.map((cue) => ({ ...cue, text: shownForm(cue.text) }));
}

/**
 * The page of a set's transcript (`size` cues a page, `pages` in all) holding the moment `ms`: the
 * cues before it decide the page in the same statement that reads it, one round trip to the shard.
 */
export async function transcriptPageAt(set: CaptionSet | null, ms: number, size: number, pages: number) {
  if (!set) return { page: 1, cues: [] as ShownCue[] };
  const page = `min((SELECT count(*) FROM caption_cues WHERE caption_key = ?1 AND start_ms < ?2) / ?3, ?4)`;
  const { results } = await set.shard
    .prepare(
      `SELECT id, start_ms, end_ms, body AS text, ${page} AS page FROM caption_cues WHERE caption_key = ?1 ORDER BY id LIMIT ?3 OFFSET ${page} * ?3`,
    )
    .bind(set.key, ms, size, Math.max(0, pages - 1))
    .all<ShownCue & { page: number }>();
  return {
    page: (results[0]?.page ?? 0) + 1,
    cues: results.map(({ page: _, ...cue }) => ({ ...cue, text: shownForm(cue.text) })),
  };
}

/** The language a page shows first: the asked one, else the reader's, else English, else the first there is. */
export function preferredCaption(captions: CaptionInfo[], asked: string | null, reader: string): CaptionInfo | null {
  const base = (tag: string) => tag.split("-")[0]?.toLowerCase();
  return (
    captions.find((c) => c.lang === asked) ??
    captions.find((c) => base(c.lang) === base(reader)) ??
    captions.find((c) => base(c.lang) === "en") ??
    captions[0] ??
    null
  );
}

/** A language's captions as a WebVTT file's text, or null for none. */
export async function captionFileText(contentId: number, lang: string): Promise<string | null> {
  const cues = await captionCues(await captionSet(contentId, lang));
  return cues.length ? captionFile(cues) : null;
}
