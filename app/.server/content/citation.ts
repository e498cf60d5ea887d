import { Cite, plugins } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import "@citation-js/plugin-csl";
import jaJP from "citeproc-locales/locales/locales-ja-JP.xml?raw";
import zhCN from "citeproc-locales/locales/locales-zh-CN.xml?raw";
import type { CitationFormat } from "~/lib/citations";
import type { Language } from "~/lib/i18n";
import type { ContentItem } from "./content";

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
  Partial<Pick<ContentItem, "owner_given" | "owner_family">>;

/**
 * A name as CSL wants it. Names written family-name-first without spaces between parts (Chinese,
 * Japanese) or with one word stay whole; others split at the last space ("Aiko Tanaka" → Tanaka, A.).
 */
function cslName(name: string) {
  const parts = name.trim().split(/\s+/);
  const family = parts.pop();
  if (!family || parts.length === 0 || /[\u3040-\u30ff\u3400-\u9fff]/.test(name)) return { literal: name.trim() };
  return { family, given: parts.join(" ") };
}

/**
 * The uploader as CSL names them: by the given and family names their public profile shows, else
 * by their nick name as one literal name, never split ("T3 pdf off" is nobody's family name "off").
 */
function uploaderName(item: CitableItem) {
  if (item.owner_given && item.owner_family) return { family: item.owner_family, given: item.owner_given };
  return { literal: item.owner_name.trim() };
}

/** The item as a CSL-JSON record: the uploader first, then the co-authors in their order. */
export function cslRecord(item: CitableItem, url: string) {
  const issued = new Date(item.created_at);
  return {
    id: `research-commons-${item.id}`,
    type: item.kind === "video" ? "motion_picture" : "article",
    title: item.title,
    author: [
      uploaderName(item),
      ...item.authors
        .map((a) => a.name)
        .filter(Boolean)
        .map(cslName),
    ],
    issued: { "date-parts": [[issued.getUTCFullYear(), issued.getUTCMonth() + 1, issued.getUTCDate()]] },
    abstract: item.summary,
    keyword: item.keywords,
    publisher: "Research Commons",
    URL: url,
    ...(item.doi ? { DOI: item.doi } : {}),
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
  const cite = new Cite([record]);
  const write = (format: CitationFormat) => {
    if (format === "csl-json") return JSON.stringify([record], null, 2);
    if (format === "bibtex" || format === "ris") return cite.format(format).trim();
    return cite.format("bibliography", { template: TEMPLATE[format], format: "text", lang: STYLE_LANGUAGE[language] }).trim();
  };
  return Object.fromEntries(formats.map((format) => [format, write(format)])) as Record<F, string>;
}
