import {
  PDF_FILE_MAX_INFLATED_MB,
  PDF_REFERENCE_MIN_CHARS,
  PDF_REFERENCES_MAX_KB,
  PDF_STREAM_MAX_INFLATED_MB,
  PDF_STREAM_MIN_COUNTED_KB,
} from "../../lib/limits.ts";

// What pdf.js may decode of a PDF for its text, measured before it runs (docs/decisions/0030, the
// bounded inflation): a few kilobytes of a file can inflate to megabytes of operators. Relative
// imports only, as pdf-text.ts (the bench runs both in Node).

export const latin1 = (bytes: Uint8Array) => new TextDecoder("latin1").decode(bytes);

const MB = 1024 * 1024;

const isWhite = (c: string | undefined) => c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\f" || c === "\0";
/** Whether `c` ends a token for pdf.js's lexer: whitespace, a delimiter, or the end of the file. */
const endsToken = (c: string | undefined) => c === undefined || isWhite(c) || "()<>[]{}/%".includes(c);

/** A name's characters, its #xx escapes decoded as pdf.js decodes them. */
const decodeName = (name: string) =>
  name.includes("#") ? name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))) : name;

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
    return decodeName(text.slice(from, at));
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
        if ((endsToken(text[i - 1]) || /[\d.-]/.test(text[i - 1] ?? "")) && endsToken(text[i + 3])) return -1; // "2 0obj" too
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

/** What a zlib stream inflates to; null past `limit`, or when it does not inflate whole (workerd drops what came out before an error). */
async function inflate(data: Uint8Array, limit: number): Promise<Uint8Array | null> {
  if (data.length === 0) return data; // pdf.js reads an empty stream as empty, whatever its filter
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate")).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) return null;
      chunks.push(value);
    }
  } catch {
    return null;
  } finally {
    reader.cancel().catch(() => {});
  }
  return new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
}

/** A value written as a plain integer, as writers write /Length, /N and /First. */
const integer = (value: Value | undefined) => (value && "word" in value && /^\d+$/.test(value.word) ? Number(value.word) : null);

/**
 * A file's stream marked as an image, counted only where pdf.js may read it for text all the same
 * (readForText): where its dictionary and data stand, and its object number when it has a plain one.
 * Positions only, as a file may hold half a million of them.
 */
type Image = { at: number; end: number; start: number; stop: number; number: number | null };
/** An object stream's decoded objects, with its /N and /First when written as plain integers. */
type ObjectStream = { text: string; n: number | null; first: number | null };
type Count = { total: number; images: Image[]; objectStreams: ObjectStream[] };

/** What a stream's data decodes to as far as the count can tell (Flate inflated, other filters' data as it is), or null when that is too much or cannot be told. */
async function decoded(dict: Map<string, Value>, data: Uint8Array): Promise<Uint8Array | null> {
  const names = filters(dict);
  if (!names || names.some((f, i) => EXPANDING.has(f) || (FLATE.has(f) && i > 0))) return null;
  return FLATE.has(names[0] ?? "") ? inflate(data, PDF_STREAM_MAX_INFLATED_MB * MB) : data;
}

