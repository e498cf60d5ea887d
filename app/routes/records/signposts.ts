import type { ContentItem } from "~/.server/content/content";
import { openlyLicensed, recordFileName } from "~/.server/content/open-records";
import { authorsOf } from "~/lib/authors";
import { CITATION_FILES, type CitationFile } from "~/lib/citations";
import type { LicenseInfo } from "~/lib/licenses";

// FAIR Signposting (level 1) for an open record (decision 0049): the Link headers a machine follows
// from the record's page to its identifier, authors, licence, file and metadata, and back.

interface Link {
  href: string;
  rel: string;
  type?: string;
}

/** The record's file in its directory, where its licence lets anyone read it; else null. */
export const openFileUrl = (record: Pick<ContentItem, "id" | "kind" | "license">, home: string) =>
  openlyLicensed(record.license) ? `${home}${recordFileName(record)}` : null;

export const linkHeader = (links: Link[]) =>
  links.map(({ href, rel, type }) => `<${href}>; rel="${rel}"${type ? `; type="${type}"` : ""}`).join(", ");

/** The record's metadata exports, in the page's directory: `citation.bib`, `citation.ris`, `citation.json`. */
export const metadataFiles = (home: string) =>
  (Object.keys(CITATION_FILES) as CitationFile[]).map((format) => ({
    format,
    href: `${home}citation.${CITATION_FILES[format].extension}`,
    type: CITATION_FILES[format].type,
  }));

/** The record page's signposts: what to cite it as, who made it, its licence, file, type, metadata and linkset. */
export function landingLinks(
  record: Pick<ContentItem, "kind" | "doi" | "owner_name" | "owner_orcid" | "authors" | "on_behalf">,
  home: string,
  file: string | null,
  license: LicenseInfo | null,
): Link[] {
  const orcids = authorsOf(record).flatMap((author) => (author.orcid ? [author.orcid] : []));
  return [
    { href: record.doi ? `https://doi.org/${record.doi}` : home, rel: "cite-as" },
    ...orcids.map((orcid) => ({ href: `https://orcid.org/${orcid}`, rel: "author" })),
    ...(license?.url ? [{ href: license.url, rel: "license" }] : []),
    ...(file ? [{ href: file, rel: "item", type: record.kind === "document" ? "application/pdf" : "video/mp4" }] : []),
    { href: `https://schema.org/${record.kind === "document" ? "ScholarlyArticle" : "VideoObject"}`, rel: "type" },
    { href: "https://schema.org/AboutPage", rel: "type" },
    ...metadataFiles(home).map(({ href, type }) => ({ href, rel: "describedby", type })),
    { href: `${home}linkset`, rel: "linkset", type: LINKSET_TYPE },
  ];
}

export const LINKSET_TYPE = "application/linkset+json";

/**
 * The same signposts as one document (RFC 9264's JSON linkset): the page's links, and the file's and
 * the metadata's way back, each under its anchor.
 */
export function linkset(landing: Link[], home: string) {
  const byRel = (links: Link[]) => {
    const grouped: Record<string, { href: string; type?: string }[]> = {};
    for (const { href, rel, type } of links) grouped[rel] = [...(grouped[rel] ?? []), type ? { href, type } : { href }];
    return grouped;
  };
  const own = landing.filter((link) => link.rel !== "linkset");
  const back = (anchor: string, rel: string) => ({ anchor, ...byRel([{ href: home, rel, type: "text/html" }]) });
  return {
    linkset: [
      { anchor: home, ...byRel(own) },
      ...own.filter((link) => link.rel === "item").map((link) => back(link.href, "collection")),
      ...own.filter((link) => link.rel === "describedby").map((link) => back(link.href, "describes")),
    ],
  };
}

/** A file's or a metadata export's way back to the record it belongs to. */
export const backLinks = (home: string, rel: "collection" | "describes") => linkHeader([{ href: home, rel, type: "text/html" }]);
