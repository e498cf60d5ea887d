import { env } from "~/.server/bindings";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { indexForm, shownForm } from "~/lib/caption-words";
import type { CaptionInfo, ShownCue, TranscriptCue } from "~/lib/captions";
import { CAPTIONS_MAX_LANGUAGES } from "~/lib/limits";
import { captionFile } from "./caption-file";
import { MEMBER_FILE_POLICY } from "./member-file-policy";

// A video's captions (docs/decisions/0043-captions.md): one set of cues per language, stored in D1
// and indexed for search; the .vtt a player reads is written from them.

/** Cues per statement: the JSON they travel in stays far below D1's limit on one value. */
const CUES_PER_STATEMENT = 2000;

/**
 * Stores a video's cues in a language in one transaction. The owner's replace what that language
 * had (its index rows go with them); automatic ones are stored only while the video has no captions
 * at all, so a repeated job or an owner's file that came first keeps what is there. Answers whether
 * they were stored; refuses past CAPTIONS_MAX_LANGUAGES languages.
 */
export async function saveCaptions(
  contentId: number,
  lang: string,
  cues: TranscriptCue[],
  source: CaptionInfo["source"],
  now: number,
): Promise<boolean> {
  const db = env.DB;
  const key = crypto.randomUUID();
  const durationMs = Math.max(...cues.map((cue) => cue.end_ms));
  const room =
    source === "owner"
      ? "(SELECT count(*) FROM captions WHERE content_id = ?1 AND lang <> ?2) < ?7"
      : "NOT EXISTS (SELECT 1 FROM captions WHERE content_id = ?1) AND ?7 > 0";
  const statements = [
    ...(source === "owner" ? [db.prepare("DELETE FROM captions WHERE content_id = ? AND lang = ?").bind(contentId, lang)] : []),
    db
      .prepare(
        `INSERT INTO captions (content_id, lang, source, cue_count, duration_ms, write_key, updated_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?8 WHERE EXISTS (SELECT 1 FROM content WHERE id = ?1 AND kind = 'video') AND ${room}`,
      )
      .bind(contentId, lang, source, cues.length, durationMs, key, CAPTIONS_MAX_LANGUAGES, now),
  ];
  for (let from = 0; from < cues.length; from += CUES_PER_STATEMENT) {
    const rows = cues.slice(from, from + CUES_PER_STATEMENT).map((cue) => [cue.start_ms, cue.end_ms, indexForm(cue.text)]);
    statements.push(
      db
        .prepare(
          `INSERT INTO caption_cues (caption_id, start_ms, end_ms, body)
           SELECT c.id, j.value ->> 0, j.value ->> 1, j.value ->> 2 FROM captions c JOIN json_each(?2) j WHERE c.write_key = ?1 ORDER BY j.key`,
        )
        .bind(key, JSON.stringify(rows)),
    );
  }
  const results = await db.batch(statements);
  const stored = (results[source === "owner" ? 1 : 0]?.meta.changes ?? 0) > 0;
  if (!stored && source === "owner") {
    // Refused only when the language was not there before (the count leaves it out), so the delete removed nothing.
    const video = await db.prepare("SELECT 1 FROM content WHERE id = ? AND kind = 'video'").bind(contentId).first();
    throw video
      ? new Refused(`content.captionsTooManyLanguages|max=${CAPTIONS_MAX_LANGUAGES}`, { status: 409, field: "captions" })
      : new Refused("content.notFound", { status: 404 });
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
