// Types for what the TypeScript tests take from make-pdf.mjs.

/** A PDF with one page per entry (its lines of text), or an image-only page where an entry is null. */
export function makePdf(
  pages: (string[] | null)[],
  options?: {
    padding?: number;
    encrypted?: boolean;
    deflate?: (bytes: Uint8Array) => Uint8Array;
    image?: { width: number; height: number; flate: Uint8Array };
  },
): Uint8Array;
