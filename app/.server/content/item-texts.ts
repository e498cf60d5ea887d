import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { enqueue } from "~/.server/jobs/queue";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import type { Language } from "~/lib/i18n";
import { interfaceLanguage } from "~/lib/item-languages";
import { TEXT_SUGGESTION_WAIT_MS, TEXT_SUGGESTIONS_PER_DAY } from "~/lib/limits";

// An item's title and abstract in the interface's languages (decision 0050): the owner's own
// translations beside the original, each labelled with who wrote it.

export interface ItemText {
  lang: Language;
  title: string;
  summary: string;
  source: "author" | "machine";
  /** A machine's text: pending while its job runs, suggested until its owner accepts it (shown) or drops it. */
  state: "pending" | "suggested" | "shown";
  updated_at: number;
}

/** An item's texts in other languages, as one read of a page's round trip. */
export const itemTextsRead = (contentId: number): Read<ItemText[]> => ({
  statements: [
    env.DB.prepare("SELECT lang, title, summary, source, state, updated_at FROM item_texts WHERE content_id = ? ORDER BY lang").bind(
      contentId,
    ),
  ],
  decode: ([listed]) => (listed?.results ?? []) as ItemText[],
});

/**
 * The owner's title and abstract in `lang` (their translation: it replaces a machine's suggestion
 * or their earlier text). Refused in the item's own language, whose text is the original.
 */
