import { z } from "zod";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { joinChunks } from "~/.server/http/body";
import { describeError, logEvent } from "~/.server/observability/log";
import { attempt, Refused } from "~/.server/refused";
import { ROR_QUERY_MAX, ROR_RECORD_MAX_BYTES } from "~/lib/limits";
import type { Organisation } from "~/lib/organisation";

// Organisations by the Research Organization Registry (docs/decisions/0052): its v2 API asked
// within one deadline and a size limit, its answers read through a schema that keeps what is shown
// here. A slow or failing registry is said so to the member, who may keep the name as typed.

/** The member waits at the form: the registry answers within a second; later, they are told to try again. */
export const ROR_DEADLINE_MS = 4_000;
/** A page of 20 records is some 100 KB; more is not an answer this uses. */
export const ROR_ANSWER_MAX_BYTES = 2_000_000;
/** A ROR identifier as the registry writes it. */
export const ROR_ID = /^https:\/\/ror\.org\/0[a-hj-km-np-tv-z0-9]{6}[0-9]{2}$/;

const name = z.object({ value: z.string().min(1).max(500), types: z.array(z.string()), lang: z.string().nullable().catch(null) });
const record = z.object({
  id: z.string().regex(ROR_ID),
  names: z.array(name).min(1),
  status: z.enum(["active", "inactive", "withdrawn"]),
  types: z.array(z.string()).catch([]),
  locations: z.array(z.object({ geonames_details: z.object({ country_name: z.string().nullable().catch(null) }) })).catch([]),
  relationships: z.array(z.object({ type: z.string(), id: z.string(), label: z.string() })).catch([]),
});

function organisationOf(raw: z.infer<typeof record>, reader: string): Organisation {
  const display = raw.names.find((n) => n.types.includes("ror_display")) ?? raw.names[0];
  const label = raw.names.find((n) => n.lang === reader && n.types.includes("label") && n.value !== display?.value);
  return {
    id: raw.id,
    name: display?.value ?? raw.id,
    label: label?.value ?? null,
    acronym: raw.names.find((n) => n.types.includes("acronym"))?.value ?? null,
    country: raw.locations[0]?.geonames_details.country_name ?? null,
    status: raw.status,
    successors: raw.relationships.filter((r) => r.type === "successor" && ROR_ID.test(r.id)).map(({ id, label }) => ({ id, label })),
  };
}

/** The registry's answer at `path`, as JSON; null for a 404. Refused when it is slow, failing or too large. */
async function rorGet(path: string): Promise<unknown> {
  const url = `${config().rorApiUrl}${path}`;
  try {
    const answer = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(ROR_DEADLINE_MS) });
    if (answer.status === 404) return null;
    if (!answer.ok || !answer.body) throw new Error(`the registry answered ${answer.status}`);
    const reader = answer.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > ROR_ANSWER_MAX_BYTES) {
        await reader.cancel();
        throw new Error("the registry's answer is too large");
      }
      chunks.push(value);
    }
    return JSON.parse(new TextDecoder().decode(joinChunks(chunks, size)));
  } catch (error) {
    const slow = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    logEvent("warn", "ror.failed", { path, error: describeError(error) });
    throw new Refused(slow ? "ror.slow" : "ror.down", { status: slow ? 504 : 502 });
  }
}

/** Organisations whose names hold the query's words (the registry's search, its first page), active first. */
export async function findOrganisations(query: string, reader: string): Promise<Organisation[]> {
  const answer = z
    .object({ items: z.array(z.unknown()).catch([]) })
    .catch({ items: [] })
    .parse(await rorGet(`/organizations?query=${encodeURIComponent(query)}`));
  return answer.items.flatMap((item) => {
    const read = record.safeParse(item);
    return read.success ? [organisationOf(read.data, reader)] : [];
  });
}

/** A page's search of the registry (`?ror=` on Settings and the funding page): what it found for the words, or why it could not say. */
export async function registrySearch(typed: string | null, reader: string) {
  const query = typed?.trim().slice(0, ROR_QUERY_MAX) ?? "";
  if (!query) return { query, found: null, problem: null };
  const found = await attempt(() => findOrganisations(query, reader));
  return found instanceof Refused ? { query, found: null, problem: found.key } : { query, found, problem: null };
}

/** An organisation the registry holds, with the statement that keeps its record as the registry gave it. */
export interface CheckedOrganisation extends Organisation {
  /**
   * Stores the record (`ror_records`), to go in the same batch as what names it; with `onlyIf` (SQL
   * whose binds follow the id, record, names, time and name: ?6 on), only when that holds, so a refused write keeps none.
   */
  remember: (now: number, onlyIf?: { sql: string; binds: unknown[] }) => D1PreparedStatement;
}

/** One organisation by its ROR id, or null when the registry has none. */
export async function organisationById(id: string, reader: string): Promise<CheckedOrganisation | null> {
  if (!ROR_ID.test(id)) return null;
  const raw = await rorGet(`/organizations/${id.slice("https://ror.org/".length)}`);
  const read = record.safeParse(raw);
  if (!read.success || read.data.id !== id) return null;
  const json = JSON.stringify(raw);
  if (new TextEncoder().encode(json).byteLength > ROR_RECORD_MAX_BYTES) {
    logEvent("warn", "ror.failed", { path: id, error: "the record is too large" });
    throw new Refused("ror.down", { status: 502 });
  }
  // Every name it has, in any language, acronyms too: member search finds the organisation by each.
  const names = [...new Set(read.data.names.map((n) => n.value))].join(" ");
  const organisation = organisationOf(read.data, reader);
  return {
    ...organisation,
    remember: (now, onlyIf) =>
      env.DB.prepare(
        `INSERT INTO ror_records (ror_id, record, names, checked_at, name) SELECT ?1, ?2, ?3, ?4, ?5 WHERE ${onlyIf?.sql ?? "true"}
         ON CONFLICT (ror_id) DO UPDATE SET record = excluded.record, name = excluded.name, names = excluded.names, checked_at = excluded.checked_at`,
      ).bind(id, json, names, now, organisation.name, ...(onlyIf?.binds ?? [])),
  };
}
