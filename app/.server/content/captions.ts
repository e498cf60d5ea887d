import { env } from "~/.server/bindings";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { indexForm, shownForm } from "~/lib/caption-words";
import { type CaptionInfo, clockTime, type ShownCue, type TranscriptCue } from "~/lib/captions";
import { CAPTION_CUES_PER_MINUTE, CAPTION_END_SLACK_MS, CAPTIONS_MAX_LANGUAGES, CAPTIONS_MEMBER_MAX_MB } from "~/lib/limits";
import { captionFile } from "./caption-file";
import { MEMBER_FILE_POLICY } from "./member-file-policy";
import { mp4DurationMs } from "./sniff";

// A video's captions (docs/decisions/0043-captions.md): one set of cues per language, stored in D1
// and indexed for search; the .vtt a player reads is written from them.

/** Cues per statement: the JSON they travel in stays far below D1's limit on one value. */
const CUES_PER_STATEMENT = 2000;

const BUDGET_BYTES = CAPTIONS_MEMBER_MAX_MB * 1024 * 1024;
/** The caption text as stored, in bytes, of the owner of ?1, leaving out its set in ?2 (the one being replaced). */
const OWNER_CAPTION_BYTES = `(SELECT coalesce(sum(k.text_bytes), 0) FROM captions k JOIN content x ON x.id = k.content_id
  WHERE x.owner_id = (SELECT owner_id FROM content WHERE id = ?1) AND NOT (k.content_id = ?1 AND k.lang = ?2))`;

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
 * Stores a video's cues in a language in one transaction. The owner's replace what that language
 * had (its index rows go with them); automatic ones are stored only while the video has no captions
 * at all, so a repeated job or an owner's file that came first keeps what is there. Cues must fit the
 * video's length, and the owner's captions in all their budget (decision 0043): the budget is
 * checked by the statements that write, so two writes at once cannot both pass it, and a refused
 * replacement keeps the set it would have replaced. Answers whether they were stored; refuses past
 * CAPTIONS_MAX_LANGUAGES languages or the budget.
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
    .prepare("SELECT file_key, file_size FROM content WHERE id = ? AND kind = 'video'")
    .bind(contentId)
    .first<{ file_key: string; file_size: number }>();
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
      ? "(SELECT count(*) FROM captions WHERE content_id = ?1 AND lang <> ?2) < ?5"
      : "NOT EXISTS (SELECT 1 FROM captions WHERE content_id = ?1) AND ?5 > 0";
  const statements = [
    // The owner's set replaces this language's, only when the new one will be stored.
    ...(source === "owner"
      ? [
          db
            .prepare(`DELETE FROM captions WHERE content_id = ?1 AND lang = ?2 AND ${fits} AND ${room}`)
            .bind(contentId, lang, bytes, BUDGET_BYTES, CAPTIONS_MAX_LANGUAGES),
        ]
      : []),
    db
      .prepare(
        `INSERT INTO captions (content_id, lang, source, cue_count, duration_ms, write_key, updated_at, text_bytes)
         SELECT ?1, ?2, ?6, ?7, ?8, ?9, ?10, ?3 WHERE EXISTS (SELECT 1 FROM content WHERE id = ?1 AND kind = 'video') AND ${fits} AND ${room}`,
      )
      .bind(contentId, lang, bytes, BUDGET_BYTES, CAPTIONS_MAX_LANGUAGES, source, cues.length, durationMs, key, now),
  ];
  for (let from = 0; from < rows.length; from += CUES_PER_STATEMENT) {
    statements.push(
      db
        .prepare(
          `INSERT INTO caption_cues (caption_id, start_ms, end_ms, body)
           SELECT c.id, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM captions c JOIN json_each(?2) j WHERE c.write_key = ?1 ORDER BY j.key`,
        )
        .bind(key, JSON.stringify(rows.slice(from, from + CUES_PER_STATEMENT))),
    );
  }
  const results = await db.batch(statements);
  const stored = (results[source === "owner" ? 1 : 0]?.meta.changes ?? 0) > 0;
  if (!stored && source === "owner") {
    // Which condition failed, to say so: the video gone, the budget, or its languages.
    const state = await db
      .prepare(`SELECT EXISTS (SELECT 1 FROM content WHERE id = ?1 AND kind = 'video') AS video, ${fits} AS fits`)
      .bind(contentId, lang, bytes, BUDGET_BYTES)
      .first<{ video: number; fits: number }>();
    if (!state?.video) throw new Refused("content.notFound", { status: 404 });
    if (!state.fits) throw budgetFull();
    throw new Refused(`content.captionsTooManyLanguages|max=${CAPTIONS_MAX_LANGUAGES}`, { status: 409, field: "captions" });
  }
  return stored;
}

/** Removes a language's captions (and their index rows); removing what is not there is not an error. */
export async function removeCaptions(contentId: number, lang: string) {
  await env.DB.prepare("DELETE FROM captions WHERE content_id = ? AND lang = ?").bind(contentId, lang).run();
}

/** The languages a video has captions in, as one read of a page's round trip. */
export const captionsRead = (contentId: number): Read<CaptionInfo[]> => ({
  statements: [
    env.DB.prepare("SELECT lang, source, cue_count, duration_ms, updated_at FROM captions WHERE content_id = ? ORDER BY lang").bind(
      contentId,
    ),
  ],
  decode: ([listed]) => (listed?.results ?? []) as CaptionInfo[],
});

/** Cues of one language in order, as members read them: `limit` from `offset`. */
export async function captionCues(contentId: number, lang: string, offset = 0, limit = -1): Promise<ShownCue[]> {
  const { results } = await env.DB.prepare(
    `SELECT q.id, q.start_ms, q.end_ms, q.body AS text FROM caption_cues q
     WHERE q.caption_id = (SELECT id FROM captions WHERE content_id = ? AND lang = ?) ORDER BY q.id LIMIT ? OFFSET ?`,
  )
    .bind(contentId, lang, limit, offset)
    .all<ShownCue>();
  return results.map((cue) => ({ ...cue, text: shownForm(cue.text) }));
}

/** How many cues of a language start before `ms`: the transcript page a link to that second opens. */
export async function cuesBefore(contentId: number, lang: string, ms: number): Promise<number> {
  return Number(
    await env.DB.prepare(
      "SELECT count(*) AS n FROM caption_cues WHERE caption_id = (SELECT id FROM captions WHERE content_id = ? AND lang = ?) AND start_ms < ?",
    )
      .bind(contentId, lang, ms)
      .first("n"),
  );
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

/** A language's captions as a WebVTT file (its address is the platform's own, so players read it), or null. */
export async function captionFileResponse(contentId: number, lang: string): Promise<Response | null> {
  const cues = await captionCues(contentId, lang);
  if (!cues.length) return null;
  return new Response(captionFile(cues), {
    headers: {
      "Content-Type": "text/vtt; charset=utf-8",
      "Content-Disposition": `inline; filename="${contentId}.${lang}.vtt"`,
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": MEMBER_FILE_POLICY,
    },
  });
}
