import type { TextNote } from "../../lib/document-text.ts";
import {
  DOCUMENT_TEXT_MAX_CHARS,
  PDF_FILE_MAX_INFLATED_MB,
  PDF_RUN_MAX_BYTES,
  PDF_STREAM_MAX_INFLATED_MB,
  PDF_STREAM_MIN_COUNTED_KB,
} from "../../lib/limits.ts";

// A PDF's text, page by page, with pdf.js built for serverless runtimes (unpdf). Relative imports
// only, so the bench runs this same code in Node to measure it (scripts/bench-pdf-text.mjs).

/** Form feed: the pages' separator in the stored text, so a match's page is the separators before it. */
export const PAGE_BREAK = "\f";

export class Unreadable extends Error {
  readonly note: TextNote;
  constructor(note: TextNote) {
    super(note);
    this.note = note;
  }
}

/**
 * Characters that change how other text looks or hide what it says, as members' own text refuses
 * them (app/lib/schemas/text.ts): control characters but the line break, among them the page break
 * and the two that mark search matches, and the bidirectional overrides and isolates.
 */
const HIDDEN = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A trailer's (or cross-reference stream's) /Encrypt entry: a reference or a dictionary. */
const ENCRYPTED = /\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/;
const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

/** pdf.js's errors that say the file itself is unreadable, whatever the retry. */
function unreadable(error: unknown): Unreadable | null {
  const name = error instanceof Error ? error.name : "";
  if (name === "PasswordException") return new Unreadable("encrypted");
  if (name === "InvalidPDFException" || name === "FormatError" || name === "UnknownErrorException") return new Unreadable("broken");
  return null;
}

/** The longest run of bytes that pdf.js's repair of a broken file would read as one token (see PDF_RUN_MAX_BYTES). */
export function longestTokenRun(bytes: Uint8Array): number {
  let longest = 0;
  let run = 0;
  for (let at = 0; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 10 || byte === 13 || byte === 60) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}

const MB = 1024 * 1024;

const isWhite = (c: string | undefined) => c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\f" || c === "\0";
/** Whether `c` ends a token for pdf.js's lexer: whitespace, a delimiter, or the end of the file. */
const endsToken = (c: string | undefined) => c === undefined || isWhite(c) || "()<>[]{}/%".includes(c);

/** A dictionary's value, as far as the bound reads it. */
type Value = { name: string } | { word: string } | { ref: true } | { array: Value[] } | { other: true };

/**
 * The top-level entries of the dictionary text[start, end) ("<<" to its ">>"), read as pdf.js's
 * lexer reads them (strings, comments, names' #xx escapes), or null when that is not one dictionary.
 */
function dictionary(text: string, start: number, end: number): Map<string, Value> | null {
  let at = start + 2;
  const skip = () => {
    for (;;) {
      while (at < end && isWhite(text[at])) at++;
      if (text[at] !== "%") return;
      while (at < end && text[at] !== "\n" && text[at] !== "\r") at++;
    }
  };
  const word = () => {
    skip();
    const from = at;
    while (at < end && !endsToken(text[at])) at++;
    return text.slice(from, at);
  };
  const name = () => {
    const from = ++at;
    while (at < end && !endsToken(text[at])) at++;
    return text.slice(from, at).replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  };
  const entries = (depth: number): Map<string, Value> | null => {
    const map = new Map<string, Value>();
    for (;;) {
      skip();
      if (at + 2 <= end && text.startsWith(">>", at)) {
        at += 2;
        return map;
      }
      if (at >= end || text[at] !== "/") return null;
      const key = name();
      const item = value(depth);
      if (!item) return null;
      map.set(key, item);
    }
  };
  const value = (depth: number): Value | null => {
    skip();
    const c = text[at];
    if (at >= end || depth > 32) return null;
    if (c === "/") return { name: name() };
    if (text.startsWith("<<", at)) {
      at += 2;
      return entries(depth + 1) && { other: true };
    }
    if (c === "<") {
      at = text.indexOf(">", at) + 1;
      return { other: true };
    }
    if (c === "(") {
      for (let open = 0; at < end; at++) {
        if (text[at] === "\\") at++;
        else if (text[at] === "(") open++;
        else if (text[at] === ")" && --open === 0) {
          at++;
          return { other: true };
        }
      }
      return null;
    }
    if (c === "[") {
      at++;
      const items: Value[] = [];
      for (;;) {
        skip();
        if (text[at] === "]" && at < end) {
          at++;
          return { array: items };
        }
        const item = value(depth + 1);
        if (!item) return null;
        items.push(item);
      }
    }
    if (endsToken(c)) return null;
    const first = word();
    const back = at;
    if (/^\d+$/.test(first) && /^\d+$/.test(word()) && word() === "R") return { ref: true };
    at = back;
    return { word: first };
  };
  const map = start >= 0 && text.startsWith("<<", start) ? entries(0) : null;
  return map && at === end ? map : null;
}