/** Counts a stream that decodes to `size` bytes; true when that passes a bound. */
function counted(count: Count, size: number): boolean {
  const counts = Math.max(size, PDF_STREAM_MIN_COUNTED_KB * 1024);
  count.total += counts;
  return counts > PDF_STREAM_MAX_INFLATED_MB * MB || count.total > PDF_FILE_MAX_INFLATED_MB * MB;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
/** Whitespace that does not end a line: a comment cannot end between words so separated. */
const inLine = (c: string | undefined) => c === " " || c === "\t" || c === "\f" || c === "\0";
/** What pdf.js reads a number from (a digit, a sign, a point): a word holding one may hold a number. */
const NUMBER_CHAR = /[\d+.-]/;

/** What looking for an `N G obj` before an `obj` counts toward PDF_REFERENCES_MAX_KB: about its length. */
const HEADER_CHARS = 8;

/**
 * The object number pdf.js reads in the `N G obj` whose keyword is at text[at]; "unclear" when pdf.js
 * may read one this does not (a line break inside, which may end a comment, 5.0, +5, 0obj), null
 * when no number can stand there ("endobj", "the obj").
 */
function header(text: string, at: number): number | "unclear" | null {
  const before = text[at - 1];
  if (!endsToken(text[at + 3]) || !(isWhite(before) || before === "." || before === "-" || isDigit(before))) return null;
  let i = at;
  let number = 0;
  // Back over the generation, then the number: each digits after a space of the line.
  for (const part of ["generation", "number"]) {
    const end = i;
    while (inLine(text[i - 1])) i--;
    if (i === end) return "unclear";
    const digitsEnd = i;
    while (isDigit(text[i - 1])) i--;
    if (i === digitsEnd || !endsToken(text[i - 1])) {
      while (!endsToken(text[i - 1])) i--;
      const word = text.slice(i, digitsEnd);
      return !word || NUMBER_CHAR.test(word) ? "unclear" : null;
    }
    if (part === "number") number = Number(text.slice(i, digitsEnd));
  }
  return Number.isSafeInteger(number) ? number : "unclear";
}

/** The number of the object whose dictionary starts at text[at], from the `N G obj` just before it; null when it is not written plainly there. */
function objectNumber(text: string, at: number): number | null {
  let end = at;
  while (isWhite(text[end - 1])) end--;
  const number = end >= 3 && text.startsWith("obj", end - 3) ? header(text, end - 3) : null;
  return typeof number === "number" ? number : null;
}

/** pdf.js's tokens from text[at], each as written but a string, a hex string or a name, which stand as their first character. */
function tokenizer(text: string, at: number) {
  const next = (): string | null => {
    for (;;) {
      while (isWhite(text[at])) at++;
      if (text[at] !== "%") break;
      while (at < text.length && text[at] !== "\n" && text[at] !== "\r") at++;
    }
    const c = text[at];
    if (c === undefined) return null;
    const from = at++;
    if (c === "(") {
      for (let open = 1; open > 0 && at < text.length; at++) {
        if (text[at] === "\\") at++;
        else if (text[at] === "(") open++;
        else if (text[at] === ")") open--;
      }
      return c;
    }
    if ((c === "<" || c === ">") && text[at] === c) return text.slice(from, ++at);
    if (c === "<") {
      at = text.indexOf(">", at) + 1 || text.length;
      return c;
    }
    if (c !== "/" && endsToken(c)) return c;
    while (!endsToken(text[at])) at++;
    return c === "/" ? c : text.slice(from, at);
  };
  return { next, end: () => at };
}

/**
 * The object numbers pdf.js may read as streams from the object at text[at]: the one it refers to, or
 * those referred to at the top level of the array or dictionary it is (a page's /Contents, a Type3
 * font's /CharProcs). Null when a number there may be read otherwise: pdf.js takes 5.0, +5 or the 0
 * of 0R for integers, or when the reading goes on past `stop`. `end` is where it stopped.
 */
function referencesAt(text: string, at: number, stop: number): { numbers: number[]; end: number } | null {
  const tokens = tokenizer(text, at);
  let token = tokens.next();
  const close = token === "[" ? "]" : token === "<<" ? ">>" : null;
  if (close) token = tokens.next();
  const numbers: number[] = [];
  const open: string[] = [];
  // The last two integers read at the top level: a reference is they and R.
  let a: string | null = null;
  let b: string | null = null;
  // A value that is neither an array nor a dictionary is one reference at most: three tokens.
  for (let read = 1; token !== null; token = close || read++ < 3 ? tokens.next() : null) {
    if (tokens.end() > stop) return null;
    if (open.length === 0) {
      if (token === close) break;
      if (/^\d+$/.test(token)) {
        a = b;
        b = token;
        continue;
      }
      if (NUMBER_CHAR.test(token)) return null;
      if (token === "R" && a) numbers.push(Number(a));
      else if (!close) break;
    }
    if (token === "[" || token === "<<") open.push(token === "[" ? "]" : ">>");
    else if (token === open.at(-1)) open.pop();
    a = b = null;
  }
  return { numbers, end: tokens.end() };
}

/** Keys whose stream pdf.js reads for text whatever its /Subtype: page contents, font programs, CMaps, Type3 glyphs. */
const READ_KEYS = ["Contents", "CharProcs", "FontFile", "FontFile2", "FontFile3", "ToUnicode", "Encoding", "UseCMap", "CIDToGIDMap"];
/** Those whose array or dictionary, when given by reference, names the streams one level down. */
const CONTAINERS = new Set(["Contents", "CharProcs"]);
/** A character as pdf.js reads it in a name: itself, or its #xx escape in either case. */
const nameChar = (c: string) =>
  `(?:${c}|#${c
    .charCodeAt(0)
    .toString(16)
    .replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`)})`;
/** A name pdf.js reads as one of READ_KEYS (and nothing longer). */
const READ_KEY = new RegExp(
  `/(${READ_KEYS.map((key) => Array.from(key, nameChar).join("")).join("|")})(?![^\\0\\t\\n\\f\\r ()<>[\\]{}/%])`,
  "g",
);

/**
 * The object numbers pdf.js may read as streams for text whatever their /Subtype: those READ_KEYS
 * name in the file or in an object stream, and those one level down where /Contents or /CharProcs
 * refers to an array or dictionary, found by every `N G obj` so numbered (or any pdf.js may read
 * otherwise) and by the object streams' lists. Null when a reference may be misread: then every image
 * counts, as it does past PDF_REFERENCES_MAX_KB of reading.
 */
function readForText(file: string, objectStreams: ObjectStream[]): Set<number> | null {
  const read = new Set<number>();
  const containers = new Set<number>();
  let budget = PDF_REFERENCES_MAX_KB * 1024;
  const take = (text: string, at: number, into: Set<number>[]) => {
    const found = referencesAt(text, at, at + budget);
    budget -= found ? Math.max(found.end - at, PDF_REFERENCE_MIN_CHARS) : Infinity;
    if (!found || budget < 0) return false;
    for (const number of found.numbers) for (const set of into) set.add(number);
    return true;
  };
  for (const text of [file, ...objectStreams.map((s) => s.text)]) {
    for (const match of text.matchAll(READ_KEY)) {
      const into = CONTAINERS.has(decodeName(match[1] ?? "")) ? [read, containers] : [read];
      if (!take(text, match.index + match[0].length, into)) return null;
    }
  }
  if (containers.size === 0) return read;
  for (let at = file.indexOf("obj"); at >= 0; at = file.indexOf("obj", at + 3)) {
    budget -= HEADER_CHARS;
    const number = header(file, at);
    if (budget < 0 || ((number === "unclear" || (number !== null && containers.has(number))) && !take(file, at + 3, [read]))) return null;
  }
  for (const { text, n, first } of objectStreams) {
    if (n === null || first === null) return null;
    const list = tokenizer(text, 0);
    for (let i = 0; i < n; i++) {
      const [number, offset] = [list.next(), list.next()];
      if (list.end() > budget) return null;
      if (number === null || offset === null) break;
      if (!/^\d+$/.test(number) || !/^\d+$/.test(offset)) return null;
      if (containers.has(Number(number)) && !take(text, first + Number(offset), [read])) return null;
    }
    budget -= list.end();
  }
  return read;
}

/**
 * Counts the streams of `bytes` (a file, or an object stream's objects) as inflatesTooMuch says; true
 * when they are too much. Images are put aside with their object numbers (which only a file's
 * `N G obj` gives); an object stream's objects are kept and counted in turn.
 */
async function countStreams(bytes: Uint8Array, text: string, count: Count, inFile: boolean): Promise<boolean> {
  const nextCr = finder(text, "\r");
  const nextLf = finder(text, "\n");
  const nextEndstream = finder(text, "endstream");
  const nextObj = finder(text, "obj");
  // Where the last stream's data ends: the next dictionary is read from there.
  let from = 0;
  for (let at = text.indexOf("stream"); at >= 0; at = text.indexOf("stream", at + 6)) {
    const previous = text[at - 1];
    if (!endsToken(text[at + 6]) || !endsToken(previous) || previous === "/" || previous === "%") continue;
    const end = beforeKeyword(text, at);
    if (end === "comment") return true;
    if (end === null) continue;
    const dictStart = dictionaryStart(text, from, end, nextObj);
    const dict = dictionary(text, dictStart, end);
    if (!dict) return true;

    // The data starts after the keyword's line, as pdf.js skips to it (CR LF, LF, or a lone CR).
    const [cr, lf] = [nextCr(at + 6), nextLf(at + 6)];
    const eol = cr < 0 ? lf : lf < 0 ? cr : Math.min(cr, lf);
    const start = eol < 0 ? text.length : eol + (text.startsWith("\r\n", eol) ? 2 : 1);
    const length = integer(dict.get("Length"));
    const direct = length === null ? -1 : start + length;
    const fits = direct >= 0 && direct <= text.length ? endstreamAt(text, direct) : false;
    if (fits === null) return true;
    let stop = fits ? direct : nextEndstream(start);
    if (stop < 0) stop = text.length;
    else if (!fits) stop = Math.max(start, stop - (text.startsWith("\r\n", stop - 2) ? 2 : /[\r\n]/.test(text[stop - 1] ?? "") ? 1 : 0));
    from = stop;

    const subtype = dict.get("Subtype");
    const objectStream = dict.has("N") && dict.has("First");
    // pdf.js reads an object stream's or a cross-reference stream's data whatever its /Subtype says;
    // an image in an object stream has no number of its own to tell whether it is read for text.
    if (inFile && subtype && "name" in subtype && subtype.name === "Image" && !objectStream && !dict.has("W")) {
      count.images.push({ at: dictStart, end, start, stop, number: objectNumber(text, dictStart) });
      continue;
    }
    const out = await decoded(dict, bytes.subarray(start, stop));
    if (!out || counted(count, out.length)) return true;
    if (objectStream) {
      // Its objects are read here only when its data is theirs as it stands or inflated.
      if (filters(dict)?.some((f) => !FLATE.has(f)) || dict.has("DecodeParms") || dict.has("DP")) return true;
      const objects = latin1(out);
      count.objectStreams.push({ text: objects, n: integer(dict.get("N")), first: integer(dict.get("First")) });
      if (await countStreams(out, objects, count, false)) return true;
    }
  }
  return false;
}

/**
 * Whether pdf.js would decode more than the bounds allow: every stream it may read for text measured
 * here first, natively. Every `stream` keyword with a dictionary before it counts (the word in a
 * sentence has none); the file is read forward from one stream's data to the next dictionary, so one
 * standing inside another stream's data, a string or a comment is refused, as pdf.js could be sent
 * there by an object's offset. Its data is pdf.js's: up to its direct /Length when endstream follows
 * there, otherwise up to endstream less one end of line. Flate data counts what it inflates to, and as
 * too much when it does not inflate whole; other data counts its length. What the count cannot
 * account for is too much: a comment where a dictionary should be, a dictionary that does not parse,
 * a filter behind a reference, LZW and the like, Flate behind another filter, or an object stream
 * whose objects cannot be read here. An object stream's objects are read as a file's are, so the
 * streams it holds count too. A stream marked as an image counts only where pdf.js may read it for
 * text all the same (readForText): an image only drawn is never decoded for text.
 */
export async function inflatesTooMuch(bytes: Uint8Array): Promise<boolean> {
  const text = latin1(bytes);
  const count: Count = { total: 0, images: [], objectStreams: [] };
  if (await countStreams(bytes, text, count, true)) return true;
  const read = count.images.length > 0 ? readForText(text, count.objectStreams) : null;
  for (const { at, end, start, stop, number } of count.images) {
    if (read && number !== null && !read.has(number)) continue;
    const dict = dictionary(text, at, end);
    const out = dict && (await decoded(dict, bytes.subarray(start, stop)));
    if (!out || counted(count, out.length)) return true;
  }
  return false;
}
