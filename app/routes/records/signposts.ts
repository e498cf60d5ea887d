import type { ContentItem } from "~/.server/content/content";
import { CITATION_FILES, type CitationFile } from "~/lib/citations";
import type { LicenseInfo } from "~/lib/licenses";

// FAIR Signposting (level 1) for an open record (decision 0049): the Link headers a machine follows
// from the record's page to its identifier, authors, licence, file and metadata, and back.

interface Link {
  href: string;
  rel: string;
  type?: string;
}

export const linkHeader = (links: Link[]) =>
  links.map(({ href, rel, type }) => `<${href}>; rel="${rel}"${type ? `; type="${type}"` : ""}`).join(", ");

/** The record's metadata exports, in the page's directory: `citation.bib`, `citation.ris`, `citation.json`. */
export const metadataFiles = (home: string) =>
  (Object.keys(CITATION_FILES) as CitationFile[]).map((format) => ({
    format,
    href: `${home}citation.${CITATION_FILES[format].extension}`,
    type: CITATION_FILES[format].type,
  }));

/** The record page's signposts: what to cite it as, who made it, its licence, file, type and metadata. */
export function landingLinks(
  record: Pick<ContentItem, "kind" | "doi" | "owner_orcid" | "authors">,
  home: string,
  file: string | null,
  license: LicenseInfo | null,
): string {
  const orcids = [record.owner_orcid, ...record.authors.map((author) => author.orcid)].filter((orcid): orcid is string => Boolean(orcid));
  return linkHeader([
    { href: record.doi ? `https://doi.org/${record.doi}` : home, rel: "cite-as" },
    ...orcids.map((orcid) => ({ href: `https://orcid.org/${orcid}`, rel: "author" })),
    ...(license?.url ? [{ href: license.url, rel: "license" }] : []),
    ...(file ? [{ href: file, rel: "item", type: record.kind === "document" ? "application/pdf" : "video/mp4" }] : []),
    { href: `https://schema.org/${record.kind === "document" ? "ScholarlyArticle" : "VideoObject"}`, rel: "type" },
    { href: "https://schema.org/AboutPage", rel: "type" },
    ...metadataFiles(home).map(({ href, type }) => ({ href, rel: "describedby", type })),
  ]);
}

/** A file's or a metadata export's way back to the record it belongs to. */
export const backLinks = (home: string, rel: "collection" | "describes") => linkHeader([{ href: home, rel, type: "text/html" }]);
