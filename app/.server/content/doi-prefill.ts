import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { describeError, logEvent } from "~/.server/observability/log";
import { Refused } from "~/.server/refused";
import { type Author, normalizeDoi, normalizeOrcid } from "~/lib/identifiers";
import { AUTHORS_MAX, KEYWORDS_MAX, SUMMARY_MAX, TITLE_MAX } from "~/lib/limits";

// Filling the upload and edit forms from a DOI (docs/decisions/0041-orcid.md): the resolver is asked
// for the record as CSL-JSON by content negotiation (it redirects to the registration agency, which
// answers), within a time limit and a size limit. What comes back is only a suggestion the member
// checks: nothing is saved here.

/** How long the resolver may take (it follows a redirect to the agency). */
export const DOI_TIMEOUT_MS = 8_000;
/** A record larger than this is not a record we can use (Crossref's largest are far smaller). */
const RECORD_MAX_BYTES = 1_000_000;
const CSL_JSON = "application/vnd.citationstyles.csl+json";

export interface Prefill {
  doi: string;
  title: string | null;
  /** The co-authors (the member themselves left out when their linked iD is among them). */
  authors: Author[];
  summary: string | null;
  keywords: string | null;
  year: number | null;
}

interface CslName {
  given?: string;
  family?: string;
  literal?: string;
  name?: string;
  ORCID?: string;
}

interface CslRecord {
  title?: string | string[];
  author?: CslName[];
  abstract?: string;
  keyword?: string | string[];
  subject?: string[];
  issued?: { "date-parts"?: Array<Array<number | string>> };
  published?: { "date-parts"?: Array<Array<number | string>> };
}

/** One line of plain text: markup (JATS in Crossref's abstracts) and runs of white space gone. */
const plain = (text: string) =>
  text
    .replace(/<[^>]*>/g, " ")
    .replace(/&(lt|gt|amp|quot|#39);/g, (_, e: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'" })[e] ?? "")
    .replace(/\s+/g, " ")
    .trim();

const clip = (text: string | null | undefined, max: number) => {
  const value = text ? plain(text) : "";
  return value ? value.slice(0, max) : null;
};

const yearOf = (record: CslRecord) => {
  const year = Number((record.issued ?? record.published)?.["date-parts"]?.[0]?.[0]);
  return Number.isInteger(year) && year >= 1000 && year <= 9999 ? year : null;
};

async function fetchRecord(doi: string): Promise<CslRecord> {
  const url = `${config().doiResolverUrl}/${doi.split("/").map(encodeURIComponent).join("/")}`;
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: CSL_JSON }, redirect: "follow", signal: AbortSignal.timeout(DOI_TIMEOUT_MS) });
  } catch (error) {
    logEvent("warn", "doi.unavailable", { doi, error: describeError(error) });
    throw new Refused("validation.doiUnavailable", { field: "doi", status: 504 });
  }
  if (response.status === 404) throw new Refused("validation.doiNotFound", { field: "doi", status: 404 });
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.ok || !/json/.test(type)) {
    logEvent("warn", "doi.unavailable", { doi, status: response.status, type });
    await response.body?.cancel();
    // A resolver that knows the DOI but has no CSL-JSON for it (another agency) cannot fill the form either.
    throw new Refused(response.ok ? "validation.doiNotFound" : "validation.doiUnavailable", {
      field: "doi",
      status: response.ok ? 404 : 502,
    });
  }
  const text = await response.text();
  if (text.length > RECORD_MAX_BYTES) throw new Refused("validation.doiUnavailable", { field: "doi", status: 502 });
  try {
    return JSON.parse(text) as CslRecord;
  } catch {
    throw new Refused("validation.doiUnavailable", { field: "doi", status: 502 });
  }
}

/**
 * The fields a DOI's record fills in; the member's own linked iD is left out of the co-authors, since the uploader is always the first author. A DOI that is not one, one not found,
 * and a resolver that fails or is too slow are each refused with their own message.
 */
export async function prefillFromDoi(input: string, memberId: number): Promise<Prefill> {
  const doi = normalizeDoi(input);
  if (!doi) throw new Refused("validation.doiInvalid", { field: "doi" });
  const [record, memberOrcid] = await Promise.all([
    fetchRecord(doi),
    env.DB.prepare("SELECT orcid FROM users WHERE id = ?").bind(memberId).first<string | null>("orcid"),
  ]);
  const title = clip(Array.isArray(record.title) ? record.title[0] : record.title, TITLE_MAX);
  const authors = (record.author ?? [])
    .map((name) => {
      const full = name.literal ?? name.name ?? [name.given, name.family].filter(Boolean).join(" ");
      return { name: clip(full, 200) ?? "", orcid: name.ORCID ? normalizeOrcid(name.ORCID) : null };
    })
    .filter((author) => author.name && !(memberOrcid && author.orcid === memberOrcid))
    .slice(0, AUTHORS_MAX);
  const keywords = Array.isArray(record.keyword) ? record.keyword.join(", ") : (record.keyword ?? record.subject?.join(", "));
  return {
    doi,
    title,
    authors,
    summary: clip(record.abstract, SUMMARY_MAX),
    keywords: clip(keywords, KEYWORDS_MAX),
    year: yearOf(record),
  };
}
