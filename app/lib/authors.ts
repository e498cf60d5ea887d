import type { Author } from "./identifiers";

/**
 * The work's authors in order, as its head, citations and records list them: the uploader, then the
 * co-authors named; only the co-authors when the uploader put it up for them (decision 0049).
 */
export const authorsOf = (item: { owner_name: string; owner_orcid?: string | null; authors: readonly Author[]; on_behalf?: 0 | 1 }) => [
  ...(item.on_behalf ? [] : [{ name: item.owner_name, orcid: item.owner_orcid ?? null }]),
  ...item.authors.filter((author) => author.name).map((author) => ({ name: author.name, orcid: author.orcid })),
];
