import type { HarvestQuery } from "~/.server/content/harvest";

// OAI-PMH 2.0's request rules (the protocol's sections 3.1 and 4): which arguments each verb takes,
// the datestamps it accepts, and resumption tokens. Pure, so every rule is proved without a server.

export const VERBS = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ["identifier"] },
  ListSets: { required: [], optional: [], resumable: true },
  ListIdentifiers: { required: ["metadataPrefix"], optional: ["from", "until", "set"], resumable: true },
  ListRecords: { required: ["metadataPrefix"], optional: ["from", "until", "set"], resumable: true },
  GetRecord: { required: ["identifier", "metadataPrefix"], optional: [] },
} as const satisfies Record<string, { required: readonly string[]; optional: readonly string[]; resumable?: true }>;

export type Verb = keyof typeof VERBS;

export type OaiErrorCode =
  | "badArgument"
  | "badResumptionToken"
  | "badVerb"
  | "cannotDisseminateFormat"
  | "idDoesNotExist"
  | "noRecordsMatch"
  | "noMetadataFormats"
  | "noSetHierarchy";

export class OaiError extends Error {
  constructor(
    readonly code: OaiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A request whose verb and arguments are legal (what each argument means is checked by its verb). */
export interface OaiRequest {
  verb: Verb;
  args: Record<string, string>;
}

/** The verb and its arguments, or the error that says why not (a repeated or unknown argument is badArgument). */
export function parseRequest(params: URLSearchParams): OaiRequest {
  const verbs = params.getAll("verb");
  const verb = verbs[0];
  if (verbs.length !== 1 || !verb || !Object.hasOwn(VERBS, verb)) throw new OaiError("badVerb", "No such verb, or not one verb.");
  const rules: { required: readonly string[]; optional: readonly string[]; resumable?: true } = VERBS[verb as Verb];
  const args: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name === "verb") continue;
    if (Object.hasOwn(args, name)) throw new OaiError("badArgument", `${name} is repeated.`);
    args[name] = value;
  }
  const names = Object.keys(args);
  if (rules.resumable && "resumptionToken" in args) {
    if (names.length > 1) throw new OaiError("badArgument", "resumptionToken is an exclusive argument.");
    return { verb: verb as Verb, args };
  }
  const unknown = names.find((name) => !rules.required.includes(name) && !rules.optional.includes(name));
  if (unknown) throw new OaiError("badArgument", `${verb} takes no argument ${unknown}.`);
  const absent = rules.required.find((name) => !(name in args));
  if (absent) throw new OaiError("badArgument", `${verb} needs ${absent}.`);
  return { verb: verb as Verb, args };
}

/** The repository's datestamps: UTC to the second (what Identify says as its granularity). */
export const datestamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/**
 * A `from` or `until` argument as the first millisecond it names and the first one after it: a day
 * (YYYY-MM-DD) or a second (YYYY-MM-DDThh:mm:ssZ), a real one.
 */
function parseStamp(value: string, name: string): { start: number; end: number; day: boolean } {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  if (!day && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value)) throw new OaiError("badArgument", `${name} is not a datestamp.`);
  const start = Date.parse(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(start) || datestamp(start).slice(0, value.length - (day ? 0 : 1)) !== value.replace(/Z$/, "")) {
    throw new OaiError("badArgument", `${name} is not a date.`);
  }
  return { start, end: start + (day ? 86_400_000 : 1000), day };
}

/** The sets: one per goal and one per kind, each under its parent. */
export const SETS = ["sdg", ...Array.from({ length: 17 }, (_, i) => `sdg:${i + 1}`), "kind", "kind:document", "kind:video"];

/** A list request's arguments as a harvest: its time window and set; a set nobody has matches no record. */
export function harvestQuery(args: Record<string, string>, after: number): HarvestQuery {
  const from = args.from === undefined ? null : parseStamp(args.from, "from");
  const until = args.until === undefined ? null : parseStamp(args.until, "until");
  if (from && until && from.day !== until.day) throw new OaiError("badArgument", "from and until have different granularities.");
  const set = args.set;
  if (set !== undefined && !SETS.includes(set)) throw new OaiError("noRecordsMatch", "No such set.");
  const [parent, child] = set?.split(":") ?? [];
  return {
    after,
    from: from?.start ?? null,
    until: until?.end ?? null,
    set: !child ? null : parent === "sdg" ? { sdg: Number(child) } : { kind: child as "document" | "video" },
  };
}

/** Where a list resumes: the request's own arguments, the last id given and how many came before. */
export interface Resumption {
  verb: Verb;
  args: Record<string, string>;
  after: number;
  cursor: number;
}

const base64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

/** A token that holds the whole request and where it stopped, so it never expires and survives new items. */
export const resumptionToken = (resumption: Resumption) =>
  base64url(JSON.stringify([resumption.verb, resumption.args, resumption.after, resumption.cursor]));

/** The resumption a token holds, for the verb it was given with; anything else is badResumptionToken. */
export function parseToken(token: string, verb: Verb): Resumption {
  const bad = () => new OaiError("badResumptionToken", "The resumption token is not one this repository gave.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(atob(token.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw bad();
  const [tokenVerb, args, after, cursor] = parsed as unknown[];
  if (tokenVerb !== verb || !Number.isSafeInteger(after) || !Number.isSafeInteger(cursor) || (cursor as number) < 0) throw bad();
  if (typeof args !== "object" || args === null || Array.isArray(args)) throw bad();
  const entries = Object.entries(args);
  if (entries.some(([name, value]) => name === "resumptionToken" || name === "verb" || typeof value !== "string")) throw bad();
  // The arguments a token holds are checked as if they were sent again.
  const params = new URLSearchParams([["verb", verb], ...(entries as [string, string][])]);
  try {
    return { ...parseRequest(params), after: after as number, cursor: cursor as number };
  } catch {
    throw bad();
  }
}
