import { type DeployEnvironment, type SETTING_NAMES, SETTINGS } from "./schema";

// Turns raw bindings into the checked configuration, or the list of what is wrong. Pure, so the
// tests (and docs/configuration.md's test) can run it on any set of values.

export interface Config {
  appEnv: DeployEnvironment;
  mail: { provider: "outbox" } | { provider: "http"; apiUrl: string; apiKey: string; from: string };
  /** The current pepper and its id, and every pepper a stored hash may name. */
  pepper: { id: string; secret: string; byId: ReadonlyMap<string, string> };
  /** Where a suspended member can appeal (named in the suspension mail and the refused sign-in). */
  appealAddress: string;
  /** The site's origin, for links in mail that no request asked for (a digest). */
  siteUrl: string;
  /** The label set the membership levels are shown with. */
  membershipLabels: "standard" | "sponsor";
  /** Whether owners may open their items' records to anonymous readers (OPEN_RECORDS; decision 0049). */
  openRecords: boolean;
  /** How many records an OAI-PMH list answer holds (OAI_LIST_SIZE). */
  oaiListSize: number;
  /** The conferencing provider: Jitsi Meet at an origin, or Zoom with its credentials. */
  meetings: {
    /** Where new meetings are held. */
    provider: "jitsi" | "zoom";
    /** Jitsi Meet's origin (meetings made on Jitsi stay there whatever the provider becomes). */
    jitsiOrigin: string;
    zoom: { accountId: string; clientId: string; clientSecret: string } | null;
  };
  /** Sign-in with ORCID and its public API, when a client is configured (null: no ORCID buttons). */
  orcid: { clientId: string; clientSecret: string; url: string; apiUrl: string } | null;
  /** The DOI resolver forms are filled from. */
  doiResolverUrl: string;
  /** The Research Organization Registry's v2 API (decision 0052). */
  rorApiUrl: string;
  /** The Workers AI model new videos are transcribed by (through the AI binding), or null: no automatic captions. */
  speechToText: { model: string } | null;
  /** The Workers AI model owners may ask for a translation's suggestion from (through the AI binding), or null: none. */
  translation: { model: string } | null;
  /** The text shards bound (TEXT_1, TEXT_2, ... as 1, 2, ...), in order (decision 0045). */
  textShards: number[];
}

export interface ConfigProblem {
  name: string;
  problem: string;
}

