import type { TextNote } from "../../lib/document-text.ts";
import { DOCUMENT_TEXT_MAX_CHARS } from "../../lib/limits.ts";

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

/** The text of each page, until DOCUMENT_TEXT_MAX_CHARS; throws Unreadable for what no retry will fix. */
export async function readPdfText(bytes: Uint8Array): Promise<{ pages: string[]; pageCount: number }> {
  const { getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 }).catch((error: unknown) => {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") throw new Unreadable("encrypted");
    if (name === "InvalidPDFException" || name === "FormatError" || name === "UnknownErrorException") throw new Unreadable("broken");
    throw error;
  });
  try {
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages && chars < DOCUMENT_TEXT_MAX_CHARS; n++) {
      const page = await pdf.getPage(n);
      const { items } = await page.getTextContent();
      const text = items
        .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
        .join("")
        .replaceAll(PAGE_BREAK, " ")
        .slice(0, DOCUMENT_TEXT_MAX_CHARS - chars);
      page.cleanup();
      pages.push(text);
      chars += text.length + 1;
    }
    return { pages, pageCount: pdf.numPages };
  } finally {
    await pdf.loadingTask.destroy();
  }
}
