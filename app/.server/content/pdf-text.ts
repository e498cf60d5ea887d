import type { TextNote } from "../../lib/document-text.ts";
import { DOCUMENT_TEXT_MAX_CHARS, PDF_RUN_MAX_BYTES } from "../../lib/limits.ts";
import { inflatesTooMuch, latin1 } from "./pdf-bound.ts";

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