/**
 * Where the dictionary whose ">>" ends at `end` starts, reading text[from, end) forward as pdf.js
 * reads a file (strings, hex strings, comments), `from` being where no string can be open (the end of
 * the last stream's data): -1 if that reading does not end on such a ">>", or passes an `obj` keyword
 * inside a string or comment (pdf.js goes to an object by its offset, so one hidden there is read).
 */
function dictionaryStart(text: string, from: number, end: number, nextObj: (from: number) => number): number {
  const opens: number[] = [];
  for (let at = from; at < end; ) {
    const c = text[at];
    let next = at + 1;
    if (c === "%") while (next < end && text[next] !== "\n" && text[next] !== "\r") next++;
    else if (c === "(") {
      let open = 1;
      for (; next < end && open > 0; next++) {
        if (text[next] === "\\") next++;
        else if (text[next] === "(") open++;
        else if (text[next] === ")") open--;
      }
      if (open > 0) return -1;
    } else if (c === "<" && text[at + 1] === "<") {
      opens.push(at);
      next = at + 2;
    } else if (c === ">" && text[at + 1] === ">") {
      next = at + 2;
      const start = opens.pop() ?? -1;
      if (next === end) return start;
    } else if (c === "<") {
      next = text.indexOf(">", at) + 1;
      if (next === 0 || next > end) return -1;
    }
    if (c === "%" || c === "(" || (c === "<" && text[at + 1] !== "<")) {
      for (let i = nextObj(at); i >= 0 && i + 3 <= next; i = nextObj(i + 1))
        if (endsToken(text[i - 1]) && endsToken(text[i + 3])) return -1;
    }
    at = next;
  }
  return -1;
}

/**
 * What stands before the keyword at `at`, as pdf.js's parser needs a stream's dictionary there: where
 * that dictionary ends (after its ">>"), "comment" when one may stand between them, or null when
 * nothing pdf.js would read as a stream does (the word in a sentence).
 */
function beforeKeyword(text: string, at: number): number | "comment" | null {
  let i = at - 1;
  let lineBreak = false;
  for (; isWhite(text[i]); i--) lineBreak ||= text[i] === "\n" || text[i] === "\r";
  if (text[i] === ">" && text[i - 1] === ">") return i + 1;
  if (lineBreak) for (; i >= 0 && text[i] !== "\n" && text[i] !== "\r"; i--) if (text[i] === "%") return "comment";
  return null;
}

/** Whether endstream follows a stream's data that ends at `at` (after whitespace or comments, as pdf.js checks /Length); null past a kilobyte of them. */
function endstreamAt(text: string, at: number): boolean | null {
  for (const stop = at + 1024; at < stop; at++) {
    if (text[at] === "%") while (at < stop && text[at] !== "\n" && text[at] !== "\r") at++;
    else if (!isWhite(text[at])) return text.startsWith("endstream", at) && endsToken(text[at + 9]);
  }
  return null;
}

/** indexOf for `from`s that never decrease, in linear time over all the calls. */
function finder(text: string, word: string) {
  let found = -2;
  return (from: number) => {
    if (found !== -1 && found < from) found = text.indexOf(word, from);
    return found;
  };
}

/** pdf.js's filters whose output can outgrow their input, Flate aside: what they decode to is not counted here. */
const EXPANDING = new Set([
  ...["LZW", "LZWDecode", "RL", "RunLengthDecode", "CCF", "CCITTFaxDecode", "DCT", "DCTDecode"],
  ...["JPX", "JPXDecode", "JBIG2Decode", "BrotliDecode"],
]);
const FLATE = new Set(["Fl", "FlateDecode"]);

/** A stream's filters as pdf.js reads them (/F before /Filter), or null when a reference stands for one. */
function filters(dict: Map<string, Value>): string[] | null {
  const filter = dict.get("F") ?? dict.get("Filter");
  if (!filter) return [];
  if ("name" in filter) return [filter.name];
  if ("ref" in filter) return null;
  if (!("array" in filter)) return [];
  const names = filter.array.map((item) => ("name" in item ? item.name : null));
  return names.every((n): n is string => n !== null) ? names : null;
}

/** What a zlib stream inflates to; Infinity past `limit`, or when it does not inflate whole (workerd drops what came out before an error). */
async function inflatedSize(data: Uint8Array, limit: number): Promise<number> {
  if (data.length === 0) return 0; // pdf.js reads an empty stream as empty, whatever its filter
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
      if (size > limit) return Infinity;
    }
  } catch {
    return Infinity;
  } finally {
    reader.cancel().catch(() => {});
  }
}

