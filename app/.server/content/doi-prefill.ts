import { z } from "zod";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { LOOPBACK } from "~/.server/config/schema";
import { joinChunks } from "~/.server/http/body";
import { describeError, logEvent } from "~/.server/observability/log";
import { Refused } from "~/.server/refused";
import { type Author, normalizeDoi, normalizeOrcid } from "~/lib/identifiers";
import { AUTHORS_MAX, KEYWORDS_MAX, SUMMARY_MAX, TITLE_MAX } from "~/lib/limits";

// Filling the upload and edit forms from a DOI (docs/decisions/0041-orcid.md): the resolver is asked
// for the record as CSL-JSON by content negotiation (it redirects to the registration agency, which
// answers), within one deadline and a size limit. Nothing the resolver says is trusted: redirects are
// followed by hand (https only, a few hops), the body is counted as it arrives, and the record is
// read through a schema that keeps only the shapes used here. What comes back is only a suggestion
// the member checks: nothing is saved here.

/**
 * The whole exchange with the resolver (every redirect and the record's last byte) within one
 * deadline. The member is waiting at the form: doi.org and the agencies answer within a second or
 * two, so an answer that has not come by now is unlikely to, and the member is better told to try
 * again or type the fields than kept waiting.
 */
export const DOI_DEADLINE_MS = 4_500;
/** A record larger than this is not a record we can use (Crossref's largest are far smaller). */
export const RECORD_MAX_BYTES = 1_000_000;
/** Redirects followed: doi.org to the agency, and the agency to its API, with one to spare. */
export const DOI_REDIRECTS_MAX = 3;
const CSL_JSON = "application/vnd.citationstyles.csl+json";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface Prefill {
  doi: string;
  title: string | null;
  /** The co-authors (the member themselves left out when their linked iD is among them). */
  authors: Author[];
  summary: string | null;
  keywords: string | null;
  year: number | null;
}

// The record as read: only the CSL-JSON fields used here, each kept when it has the shape used and
// otherwise read as absent (a title that is a number is no title, not a record refused), and a list's
// items of another shape dropped. Only a record that is not an object at all is refused.

/** Text, or undefined. */
const text = z.string().optional().catch(undefined);
/** A list's strings (a lone string is a list of one); anything else is none. */
const texts = z
  .union([
    z.string().transform((one) => [one]),
    z.array(z.unknown()).transform((items) => items.filter((item) => typeof item === "string")),
  ])
  .catch([]);
const cslName = z.object({ given: text, family: text, literal: text, name: text, ORCID: text });
/** The names of a list that are names (objects; their fields as `text`). */
const cslNames = z
  .array(z.unknown())
  .catch([])
  .transform((items) =>
    items.flatMap((item) => {
      const name = cslName.safeParse(item);
      return name.success ? [name.data] : [];
    }),
  );
/** A CSL date's year (the first part of its first date, as a number or as digits), or undefined. */
const cslYear = z
  .object({ "date-parts": z.tuple([z.tuple([z.union([z.number(), z.string()])], z.unknown())], z.unknown()) })
  .transform((date) => Number(date["date-parts"][0][0]))
  .pipe(z.number().int().min(1000).max(9999))
  .optional()
  .catch(undefined);
const cslRecord = z.object({
  title: texts,
  author: cslNames,
  abstract: text,
  keyword: texts,
  subject: texts,
  issued: cslYear,
  published: cslYear,
});

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

const unavailable = (status: 502 | 504) => new Refused("validation.doiUnavailable", { field: "doi", status });

/**
 * Whether the exchange may ask `url` (the resolver's own, or one it redirects to): https only, but
 * for the configured resolver's own loopback origin in a local build (the stand-in `npm start` and
 * the tests run). Never plain http to anywhere else, nor another scheme.
 */
export function mayAsk(url: URL, resolverUrl: string, localBuild: boolean): boolean {
  if (url.protocol === "https:") return true;
  return localBuild && url.protocol === "http:" && LOOPBACK.has(url.hostname) && url.origin === new URL(resolverUrl).origin;
}

