import { MARK_END, MARK_START } from "~/lib/highlight";

// Search matches marked in the text shown (the page turns the marks into <mark>): each word found,
// whatever its case, as the trigram index finds it.

/** Characters of context a snippet shows around its first match. */
const SNIPPET_CHARS = 64;

const pattern = (terms: string[]) =>
  new RegExp(
    [...terms]
      .sort((a, b) => b.length - a.length)
      .map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("|"),
    "giu",
  );

/** The text with every occurrence of the words marked. */
export function markTerms(text: string, terms: string[]): string {
  if (!terms.length) return text;
  return text.replace(pattern(terms), (found) => `${MARK_START}${found}${MARK_END}`);
}

/**
 * About SNIPPET_CHARS characters of the first field where a word is found, around that match,
 * with "…" where text was cut; the first field's start when no word is found in any.
 */
export function snippetOf(fields: string[], terms: string[]): string {
  const search = pattern(terms);
  for (const field of fields) {
    search.lastIndex = 0;
    const found = search.exec(field);
    if (!found) continue;
    const start = whole(field, Math.max(0, found.index - SNIPPET_CHARS / 4));
    const end = whole(field, Math.min(field.length, start + SNIPPET_CHARS));
    const cut = markTerms(field.slice(start, end), terms);
    return `${start > 0 ? "…" : ""}${cut}${end < field.length ? "…" : ""}`;
  }
  const first = fields[0] ?? "";
  const end = whole(first, Math.min(first.length, SNIPPET_CHARS));
  return end < first.length ? `${first.slice(0, end)}…` : first;
}

/** A cut position moved off the middle of a surrogate pair, so no half character is shown. */
function whole(text: string, at: number) {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}
