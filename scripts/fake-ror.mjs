// A stand-in for the Research Organization Registry's v2 REST API (issue 52), for runs that cannot
// reach it: served by the ORCID stand-in's loopback server (fake-orcid.mjs) under /ror/v2, from a
// slice of ROR's public data kept in tests/fixtures/ror (its README names the source). It answers
// ROR's shapes, read from the registry's own API code:
//   GET /ror/v2/organizations?query=…&page=…  {number_of_results, time_taken, items, meta}, 20 a page,
//     active records only unless all_status; a query that is a ROR id is that record, any status.
//   GET /ror/v2/organizations?affiliation=…   {number_of_results, items: [{substring, score,
//     matching_type, chosen, organization}]}, scores above 0.5, `chosen` the one confident match.
//   GET /ror/v2/organizations/{id}           the record, or 404 {errors: [...]}.
// A query or affiliation of "stand-in.slow" never answers in time, "stand-in.fail" answers 503,
// "stand-in.huge" answers 3 MB; the record 0zzzzzz99 is some 100 KB.
import { readFileSync } from "node:fs";

/** The slice's records, read when first asked for (the module is imported where no file can be read). */
let records = null;
export const rorRecords = () => {
  records ??= JSON.parse(readFileSync(new URL("../tests/fixtures/ror/organizations.json", import.meta.url), "utf8"));
  return records;
};
const PAGE = 20;
const ROR_ID = /^(?:https:\/\/ror\.org\/)?(0[a-hj-km-np-tv-z|0-9]{6}[0-9]{2})$/;

/** Text as matching compares it: compatibility forms folded, case and punctuation aside. */
const folded = (text) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

const namesOf = (org) => org.names.map((name) => ({ ...name, folded: folded(name.value) }));

/** How well `text` names the organisation, as ROR's affiliation matching grades it (a subset of its kinds). */
function graded(org, text) {
  const asked = folded(text);
  let best = null;
  for (const name of namesOf(org)) {
    const acronym = name.types.includes("acronym");
    const grade = acronym
      ? name.value === text.trim()
        ? { score: 0.9, matching_type: "ACRONYM" }
        : null
      : name.folded === asked
        ? { score: 1, matching_type: "EXACT" }
        : asked.includes(name.folded) && name.folded.length >= 4
          ? { score: 0.9, matching_type: "PHRASE" }
          : name.folded.includes(asked) && asked.length >= 4
            ? { score: 0.7, matching_type: "COMMON TERMS" }
            : null;
    if (grade && (!best || grade.score > best.score)) best = grade;
  }
  return best;
}

/** ROR's search: every word of the query in one of a record's names. */
const found = (org, query) => {
  const words = folded(query).split(" ").filter(Boolean);
  return words.length > 0 && namesOf(org).some((name) => words.every((word) => name.folded.includes(word)));
};

const facet = (orgs, values) => {
  const counts = new Map();
  for (const org of orgs) for (const value of values(org)) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].slice(0, 10).map(([id, count]) => ({ id: id.toLowerCase(), title: id, count }));
};

/** The id of a stand-in record too large to keep (ROR_RECORD_MAX_BYTES). */
export const HUGE_RECORD = "0zzzzzz99";

/** The answer to a request below /ror/v2, or null when it is not one. */
export function rorAnswer(url) {
  const path = url.pathname.replace(/^\/ror\/v2/, "");
  if (path === url.pathname) return null;
  const one = /^\/organizations\/(.+)$/.exec(path);
  if (one) {
    const id = ROR_ID.exec(decodeURIComponent(one[1] ?? ""))?.[1];
    if (!id) return { status: 404, body: { errors: [`'${one[1]}' is not a valid ROR ID`] } };
    // A record larger than any of the registry's (some 100 KB of aliases), to hold the size kept to its limit.
    if (id === HUGE_RECORD)
      return {
        status: 200,
        body: {
          ...rorRecords()[0],
          id: `https://ror.org/${id}`,
          names: [
            ...(rorRecords()[0]?.names ?? []),
            ...Array.from({ length: 250 }, (_, n) => ({ value: `Alias ${n} ${"x".repeat(400)}`, types: ["alias"], lang: null })),
          ],
        },
      };
    const org = rorRecords().find((record) => record.id.endsWith(`/${id}`));
    return org ? { status: 200, body: org } : { status: 404, body: { errors: [`ROR ID '${id}' does not exist`] } };
  }
  if (path !== "/organizations") return { status: 404, body: { errors: ["Not found"] } };
  const params = url.searchParams;
  const asked = params.get("affiliation") ?? params.get("query") ?? "";
  if (asked === "stand-in.slow") return { status: 200, body: null, slow: true };
  if (asked === "stand-in.fail") return { status: 503, body: { errors: ["Service unavailable"] } };
  // An answer larger than any page of the registry's (3 MB).
  if (asked === "stand-in.huge") return { status: 200, body: { number_of_results: 0, items: [], padding: "x".repeat(3_000_000) } };
  const anyStatus = params.has("all_status");
  if (params.has("affiliation")) {
    const items = rorRecords()
      .filter((org) => anyStatus || org.status === "active")
      .map((org) => ({ org, grade: graded(org, asked) }))
      .filter(({ grade }) => grade && grade.score > 0.5)
      .sort((a, b) => b.grade.score - a.grade.score);
    const sure = items.filter(({ grade }) => grade.score >= 0.9);
    return {
      status: 200,
      body: {
        number_of_results: items.length,
        items: items.map(({ org, grade }) => ({
          substring: asked,
          score: grade.score,
          matching_type: grade.matching_type,
          chosen: sure.length === 1 && sure[0]?.org === org,
          organization: org,
        })),
      },
    };
  }
  const id = ROR_ID.exec(asked.trim())?.[1];
  const hits = id
    ? rorRecords().filter((org) => org.id.endsWith(`/${id}`))
    : rorRecords().filter((org) => (anyStatus || org.status === "active") && found(org, asked));
  const page = Number(params.get("page") ?? 1);
  if (!Number.isInteger(page) || page < 1 || page > 500)
    return { status: 200, body: { errors: [`page parameter: ${params.get("page")} must be an integer between 1 and 500`] } };
  return {
    status: 200,
    body: {
      number_of_results: hits.length,
      time_taken: 1,
      items: hits.slice((page - 1) * PAGE, page * PAGE),
      meta: {
        types: facet(hits, (org) => org.types),
        countries: facet(hits, (org) => org.locations.map((l) => l.geonames_details.country_code)),
        continents: facet(hits, (org) => org.locations.map((l) => l.geonames_details.continent_name)),
        statuses: facet(hits, (org) => [org.status]),
      },
    },
  };
}