export async function saveItemText(
  item: { id: number; owner_id: number; language: string | null },
  lang: Language,
  text: { title: string; summary: string },
  now: number,
) {
  if (interfaceLanguage(item.language) === lang) throw new Refused("content.textIsOriginal", { field: "lang" });
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO item_texts (content_id, lang, title, summary, source, updated_at)
         SELECT id, ?2, ?3, ?4, 'author', ?5 FROM content WHERE id = ?1 AND owner_id = ?6
       ON CONFLICT (content_id, lang) DO UPDATE SET title = excluded.title, summary = excluded.summary, source = 'author', state = 'shown',
         updated_at = excluded.updated_at`,
    ).bind(item.id, lang, text.title, text.summary, now, item.owner_id),
    changed(item.id, now),
  ]);
}

/** Removes the item's text in `lang` (again: nothing more happens). */
export async function removeItemText(item: { id: number }, lang: Language, now: number) {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM item_texts WHERE content_id = ? AND lang = ?").bind(item.id, lang),
    changed(item.id, now),
  ]);
}

/** The item changed with its texts: its open record's cached pages and harvested datestamp move on (decision 0049). */
const changed = (id: number, now: number) =>
  env.DB.prepare("UPDATE content SET updated_at = max(updated_at, ?) WHERE id = ?").bind(now, id);

/** The owner's own translations of items, by item: what harvesters and citations may carry beside the original. */
export async function authorTexts(ids: number[]): Promise<Map<number, ItemText[]>> {
  const { results } = await env.DB.prepare(
    `SELECT content_id, lang, title, summary, source, state, updated_at FROM item_texts
       WHERE source = 'author' AND content_id IN (SELECT value FROM json_each(?)) ORDER BY content_id, lang`,
  )
    .bind(JSON.stringify(ids))
    .all<ItemText & { content_id: number }>();
  const byItem = new Map<number, ItemText[]>();
  for (const { content_id, ...text } of results) byItem.set(content_id, [...(byItem.get(content_id) ?? []), text]);
  return byItem;
}

/** What a reader of `reader`'s language is shown: their language's text when there is one, else the original. */
export function shownText(
  item: { title: string; summary: string; language: string | null },
  texts: readonly ItemText[],
  reader: Language,
): { title: string; summary: string; lang: string | null; source: "original" | ItemText["source"] } {
  const own =
    interfaceLanguage(item.language) === reader ? undefined : texts.find((text) => text.lang === reader && text.state === "shown");
  return own
    ? { title: own.title, summary: own.summary, lang: own.lang, source: own.source }
    : { title: item.title, summary: item.summary, lang: item.language, source: "original" };
}

/**
 * The owner asks a machine for the title and abstract in `lang` (where the operator configured a
 * model): held against their daily budget, then a pending suggestion and its job. Refused in the
 * item's own language and where the owner wrote that language's text themselves.
 */
export async function requestSuggestion(item: { id: number; owner_id: number; language: string | null }, lang: Language, now: number) {
  if (!config().translation) throw new Refused("content.suggestionsOff", { status: 404 });
  if (interfaceLanguage(item.language) === lang) throw new Refused("content.textIsOriginal", { field: "lang" });
  const own = await env.DB.prepare("SELECT 1 FROM item_texts WHERE content_id = ? AND lang = ? AND source = 'author'")
    .bind(item.id, lang)
    .first();
  if (own) throw new Refused("content.textIsYours", { field: "lang" });
  const day = new Date(now).toISOString().slice(0, 10);
  const held = await env.DB.prepare(
    `INSERT INTO text_suggestion_days (owner_id, day, n) VALUES (?1, ?2, 1)
     ON CONFLICT (owner_id, day) DO UPDATE SET n = n + 1 WHERE n < ?3 RETURNING n`,
  )
    .bind(item.owner_id, day, TEXT_SUGGESTIONS_PER_DAY)
    .first();
  if (!held) throw new Refused(`content.suggestionsExhausted|max=${TEXT_SUGGESTIONS_PER_DAY}`, { status: 429 });
  // Never over the owner's own text, should they save it meanwhile.
  await env.DB.prepare(
    `INSERT INTO item_texts (content_id, lang, title, summary, source, state, updated_at) VALUES (?1, ?2, '', '', 'machine', 'pending', ?3)
     ON CONFLICT (content_id, lang) DO UPDATE SET title = '', summary = '', state = 'pending', updated_at = excluded.updated_at WHERE source = 'machine'`,
  )
    .bind(item.id, lang, now)
    .run();
  await enqueue([{ type: "translate-text", id: item.id, lang }]);
}

/** The owner accepts a machine's suggestion as it is: readers see it, labelled a machine translation. */
export async function acceptSuggestion(item: { id: number }, lang: Language, now: number) {
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE item_texts SET state = 'shown', updated_at = ? WHERE content_id = ? AND lang = ? AND source = 'machine' AND state = 'suggested'",
    ).bind(now, item.id, lang),
    changed(item.id, now),
  ]);
}

/** Whether a suggestion asked for has waited so long that its job has surely failed: its owner may ask again. */
export const suggestionFailed = (text: Pick<ItemText, "state" | "updated_at">, now: number) =>
  text.state === "pending" && now - text.updated_at > TEXT_SUGGESTION_WAIT_MS;

/** A text of `c` its readers are shown (`t`): accepted, and not in the item's own language, whose text is the original (as shownText). */
const SHOWN_TEXT =
  "t.content_id = c.id AND t.state = 'shown' AND NOT (coalesce(c.language, '') = t.lang OR coalesce(c.language, '') LIKE t.lang || '-%')";

/**
 * SQL for an item's title or abstract (the content row `c`) as a reader is shown it: their language's
 * text where its owner gave or accepted one, else the original. `reader` is SQL: a language from the
 * closed set (written in as a literal), or an expression that yields one (a member's saved language).
 */
export const shownColumn = (column: "title" | "summary", reader: Language | { sql: string }) =>
  `coalesce((SELECT t.${column} FROM item_texts t WHERE ${SHOWN_TEXT} AND t.lang = ${typeof reader === "string" ? `'${reader}'` : reader.sql}), c.${column})`;

/** The columns of an item's card (FeedItem but its owner's name), in the reader's language, or the originals without one. */
export const cardColumns = (reader: Language | null) =>
  reader
    ? `c.id, c.kind, c.sdg, ${shownColumn("title", reader)} AS title, ${shownColumn("summary", reader)} AS summary,
       c.views, c.likes, c.created_at, c.owner_id, c.license,
       EXISTS (SELECT 1 FROM item_texts t WHERE ${SHOWN_TEXT} AND t.lang = '${reader}' AND t.source = 'machine') AS machine_text`
    : "c.id, c.kind, c.sdg, c.title, c.summary, c.views, c.likes, c.created_at, c.owner_id, c.license";