// Local runs need no secrets; scripts/demo-data.mjs hashes the demo passwords with the same value.
// Only local builds contain the value (a deployed build has the empty string here).
const LOCAL_PEPPER = __LOCAL_BUILD__ ? "local-development-pepper" : "";

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/** Checks raw bindings against the schema and the deployment's rules. Pure: tests call it directly. */
export function parseConfig(raw: Record<string, unknown>, localBuild: boolean): ConfigResult {
  const problems: ConfigProblem[] = [];
  const value = (name: (typeof SETTING_NAMES)[number]) => {
    const given = raw[name];
    if (given === undefined || given === "") return undefined;
    const parsed = SETTINGS[name].schema.safeParse(given);
    if (parsed.success) return parsed.data as string;
    problems.push({ name, problem: parsed.error.issues[0]?.message ?? "invalid" });
    return undefined;
  };
  const absent = (name: string) => raw[name] === undefined || raw[name] === "";
  const missing = (name: string, why: string) => problems.push({ name, problem: `missing (${why})` });

  const appEnv = value("APP_ENV") as DeployEnvironment | undefined;
  if (absent("APP_ENV")) missing("APP_ENV", "always required");
  if (appEnv && localBuild !== (appEnv === "local")) {
    problems.push({
      name: "APP_ENV",
      problem: localBuild
        ? `is ${appEnv}, but this is a local build: build with CLOUDFLARE_ENV=${appEnv}`
        : "is local, but this is a deployed build: local settings never run in preview or production",
    });
  }

  const provider = value("MAIL_PROVIDER");
  if (absent("MAIL_PROVIDER")) missing("MAIL_PROVIDER", "always required");
  if (provider === "outbox" && !localBuild) {
    problems.push({ name: "MAIL_PROVIDER", problem: "is outbox, which only local builds have: set it to http" });
  }
  const apiUrl = value("MAIL_API_URL");
  const from = value("MAIL_FROM");
  const apiKey = value("MAIL_API_KEY");
  if (provider === "http") {
    if (absent("MAIL_API_URL")) missing("MAIL_API_URL", "MAIL_PROVIDER is http");
    if (absent("MAIL_FROM")) missing("MAIL_FROM", "MAIL_PROVIDER is http");
    if (absent("MAIL_API_KEY")) missing("MAIL_API_KEY", "MAIL_PROVIDER is http");
  }

  const orcidId = value("ORCID_CLIENT_ID");
  const orcidSecret = value("ORCID_CLIENT_SECRET");
  // Half a client is a mistake, not "off": said by name, like every missing setting.
  if (absent("ORCID_CLIENT_ID") && !absent("ORCID_CLIENT_SECRET")) missing("ORCID_CLIENT_ID", "ORCID_CLIENT_SECRET is set");
  if (absent("ORCID_CLIENT_SECRET") && !absent("ORCID_CLIENT_ID")) missing("ORCID_CLIENT_SECRET", "ORCID_CLIENT_ID is set");

  let pepper = value("PASSWORD_PEPPER");
  if (absent("PASSWORD_PEPPER")) {
    if (localBuild) pepper = LOCAL_PEPPER;
    else missing("PASSWORD_PEPPER", "required in preview and production");
  }
  const pepperId = value("PASSWORD_PEPPER_ID") ?? "1";
  const old = value("PASSWORD_OLD_PEPPERS");
  const byId = new Map<string, string>();
  for (const pair of old?.trim().split(/\s+/) ?? []) {
    const colon = pair.indexOf(":");
    byId.set(pair.slice(0, colon), pair.slice(colon + 1));
  }
  if (byId.has(pepperId)) problems.push({ name: "PASSWORD_OLD_PEPPERS", problem: `names the current PASSWORD_PEPPER_ID ${pepperId}` });

  if (!pepper && problems.length === 0) problems.push({ name: "PASSWORD_PEPPER", problem: "missing" });
  if (problems.length > 0 || !appEnv || !pepper) return { ok: false, problems };
  byId.set(pepperId, pepper);
  const mail: Config["mail"] =
    provider === "http" ? { provider, apiUrl: apiUrl ?? "", apiKey: apiKey ?? "", from: from ?? "" } : { provider: "outbox" };
  const membershipLabels = (value("MEMBERSHIP_LABELS") ?? "standard") as Config["membershipLabels"];
  const openRecords = value("OPEN_RECORDS") === "on";
  const oaiListSize = Number(value("OAI_LIST_SIZE") ?? 100);
  let appealAddress = value("APPEAL_ADDRESS");
  if (absent("APPEAL_ADDRESS")) {
    if (localBuild) appealAddress = "appeals@research-commons.test";
    else missing("APPEAL_ADDRESS", "required in preview and production");
  }
  let siteUrl = value("SITE_URL");
  if (absent("SITE_URL")) {
    if (localBuild) siteUrl = "http://127.0.0.1:8787";
    else missing("SITE_URL", "required in preview and production");
  }
  const zoomSecrets = ["ZOOM_ACCOUNT_ID", "ZOOM_CLIENT_ID", "ZOOM_CLIENT_SECRET"] as const;
  const meetingProvider = value("MEETING_PROVIDER") ?? "jitsi";
  if (meetingProvider === "zoom") for (const name of zoomSecrets) if (absent(name)) missing(name, "MEETING_PROVIDER is zoom");
  const [accountId = "", clientId = "", clientSecret = ""] = zoomSecrets.map((name) => value(name));
  const meetings: Config["meetings"] = {
    provider: meetingProvider === "zoom" ? "zoom" : "jitsi",
    jitsiOrigin: new URL(value("JITSI_URL") ?? "https://meet.jit.si").origin,
    zoom: accountId && clientId && clientSecret ? { accountId, clientId, clientSecret } : null,
  };
  const orcidUrl = (value("ORCID_URL") ?? "https://orcid.org").replace(/\/+$/, "");
  const sandbox = new URL(orcidUrl).hostname === "sandbox.orcid.org";
  const orcidApiUrl = (value("ORCID_API_URL") ?? `https://${sandbox ? "pub.sandbox" : "pub"}.orcid.org/v3.0`).replace(/\/+$/, "");
  const orcid = orcidId && orcidSecret ? { clientId: orcidId, clientSecret: orcidSecret, url: orcidUrl, apiUrl: orcidApiUrl } : null;
  const doiResolverUrl = (value("DOI_RESOLVER_URL") ?? "https://doi.org").replace(/\/+$/, "");
  const rorApiUrl = (value("ROR_API_URL") ?? "https://api.ror.org/v2").replace(/\/+$/, "");
  const speechModel = value("SPEECH_TO_TEXT_MODEL");
  // A model without the binding would queue work that can only fail: said at start, like a missing secret.
  if (speechModel && raw.AI === undefined) missing("AI", 'SPEECH_TO_TEXT_MODEL is set: add [ai] binding = "AI"');
  const translationModel = value("TRANSLATION_MODEL");
  if (translationModel && raw.AI === undefined) missing("AI", 'TRANSLATION_MODEL is set: add [ai] binding = "AI"');
  // The databases (decision 0045): the core, the statistics and at least one text shard, numbered from 1 without a gap.
  if (raw.DB === undefined) missing("DB", "the core database is always required");
  if (raw.STATS_DB === undefined) missing("STATS_DB", "the statistics database is always required");
  const textShards = Object.keys(raw)
    .flatMap((name) => (/^TEXT_[1-9]\d*$/.test(name) ? [Number(name.slice(5))] : []))
    .sort((a, b) => a - b);
  if (textShards.length === 0) missing("TEXT_1", "at least one text shard is required");
  else if (textShards.some((n, i) => n !== i + 1)) {
    problems.push({
      name: `TEXT_${textShards.findIndex((n, i) => n !== i + 1) + 1}`,
      problem: "missing: text shards are numbered from 1 without a gap",
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    config: {
      appEnv,
      mail,
      pepper: { id: pepperId, secret: pepper, byId },
      appealAddress: appealAddress ?? "",
      siteUrl: new URL(siteUrl ?? "http://127.0.0.1:8787").origin,
      membershipLabels,
      openRecords,
      oaiListSize,
      meetings,
      orcid,
      doiResolverUrl,
      rorApiUrl,
      speechToText: speechModel ? { model: speechModel } : null,
      translation: translationModel ? { model: translationModel } : null,
      textShards,
    },
  };
}