/** `promise`, or the deadline's reason once it passes first. */
function beforeDeadline<T>(promise: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const passed = () => reject(deadline.reason);
    if (deadline.aborted) return passed();
    deadline.addEventListener("abort", passed, { once: true });
    promise.then(resolve, reject).finally(() => deadline.removeEventListener("abort", passed));
  });
}

/**
 * A body's bytes, counted as they arrive: null once they pass `max` (the rest is cancelled, never
 * read). The deadline passing while it waits throws its reason (the body is cancelled then too).
 */
async function readWithin(body: ReadableStream<Uint8Array> | null, max: number, deadline: AbortSignal) {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await beforeDeadline(reader.read(), deadline);
      if (done) return joinChunks(chunks, size);
      size += value.byteLength;
      if (size > max) break;
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  await reader.cancel().catch(() => undefined);
  return null;
}

async function fetchRecord(doi: string): Promise<z.infer<typeof cslRecord>> {
  const resolver = config().doiResolverUrl;
  let url = new URL(`${resolver}/${doi.split("/").map(encodeURIComponent).join("/")}`);
  const deadline = AbortSignal.timeout(DOI_DEADLINE_MS);
  const refuse = (reason: string, fields: Record<string, unknown> = {}, status: 502 | 504 = 502) => {
    logEvent("warn", "doi.unavailable", { doi, reason, ...fields });
    return unavailable(status);
  };
  let response: Response;
  for (let hops = 0; ; hops++) {
    if (!mayAsk(url, resolver, __LOCAL_BUILD__)) throw refuse("redirect not followed", { to: url.href.slice(0, 200) });
    try {
      response = await fetch(url, { headers: { Accept: CSL_JSON }, redirect: "manual", signal: deadline });
    } catch (error) {
      throw refuse("no answer", { error: describeError(error) }, 504);
    }
    if (!REDIRECT_STATUSES.has(response.status)) break;
    await response.body?.cancel();
    if (hops === DOI_REDIRECTS_MAX) throw refuse("too many redirects");
    const location = response.headers.get("Location");
    const next = location === null || !URL.canParse(location, url) ? null : new URL(location, url);
    if (!next) throw refuse("redirect without a location", { location: location?.slice(0, 200) });
    url = next;
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw new Refused("validation.doiNotFound", { field: "doi", status: 404 });
  }
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
  if (Number(response.headers.get("Content-Length")) > RECORD_MAX_BYTES) {
    await response.body?.cancel();
    throw refuse("too large", { length: response.headers.get("Content-Length") });
  }
  let bytes: Uint8Array | null;
  try {
    bytes = await readWithin(response.body, RECORD_MAX_BYTES, deadline);
  } catch (error) {
    throw refuse("body not read", { error: describeError(error) }, deadline.aborted ? 504 : 502);
  }
  if (!bytes) throw refuse("too large");
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw refuse("not JSON");
  }
  const record = cslRecord.safeParse(json);
  if (!record.success) throw refuse("not a record");
  return record.data;
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
  const title = clip(record.title[0], TITLE_MAX);
  const authors = record.author
    .map((name) => {
      const full = name.literal ?? name.name ?? [name.given, name.family].filter(Boolean).join(" ");
      return { name: clip(full, 200) ?? "", orcid: name.ORCID ? normalizeOrcid(name.ORCID) : null };
    })
    .filter((author) => author.name && !(memberOrcid && author.orcid === memberOrcid))
    .slice(0, AUTHORS_MAX);
  const keywords = (record.keyword.length > 0 ? record.keyword : record.subject).join(", ");
  return {
    doi,
    title,
    authors,
    summary: clip(record.abstract, SUMMARY_MAX),
    keywords: clip(keywords, KEYWORDS_MAX),
    year: record.issued ?? record.published ?? null,
  };
}
