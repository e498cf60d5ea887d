// Persistent identifiers members type or paste: a work's DOI and a person's ORCID iD.

/** A UTF-16 surrogate without its pair (with the u flag a pair is one code point, never Cs). */
const LONE_SURROGATE = /\p{Cs}/u;
/** A path segment URLs treat as "this folder" or "the one above" (WHATWG URL's single- and double-dot segments). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * A DOI as typed or pasted (bare, "doi:10.…", or a doi.org link), as its bare form in lower case
 * (DOIs are case-insensitive); null when it is not one: "10.", a registrant code of 4–9 digits
 * (dot-separated parts allowed), "/", and a suffix without spaces. A suffix with a part a URL would
 * resolve away ("." or "..", also as %2e) is refused, since its link would lead elsewhere on the
 * resolver's host; so is text with a lone UTF-16 surrogate, which no link can carry.
 */
export function normalizeDoi(input: string): string | null {
  const bare = input
    .trim()
    .replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, "")
    .trim();
  if (!/^10\.\d{4,9}(?:\.\d+)*\/\S+$/.test(bare) || LONE_SURROGATE.test(bare)) return null;
  const suffix = bare.slice(bare.indexOf("/") + 1);
  return suffix.split("/").some((part) => DOT_SEGMENT.test(part)) ? null : bare.toLowerCase();
}

/** A DOI's resolver link; each part is escaped, since a suffix may hold "#" or "?". */
export const doiUrl = (doi: string) => `https://doi.org/${doi.split("/").map(encodeURIComponent).join("/")}`;

/**
 * An ORCID iD (with or without hyphens, or as an orcid.org link) as 0000-0000-0000-000X; null when
 * its form is wrong or its last character is not the ISO 7064 MOD 11-2 check of the other fifteen.
 */
export function normalizeOrcid(input: string): string | null {
  const bare = input
    .trim()
    .replace(/^https?:\/\/(?:www\.)?orcid\.org\//i, "")
    .toUpperCase();
  const digits = /^(\d{4})-?(\d{4})-?(\d{4})-?(\d{3}[\dX])$/.exec(bare)?.slice(1).join("");
  if (!digits || digits[15] !== orcidCheck(digits.slice(0, 15))) return null;
  return digits.match(/.{4}/g)?.join("-") ?? null;
}

/** The ISO 7064 MOD 11-2 check character of an iD's first fifteen digits. */
export function orcidCheck(first15: string): string {
  let total = 0;
  for (const d of first15) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  return check === 10 ? "X" : String(check);
}

export interface Author {
  name: string;
  orcid: string | null;
}

/** A co-author as an item shows them: `verified` when a member linked that iD by signing in to ORCID. */
export interface ListedAuthor extends Author {
  verified: boolean;
}

/**
 * The co-authors field: one author per line, "Name" or "Name, ORCID iD". Answers the authors, or
 * the 1-based line that has no name, or an ORCID iD that is not valid.
 */
export function parseAuthors(text: string): { authors: Author[] } | { badLine: number } {
  const authors: Author[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, line] of lines.entries()) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    const comma = trimmed.lastIndexOf(",");
    const tail = comma === -1 ? "" : trimmed.slice(comma + 1).trim();
    // A tail of digits, hyphens and X (or an orcid.org link) is meant as an ORCID iD, and must be one.
    if (tail && /^(?:https?:\/\/(?:www\.)?orcid\.org\/)?[\dXx-]{15,19}$/.test(tail)) {
      const orcid = normalizeOrcid(tail);
      const name = trimmed.slice(0, comma).trim();
      if (!orcid || !name) return { badLine: index + 1 };
      authors.push({ name, orcid });
    } else {
      authors.push({ name: trimmed, orcid: null });
    }
  }
  return { authors };
}

/** The co-authors field's text for a list (what the edit form shows). */
export const authorsText = (authors: readonly Author[]) => authors.map((a) => (a.orcid ? `${a.name}, ${a.orcid}` : a.name)).join("\n");
