import { Cite, plugins } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import "@citation-js/plugin-csl";
import jaJP from "citeproc-locales/locales/locales-ja-JP.xml?raw";
import zhCN from "citeproc-locales/locales/locales-zh-CN.xml?raw";
import type { CitationFormat } from "~/lib/citations";
import type { Language } from "~/lib/i18n";
import { ALL_RIGHTS_RESERVED } from "~/lib/licenses";
import type { ContentItem } from "./content";
import type { Funding } from "./funding";
import { licenseInfo } from "./licenses";
import type { Version } from "./versions";

// Citations of an item (docs/decisions/0029-citations.md), written by citation-js: BibTeX, RIS and
// CSL-JSON to download or copy, and references in APA and Harvard in the member's language. Callers
// import this module lazily: citeproc is large, and most requests never cite.

const locales = plugins.config.get("@csl").locales;
locales.add("ja-JP", jaJP);
locales.add("zh-CN", zhCN);

const STYLE_LANGUAGE: Record<Language, string> = { en: "en-US", ja: "ja-JP", zh: "zh-CN" };
const TEMPLATE = { apa: "apa", harvard: "harvard1" } as const;

export type CitableItem = Pick<
  ContentItem,
  "id" | "kind" | "title" | "summary" | "keywords" | "owner_name" | "created_at" | "doi" | "authors"
> &
  Partial<
    Pick<ContentItem, "owner_given" | "owner_family" | "owner_orcid" | "published_year" | "license" | "version" | "on_behalf" | "language">
  > & {
    /** Who funded it (decision 0052), but for a funder's decline. */
    funding?: Pick<Funding, "funder_name" | "funder_id" | "funder_id_type" | "award_number" | "award_uri" | "award_title" | "state">[];
  };

/** The funding references a citation names: each funder, with its award's number. */
const fundedBy = (item: CitableItem) =>
  (item.funding ?? [])
    .filter((f) => f.state !== "declined")
    .map((f) => `${f.funder_name}${f.award_number ? ` (${f.award_number})` : ""}`)
    .join("; ");

/**
 * The item as one of its versions is cited: that version's number, title, date and licence, and its
 * own DOI when it has one (else the work's).
 */
export const asVersion = (
  item: CitableItem,
  version: Pick<Version, "number" | "title" | "doi" | "license" | "created_at">,
): CitableItem => ({
  ...item,
  version: version.number,
  title: version.title,
  doi: version.doi ?? item.doi,
  license: version.license,
  created_at: version.created_at,
});

type CslName = { family: string; given: string } | { literal: string };

/**
 * The authors in order with the iD each signed in to ORCID with (a typed co-author iD is not asserted):
 * the uploader first, unless they put the work up for its authors (decision 0049).
 */
function namedAuthors(item: CitableItem): { name: CslName; orcid: string | null }[] {
  return [
    ...(item.on_behalf ? [] : [{ name: uploaderName(item), orcid: item.owner_orcid ?? null }]),
    ...item.authors.filter((a) => a.name).map((a) => ({ name: cslName(a.name), orcid: "verified" in a && a.verified ? a.orcid : null })),
  ];
}

const orcidUrl = (orcid: string) => `https://orcid.org/${orcid}`;
const nameText = (name: CslName) => ("literal" in name ? name.literal : `${name.family}, ${name.given}`);
/** Text for a BibTeX field: braces and backslashes would change its meaning, so they go. */
const bibtexText = (text: string) => text.replace(/[{}\\]/g, "");
/** A name as BibTeX's author list writes it: "Family, Given", or a literal braced so it stays whole. */
const bibtexName = (name: CslName) => ("literal" in name ? `{${bibtexText(name.literal)}}` : bibtexText(nameText(name)));

/**
 * A name as CSL wants it. Names written family-name-first without spaces between parts (Chinese,
 * Japanese) or with one word stay whole; others split at the last space ("Aiko Tanaka" → Tanaka, A.).
 */
function cslName(name: string): CslName {
  const parts = name.trim().split(/\s+/);
  const family = parts.pop();
  if (!family || parts.length === 0 || /[\u3040-\u30ff\u3400-\u9fff]/.test(name)) return { literal: name.trim() };
  return { family, given: parts.join(" ") };
}

/**
 * The uploader as CSL names them: by the given and family names their public profile shows, else
 * by their nick name as one literal name, never split ("T3 pdf off" is nobody's family name "off").
 */
function uploaderName(item: CitableItem): CslName {
  if (item.owner_given && item.owner_family) return { family: item.owner_family, given: item.owner_given };
  return { literal: item.owner_name.trim() };
}

