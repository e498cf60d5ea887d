import { env } from "~/.server/bindings";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import type { Language } from "~/lib/i18n";
import { interfaceLanguage } from "~/lib/item-languages";

// An item's title and abstract in the interface's languages (decision 0050): the owner's own
// translations beside the original, each labelled with who wrote it.

export interface ItemText {
  lang: Language;
  title: string;
  summary: string;
  source: "author" | "machine";
  updated_at: number;
}

/** An item's texts in other languages, as one read of a page's round trip. */
export const itemTextsRead = (contentId: number): Read<ItemText[]> => ({
  statements: [
    env.DB.prepare("SELECT lang, title, summary, source, updated_at FROM item_texts WHERE content_id = ? ORDER BY lang").bind(contentId),
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
       ON CONFLICT (content_id, lang) DO UPDATE SET title = excluded.title, summary = excluded.summary, source = 'author', updated_at = excluded.updated_at`,
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
    `SELECT content_id, lang, title, summary, source, updated_at FROM item_texts
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
  const own = interfaceLanguage(item.language) === reader ? undefined : texts.find((text) => text.lang === reader);
  return own
    ? { title: own.title, summary: own.summary, lang: own.lang, source: own.source }
    : { title: item.title, summary: item.summary, lang: item.language, source: "original" };
}
