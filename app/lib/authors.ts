import type { Author } from "./identifiers";

/** The work's authors in order, as its pages, head and records list them: the uploader, then the co-authors named. */
export const authorsOf = (item: { owner_name: string; owner_orcid?: string | null; authors: readonly Author[] }) => [
  { name: item.owner_name, orcid: item.owner_orcid ?? null },
  ...item.authors.filter((author) => author.name).map((author) => ({ name: author.name, orcid: author.orcid })),
];
