import { env } from "~/.server/bindings";
import type { TextJob } from "~/.server/jobs/jobs";
import { describeError, logEvent } from "~/.server/observability/log";
import { type Read, readOne } from "~/.server/reads";
import type { TextState } from "~/lib/document-text";
import { PDF_TEXT_MAX_MB, TEXT_EXTRACT_ATTEMPTS, TEXT_REQUEUE_MINUTES } from "~/lib/limits";
import { PAGE_BREAK, readPdfText, Unreadable } from "./pdf-text";

// A document's own text, read from its PDF by a queue job after the upload (never during the
// member's request) and indexed for search (docs/decisions/0030-document-text.md).

/**
 * The job: reads the document's PDF and stores its text, or why it has none, in one transaction,
 * so a repeat replaces rather than adds and a deleted item gets nothing. Errors other than an
 * unreadable file are thrown for the queue to retry; the last of TEXT_EXTRACT_ATTEMPTS marks it failed.
 */
export async function extractDocumentText(id: number, now = Date.now()) {
  // Counted before the work, so a run the isolate never finished (out of memory or time) counts too.
  const item = await env.DB.prepare(
    "UPDATE content SET text_attempts = text_attempts + 1 WHERE id = ? AND kind = 'document' RETURNING file_key, file_size, text_attempts",
  )
    .bind(id)
    .first<{ file_key: string; file_size: number; text_attempts: number }>();
  if (!item) return;
  try {
    if (item.text_attempts > TEXT_EXTRACT_ATTEMPTS) throw new Error("earlier attempts did not finish");
    if (item.file_size > PDF_TEXT_MAX_MB * 1024 * 1024) throw new Unreadable("too-large");
    const file = await env.FILES.get(item.file_key);
    if (!file) throw new Error(`document ${id}'s file is not in storage`);
    const { pages, complete, pageCount } = await readPdfText(new Uint8Array(await file.arrayBuffer()));
    const body = pages.join(PAGE_BREAK);
    if (!body.trim()) throw new Unreadable("no-text");
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO document_text (content_id, body, pages, page_count, extracted_at) SELECT ?1, ?2, ?3, ?4, ?5
         WHERE EXISTS (SELECT 1 FROM content WHERE id = ?1 AND file_key = ?6)
         ON CONFLICT (content_id) DO UPDATE SET body = excluded.body, pages = excluded.pages, page_count = excluded.page_count, extracted_at = excluded.extracted_at`,
      ).bind(id, body, complete, pageCount, now, item.file_key),
      // Only while the file read is still the item's: a newer version's text is read by its own job.
      env.DB.prepare("UPDATE content SET text_state = 'done', text_note = NULL WHERE id = ? AND file_key = ?").bind(id, item.file_key),
    ]);
  } catch (error) {
    const note = error instanceof Unreadable ? error.note : item.text_attempts >= TEXT_EXTRACT_ATTEMPTS ? "failed" : null;
    if (!note) throw error;
    if (note === "failed") {
      // Only a document still waiting: a repeat of a job that already succeeded keeps its text.
      logEvent("error", "document_text.failed", { id, error: describeError(error) });
      await env.DB.prepare("UPDATE content SET text_state = 'none', text_note = 'failed' WHERE id = ? AND text_state = 'pending'")
        .bind(id)
        .run();
      return;
    }
    await env.DB.batch([
      env.DB.prepare("DELETE FROM document_text WHERE content_id = ?").bind(id),
      env.DB.prepare("UPDATE content SET text_state = 'none', text_note = ? WHERE id = ?").bind(note, id),
    ]);
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
        "SELECT c.text_state AS state, c.text_note AS note, d.pages, d.page_count FROM content c LEFT JOIN document_text d ON d.content_id = c.id WHERE c.id = ?",
      ).bind(id),
    ],
    decode: ([found]) => {
      const row = found?.results[0] as (TextState & { state: TextState["state"] | null }) | undefined;
      return row?.state ? { ...row, state: row.state } : null;
    },
  };
}

export const textStateOf = (id: number) => readOne(textStateRead(id));
