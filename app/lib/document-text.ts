// What a document's text extraction tells its owner (docs/decisions/0030-document-text.md).

/** Why a document's text could not be read: shown to its owner, never retried. */
export type TextNote = "no-text" | "encrypted" | "broken" | "too-large" | "failed";

/** What the owner sees of the extraction; null for videos. */
export interface TextState {
  state: "pending" | "done" | "none";
  note: TextNote | null;
  /** Pages whose text is indexed, of page_count (fewer when the text passed the limit). */
  pages: number | null;
  page_count: number | null;
}