/**
 * Whether pdf.js would decode more than the bounds allow: every stream it may read for text (all but
 * images) measured here first, natively. Every `stream` keyword with a dictionary before it counts (the
 * word in a sentence has none); the file is read forward from one stream's data to the next
 * dictionary, so one standing inside another stream's data, a string or a comment is refused, as
 * pdf.js could be sent there by an object's offset. Its data is pdf.js's: up to its direct /Length
 * when endstream follows there, otherwise up to endstream less one end of line. Flate data counts what
 * it inflates to, and as too much when it does not inflate whole; other data counts its length. What
 * the count cannot account for is too much: a comment where a dictionary should be, a dictionary that
 * does not parse, a filter behind a reference, LZW and the like, or Flate behind another filter.
 */
export async function inflatesTooMuch(bytes: Uint8Array): Promise<boolean> {
  const text = new TextDecoder("latin1").decode(bytes);
  const nextCr = finder(text, "\r");
  const nextLf = finder(text, "\n");
  const nextEndstream = finder(text, "endstream");
  const nextObj = finder(text, "obj");
  let total = 0;
  // Where the last stream's data ends: the next dictionary is read from there.
  let from = 0;
  for (let at = text.indexOf("stream"); at >= 0; at = text.indexOf("stream", at + 6)) {
    const previous = text[at - 1];
    if (!endsToken(text[at + 6]) || !endsToken(previous) || previous === "/" || previous === "%") continue;
    const end = beforeKeyword(text, at);
    if (end === "comment") return true;
    if (end === null) continue;
    const dict = dictionary(text, dictionaryStart(text, from, end, nextObj), end);
    if (!dict) return true;

    // The data starts after the keyword's line, as pdf.js skips to it (CR LF, LF, or a lone CR).
    const [cr, lf] = [nextCr(at + 6), nextLf(at + 6)];
    const eol = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
    const start = eol < 0 ? text.length : eol + (text.startsWith("\r\n", eol) ? 2 : 1);
    const length = dict.get("Length");
    const direct = length && "word" in length && /^\d+$/.test(length.word) ? start + Number(length.word) : -1;
    const fits = direct >= 0 && direct <= text.length ? endstreamAt(text, direct) : false;
    if (fits === null) return true;
    let stop = fits ? direct : nextEndstream(start);
    if (stop < 0) stop = text.length;
    else if (!fits) stop = Math.max(start, stop - (text.startsWith("\r\n", stop - 2) ? 2 : /[\r\n]/.test(text[stop - 1] ?? "") ? 1 : 0));
    from = stop;

    const subtype = dict.get("Subtype");
    if (subtype && "name" in subtype && subtype.name === "Image") continue;
    const names = filters(dict);
    if (!names || names.some((f, i) => EXPANDING.has(f) || (FLATE.has(f) && i > 0))) return true;
    const data = bytes.subarray(start, stop);
    const limit = PDF_STREAM_MAX_INFLATED_MB * MB;
    const decoded = FLATE.has(names[0] ?? "") ? await inflatedSize(data, limit) : data.length;
    const size = Math.max(decoded, PDF_STREAM_MIN_COUNTED_KB * 1024);
    total += size;
    if (size > limit || total > PDF_FILE_MAX_INFLATED_MB * MB) return true;
  }
  return false;
}

/**
 * The text of each page, until DOCUMENT_TEXT_MAX_CHARS (the last page read may be cut); `complete`
 * counts the pages read whole. Throws Unreadable for what no retry will fix.
 */
export async function readPdfText(bytes: Uint8Array): Promise<{ pages: string[]; complete: number; pageCount: number }> {
  // Judged before pdf.js: its repair of such a file would take far more than an isolate's memory.
  if (longestTokenRun(bytes) > PDF_RUN_MAX_BYTES) throw new Unreadable("broken");
  // An encrypted file's streams cannot be counted without decrypting them (even one that opens
  // without a password): it is not read, and says so, rather than being called broken.
  if (ENCRYPTED.test(latin1(bytes))) throw new Unreadable("encrypted");
  // So is more decoded work than reading text needs (a few kilobytes of a file can inflate to megabytes of operators).
  if (await inflatesTooMuch(bytes)) throw new Unreadable("broken");
  const { getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 }).catch((error: unknown) => {
    throw unreadable(error) ?? error;
  });
  try {
    const pages: string[] = [];
    let chars = 0;
    let complete = 0;
    for (let n = 1; n <= pdf.numPages && chars < DOCUMENT_TEXT_MAX_CHARS; n++) {
      const page = await pdf.getPage(n);
      const { items } = await page.getTextContent();
      const text = items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .replace(HIDDEN, " ");
      page.cleanup();
      const room = DOCUMENT_TEXT_MAX_CHARS - chars;
      pages.push(text.slice(0, room));
      if (text.length <= room) complete++;
      chars += text.length + 1;
    }
    return { pages, complete, pageCount: pdf.numPages };
  } catch (error) {
    throw unreadable(error) ?? error;
  } finally {
    await pdf.loadingTask.destroy();
  }
}
