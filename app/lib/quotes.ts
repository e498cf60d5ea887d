import { QUOTE_CONTEXT } from "./limits";

// A quote on a page of a document (docs/decisions/0051): found in the page's text as pdf.js reads
// it, by the server (the comment form) and by the viewer (its highlight), with this one code.
// Whitespace is not compared: a quote typed across a line break, or Japanese text the PDF breaks
// mid-sentence, is the same words.

export interface TextQuote {
  exact: string;
  prefix: string;
  suffix: string;
}

const SPACE = /\s/u;

/** The text without its whitespace, and for each kept UTF-16 unit where it stands in the text. */
function squeeze(text: string): { chars: string; at: number[] } {
  let chars = "";
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const unit = text[i] ?? "";
    if (SPACE.test(unit)) continue;
    chars += unit;
    at.push(i);
  }
  return { chars, at };
}

/** Characters of scripts written without spaces, between which a line break is no space. */
const UNSPACED = "\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\u3000-\\u303f\\uff00-\\uffef";
const BREAK_IN_WORDS = new RegExp(`(?<=[${UNSPACED}])\\s+(?=[${UNSPACED}])`, "gu");

/** Runs of whitespace as one space (none between Japanese or Chinese characters), none at the ends: how a quote is stored and shown. */
export const collapsed = (text: string) => text.replace(BREAK_IN_WORDS, "").replace(/\s+/gu, " ").trim();

/** How many characters of `context` the text holds just before `at` (`before`), or from `at` on. */
function agreeing(text: string, at: number, context: string, before: boolean) {
  let n = 0;
  if (before) while (n < context.length && text[at - 1 - n] === context[context.length - 1 - n]) n++;
  else while (n < context.length && text[at + n] === context[n]) n++;
  return n;
}

/**
 * Where the quote stands in the page's text ([start, end) in UTF-16 units), or null when the page
 * does not hold it. Of several places, the one whose surroundings best match `prefix` and `suffix`
 * (the first of equals).
 */
export function findQuote(page: string, exact: string, prefix = "", suffix = ""): { start: number; end: number } | null {
  const quote = squeeze(exact).chars;
  if (!quote) return null;
  const { chars, at } = squeeze(page);
  const before = squeeze(prefix).chars;
  const after = squeeze(suffix).chars;
  let best: { start: number; end: number; score: number } | null = null;
  for (let i = chars.indexOf(quote); i >= 0; i = chars.indexOf(quote, i + 1)) {
    const score = agreeing(chars, i, before, true) + agreeing(chars, i + quote.length, after, false);
    if (!best || score > best.score) best = { start: at[i] ?? 0, end: (at[i + quote.length - 1] ?? 0) + 1, score };
    if (!before && !after) break;
  }
  return best && { start: best.start, end: best.end };
}

/** The quote at [start, end) of the page with QUOTE_CONTEXT characters on each side, as stored. */
export function quoteAt(page: string, start: number, end: number): TextQuote {
  const prefix = Array.from(collapsed(`${page.slice(Math.max(0, start - 4 * QUOTE_CONTEXT), start)}.`).slice(0, -1));
  const suffix = Array.from(collapsed(`.${page.slice(end, end + 4 * QUOTE_CONTEXT)}`).slice(1));
  return {
    exact: collapsed(page.slice(start, end)),
    prefix: prefix.slice(-QUOTE_CONTEXT).join(""),
    suffix: suffix.slice(0, QUOTE_CONTEXT).join(""),
  };
}
