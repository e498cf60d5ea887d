// Search matches come back wrapped in these control characters (never HTML), and the page turns
// them into <mark> elements, so member text is always escaped by React.
export const MARK_START = "\u0001";
export const MARK_END = "\u0002";

export function highlightParts(text: string): Array<{ text: string; marked: boolean }> {
  const parts: Array<{ text: string; marked: boolean }> = [];
  for (const [i, piece] of text.split(MARK_START).entries()) {
    if (i === 0) {
      if (piece) parts.push({ text: piece, marked: false });
      continue;
    }
    const [marked = "", rest = ""] = piece.split(MARK_END);
    if (marked) parts.push({ text: marked, marked: true });
    if (rest) parts.push({ text: rest, marked: false });
  }
  return parts;
}

/** The text without its marks. */
export const unmarked = (text: string) => text.replace(/[\u0001\u0002]/g, "");
