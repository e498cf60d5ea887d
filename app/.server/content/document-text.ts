import { env } from "~/.server/bindings";
import { textShard } from "~/.server/databases";
import { recordFollowups } from "~/.server/followups/followups";
import type { TextJob } from "~/.server/jobs/jobs";
import { enqueue } from "~/.server/jobs/queue";
import { describeError, logEvent } from "~/.server/observability/log";
import { type Read, readOne } from "~/.server/reads";
import type { TextState } from "~/lib/document-text";
import { PDF_TEXT_MAX_MB, TEXT_EXTRACT_ATTEMPTS, TEXT_REQUEUE_MINUTES } from "~/lib/limits";
import { PAGE_BREAK, readPdfText, Unreadable } from "./pdf-text";

// A document's own text, read from its PDF by a queue job after the upload (never during the
// member's request) and indexed for search (docs/decisions/0030-document-text.md), in the item's
// text shard (docs/decisions/0045-databases.md).

/**
 * The job: reads the document's PDF and stores its text, or why it has none. The text goes to the
 * item's shard, then the core marks it done (decision 0045): a record of the write, made first, has
 * the follow-up remove the text if the core half never comes (the item deleted or given a new file
 * meanwhile, or the isolate stopped). A repeat replaces rather than adds. Errors other than an
 * unreadable file are thrown for the queue to retry; the last of TEXT_EXTRACT_ATTEMPTS marks it failed.
 */
export async function extractDocumentText(id: number, now = Date.now()) {
  const db = env.DB;
  // Counted before the work, so a run the isolate never finished (out of memory or time) counts too.
  const [counted, recorded] = await db.batch([
    db
      .prepare(
        "UPDATE content SET text_attempts = text_attempts + 1 WHERE id = ? AND kind = 'document' RETURNING file_key, file_size, text_attempts, text_shard",
      )
      .bind(id),
    recordFollowups("SELECT 'text:' || text_shard, id, ?1 FROM content WHERE id = ?2 AND kind = 'document'", now, id),
  ]);
  const item = counted?.results[0] as { file_key: string; file_size: number; text_attempts: number; text_shard: number } | undefined;
  const followup = (recorded?.results[0] as { id: number } | undefined)?.id;
  if (!item || followup === undefined) return;
  const shard = textShard(item.text_shard);
  /** The core half, while the file read is still the item's (a newer version's text is read by its own job). */
  const settle = async (set: string, values: unknown[], where = "") => {
    const [, forgotten] = await db.batch([
      db.prepare(`UPDATE content SET ${set} WHERE id = ?1 AND file_key = ?2 ${where}`).bind(id, item.file_key, ...values),
      db
        .prepare("DELETE FROM shard_followups WHERE id = ?3 AND EXISTS (SELECT 1 FROM content WHERE id = ?1 AND file_key = ?2)")
        .bind(id, item.file_key, followup),
    ]);
    // Not the item's file any more: the follow-up removes what this run stored.
    if (!forgotten?.meta.changes) await enqueue([{ type: "followup", id: followup }]);
  };
  try {
    if (item.text_attempts > TEXT_EXTRACT_ATTEMPTS) throw new Error("earlier attempts did not finish");
    if (item.file_size > PDF_TEXT_MAX_MB * 1024 * 1024) throw new Unreadable("too-large");
    const file = await env.FILES.get(item.file_key);
    if (!file) throw new Error(`document ${id}'s file is not in storage`);
    const { pages, complete, pageCount } = await readPdfText(new Uint8Array(await file.arrayBuffer()));
    const body = pages.join(PAGE_BREAK);
    if (!body.trim()) throw new Unreadable("no-text");
    await shard
      .prepare(
        `INSERT INTO document_text (content_id, file_key, body, pages, page_count, extracted_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (content_id) DO UPDATE SET file_key = excluded.file_key, body = excluded.body, pages = excluded.pages,
           page_count = excluded.page_count, extracted_at = excluded.extracted_at`,
      )
      .bind(id, item.file_key, body, complete, pageCount, now)
      .run();
    await settle("text_state = 'done', text_note = NULL, text_pages = ?3, text_page_count = ?4", [complete, pageCount]);
    // Comments on a passage of an earlier version keep their quote where this text still holds it (decision 0051).
    await enqueue([{ type: "reanchor", id }]);
  } catch (error) {
    const note = error instanceof Unreadable ? error.note : item.text_attempts >= TEXT_EXTRACT_ATTEMPTS ? "failed" : null;
    if (!note) throw error;
    if (note === "failed") {
      logEvent("error", "document_text.failed", { id, error: describeError(error) });
      // Only a document still waiting: a repeat of a job that already succeeded keeps its text.
      return settle("text_state = 'none', text_note = 'failed'", [], "AND text_state = 'pending'");
    }
    // No text for this file: an earlier one's goes first, then the core says why.
    await shard.prepare("DELETE FROM document_text WHERE content_id = ?").bind(id).run();
    await settle("text_state = 'none', text_note = ?3, text_pages = NULL, text_page_count = NULL", [note]);
  }
}

/** Documents still pending well after their job was queued (a lost send, a dead-lettered job), marked queued now. */
export async function stalledDocuments(now: number, limit = 100): Promise<TextJob[]> {
  const { results } = await env.DB.prepare(
    `UPDATE content SET text_queued_at = ?1 WHERE id IN (
         SELECT id FROM content WHERE text_state = 'pending' AND text_queued_at < ?2 ORDER BY text_queued_at LIMIT ?3)
       RETURNING id`,
  )
    .bind(now, now - TEXT_REQUEUE_MINUTES * 60_000, limit)
    .all<{ id: number }>();
  return results.map(({ id }) => ({ type: "document-text", id }));
}

/** The extraction's state for the item's owner. */
export function textStateRead(id: number): Read<TextState | null> {
  return {
    statements: [
      env.DB.prepare(
        "SELECT text_state AS state, text_note AS note, text_pages AS pages, text_page_count AS page_count FROM content WHERE id = ?",
      ).bind(id),
    ],
    decode: ([found]) => {
      const row = found?.results[0] as (TextState & { state: TextState["state"] | null }) | undefined;
      return row?.state ? { ...row, state: row.state } : null;
    },
  };
}

export const textStateOf = (id: number) => readOne(textStateRead(id));
