import { env } from "~/.server/bindings";
import { PAGE_BREAK } from "~/.server/content/pdf-text";
import { textShard } from "~/.server/databases";
import { enqueue } from "~/.server/jobs/queue";
import { Refused } from "~/.server/refused";
import { REANCHOR_BATCH } from "~/lib/limits";
import { findQuote, quoteAt, type TextQuote } from "~/lib/quotes";

// Where a comment points (docs/decisions/0051): a quote on a page of a document, found by the
// server in the text it read from the PDF (so a form without script is checked like the viewer's
// selection), or a moment of a video. A new version keeps the quotes its text still holds.

export type Anchor = ({ page: number } & TextQuote) | { start: number; end: number | null };

/** What the comment's fields ask for: a page and its words, or a moment (seconds). */
export interface PassageAsked {
  page?: number;
  quote?: string;
  prefix?: string;
  suffix?: string;
  at?: number;
  until?: number;
}

interface Anchorable {
  id: number;
  kind: string;
  version: number;
}

/** The pages of the item's current text, when it has been read from its current file. */
async function pagesOf(id: number): Promise<string[] | null> {
  const item = await env.DB.prepare("SELECT file_key, text_shard FROM content WHERE id = ? AND text_state = 'done'")
    .bind(id)
    .first<{ file_key: string; text_shard: number }>();
  if (!item) return null;
  const text = await textShard(item.text_shard)
    .prepare("SELECT body FROM document_text WHERE content_id = ? AND file_key = ?")
    .bind(id, item.file_key)
    .first<{ body: string }>();
  return text ? text.body.split(PAGE_BREAK) : null;
}

/** The anchor asked for on the item, or null for a comment on the whole item; refused, with the field, when it cannot be. */
export async function anchorFor(item: Anchorable, asked: PassageAsked): Promise<Anchor | null> {
  const { page, quote, at, until } = asked;
  if (item.kind === "video") {
    if (at === undefined) {
      if (until !== undefined) throw new Refused("validation.momentStart", { field: "at" });
      return null;
    }
    if (until !== undefined && until <= at) throw new Refused("validation.momentOrder", { field: "until" });
    return { start: at, end: until ?? null };
  }
  if (page === undefined && quote === undefined) return null;
  if (quote === undefined) throw new Refused("validation.quoteMissing", { field: "quote" });
  if (page === undefined) throw new Refused("validation.pageMissing", { field: "page" });
  const pages = await pagesOf(item.id);
  if (!pages) throw new Refused("validation.quoteNoText", { field: "quote" });
  const text = pages[page - 1];
  if (text === undefined) throw new Refused(`validation.pageOutside|pages=${pages.length}`, { field: "page" });
  const found = findQuote(text, quote, asked.prefix, asked.suffix);
  if (!found) throw new Refused(`validation.quoteNotFound|page=${page}`, { field: "quote" });
  return { page, ...quoteAt(text, found.start, found.end) };
}

/** A stored anchor, read. */
export const anchorOf = (stored: string | null): Anchor | null => (stored ? (JSON.parse(stored) as Anchor) : null);

/**
 * After a new version's text is stored: its anchored comments from earlier versions, a batch at a
 * time, are searched for in it. A quote still there moves to its page in this version; one that is
 * not stays on its version ("on an earlier version"). Each comment is checked once per version, so
 * a repeated job changes nothing; a full batch queues the next. Answers how many this run checked.
 */
export async function reanchor(id: number): Promise<number> {
  const db = env.DB;
  const item = await db.prepare("SELECT version FROM content WHERE id = ?").bind(id).first<{ version: number }>();
  const pages = item && (await pagesOf(id));
  if (!item || !pages) return 0;
  const { results } = await db
    .prepare(
      `SELECT id, anchor FROM comments WHERE content_id = ?1 AND anchor IS NOT NULL AND anchor_checked < ?2
       ORDER BY anchor_checked, id LIMIT ?3`,
    )
    .bind(id, item.version, REANCHOR_BATCH)
    .all<{ id: number; anchor: string }>();
  const moves = results.map(({ id: commentId, anchor }) => {
    const moved = anchorOf(anchor);
    const kept = moved && "exact" in moved ? keptQuote(pages, moved) : null;
    // Only from what was read, so a job overtaken by a newer version's changes nothing.
    return db
      .prepare(
        `UPDATE comments SET anchor_checked = ?2, anchor = coalesce(?3, anchor), anchor_version = CASE WHEN ?3 IS NULL THEN anchor_version ELSE ?2 END
         WHERE id = ?1 AND anchor_checked < ?2 AND ?2 = (SELECT version FROM content WHERE id = comments.content_id)`,
      )
      .bind(commentId, item.version, kept ? JSON.stringify(kept) : null);
  });
  if (moves.length) await db.batch(moves);
  if (results.length === REANCHOR_BATCH) await enqueue([{ type: "reanchor", id }]);
  return results.length;
}

/** The quote in the new text: on its page if it is still there, else on the first page that holds it. */
function keptQuote(pages: string[], quote: { page: number } & TextQuote): Anchor | null {
  const order = [quote.page - 1, ...pages.keys()].filter((n, i, all) => n < pages.length && all.indexOf(n) === i);
  for (const n of order) {
    const text = pages[n] ?? "";
    const found = findQuote(text, quote.exact, quote.prefix, quote.suffix);
    if (found) return { page: n + 1, ...quoteAt(text, found.start, found.end) };
  }
  return null;
}