/** The item as a CSL-JSON record: its authors in their order (namedAuthors). */
export function cslRecord(item: CitableItem, url: string) {
  const issued = new Date(item.created_at);
  return {
    id: `research-commons-${item.id}`,
    type: item.kind === "video" ? "motion_picture" : "article",
    title: item.title,
    // ORCID as Crossref's CSL-JSON writes it: the full link, and said to be authenticated.
    author: namedAuthors(item).map(({ name, orcid }) => (orcid ? { ...name, ORCID: orcidUrl(orcid), "authenticated-orcid": true } : name)),
    issued: {
      "date-parts": [
        item.published_year ? [item.published_year] : [issued.getUTCFullYear(), issued.getUTCMonth() + 1, issued.getUTCDate()],
      ],
    },
    abstract: item.summary,
    keyword: item.keywords,
    publisher: "Research Commons",
    URL: url,
    ...(item.doi ? { DOI: item.doi } : {}),
    // CSL's own variables: the licence as readers know it (its SPDX identifier), and the version.
    ...(item.license ? { license: item.license } : {}),
    ...(item.version ? { version: String(item.version) } : {}),
    // The language of the title cited, always the original's (decision 0050: a translation is never the citation's title).
    ...(item.language ? { language: item.language } : {}),
    // CSL has no funding variable: a note as citeproc-js reads notes, and DataCite's fields under `custom` (decision 0052).
    ...(fundedBy(item)
      ? {
          note: `Funding: ${fundedBy(item)}`,
          custom: {
            funding: (item.funding ?? [])
              .filter((f) => f.state !== "declined")
              .map((f) => ({
                funderName: f.funder_name,
                ...(f.funder_id ? { funderIdentifier: f.funder_id, funderIdentifierType: f.funder_id_type } : {}),
                ...(f.award_number ? { awardNumber: f.award_number } : {}),
                ...(f.award_uri ? { awardURI: f.award_uri } : {}),
                ...(f.award_title ? { awardTitle: f.award_title } : {}),
              })),
          },
        }
      : {}),
  };
}

/**
 * The item's citation in each format asked for, from one record and one Cite; references (APA,
 * Harvard) in the member's language.
 */
export function citeItem<F extends CitationFormat>(
  item: CitableItem,
  url: string,
  formats: readonly F[],
  language: Language,
): Record<F, string> {
  const record = cslRecord(item, url);
  // citation-js would write the note into BibTeX and RIS: they carry the funding their own way.
  const { note: _note, custom: _custom, ...plain } = record as typeof record & { note?: string; custom?: unknown };
  const cite = new Cite([plain]);
  const orcids = namedAuthors(item).flatMap(({ name, orcid }) => (orcid ? [{ name, orcid }] : []));
  const write = (format: CitationFormat) => {
    if (format === "csl-json") return JSON.stringify([record], null, 2);
    if (format === "bibtex")
      return withBibtexFields(cite.format("bibtex").trim(), {
        ...bibtexExtras(orcids, item.license ?? null, item.version, item.language),
        ...(fundedBy(item) ? { funding: bibtexText(fundedBy(item)) } : {}),
      });
    if (format === "ris") return withRisExtras(cite.format("ris").trim(), orcids, item.version);
    // Harvard's style leaves the version out: it is named after the title, as APA's does.
    const styled =
      format === "harvard" && item.version ? new Cite([{ ...record, title: `${record.title} (Version ${item.version})` }]) : cite;
    return styled.format("bibliography", { template: TEMPLATE[format], format: "text", lang: STYLE_LANGUAGE[language] }).trim();
  };
  return Object.fromEntries(formats.map((format) => [format, write(format)])) as Record<F, string>;
}

// BibTeX and RIS have no ORCID or licence field of their own: BibTeX gets the `orcid-numbers` field
// Web of Science's exports use ("Name/iD", separated by "; "), and `license` (the SPDX identifier)
// and `copyright` (its name) as reference managers read them; RIS a note naming each iD's full link.

type NamedOrcid = { name: CslName; orcid: string };

/** The fields' values, each already BibTeX text (a literal name keeps the braces that hold it whole). */
function bibtexExtras(orcids: NamedOrcid[], license: string | null, version?: number, language?: string | null): Record<string, string> {
  const info = licenseInfo(license);
  return {
    ...(version ? { version: String(version) } : {}),
    // The original title's language (BibTeX's own field, which citation-js writes only for BibLaTeX).
    ...(language ? { language: bibtexText(language) } : {}),
    ...(orcids.length ? { "orcid-numbers": orcids.map((o) => `${bibtexName(o.name)}/${o.orcid}`).join("; ") } : {}),
    ...(info
      ? {
          license: bibtexText(info.id),
          copyright: bibtexText(info.id === ALL_RIGHTS_RESERVED ? "All rights reserved" : (info.name ?? info.id)),
        }
      : {}),
  };
}

function withBibtexFields(bibtex: string, fields: Record<string, string>) {
  const lines = Object.entries(fields).map(([name, value]) => `\t${name} = {${value}},`);
  if (lines.length === 0 || !bibtex.endsWith("}")) return bibtex;
  const body = bibtex.slice(0, -1).trimEnd();
  return `${body}${body.endsWith(",") ? "" : ","}\n${lines.join("\n")}\n}`;
}

/** RIS: the version as its edition (ET), and a note naming each iD's link. */
function withRisExtras(ris: string, orcids: NamedOrcid[], version?: number) {
  const lines = [
    ...(version ? [`ET  - ${version}`] : []),
    ...(orcids.length ? [`N1  - ORCID iDs: ${orcids.map((o) => `${nameText(o.name)} ${orcidUrl(o.orcid)}`).join("; ")}`] : []),
  ];
  if (lines.length === 0) return ris;
  return ris.replace(/^ER {2}-.*$/m, (end) => `${lines.join("\n")}\n${end}`);
}
