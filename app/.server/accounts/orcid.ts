import { createRemoteJWKSet, jwtVerify } from "jose";
import { env } from "~/.server/bindings";
import { config, configProblems } from "~/.server/config/config";
import { describeError, logEvent } from "~/.server/observability/log";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { base64url, fromBase64url, hmac, newToken, sha256Hex, signedUnder } from "~/.server/security/crypto";
import { allowRequest } from "~/.server/security/rate-limit";
import { normalizeDoi, normalizeOrcid } from "~/lib/identifiers";
import { ORCID_NAME_MAX } from "~/lib/limits";
import type { OrcidWork } from "~/lib/shapes";

// Sign in with ORCID (docs/decisions/0041-orcid.md): OAuth 2.0's authorization code with OpenID
// Connect's `openid` scope. The trip (a random state and nonce, what it is for, when it began) is
// kept only in the browser's cookie, signed under the pepper, so starting one writes nothing; the
// callback takes it once (its answer clears the cookie, and ORCID takes a code once), and the
// nonce comes back inside the id_token ORCID signs, which is checked against ORCID's published
// keys. The iD is only ever what ORCID says.

/** How long a trip to ORCID may take. */
export const ORCID_STATE_MS = 10 * 60 * 1000;
/** How long an iD without an account waits for its sign-up. */
export const ORCID_SIGNUP_MS = 30 * 60 * 1000;
/** How long ORCID may take to answer a token or works request. */
const ORCID_TIMEOUT_MS = 10_000;
/** The longest page a trip comes back to (past it, home): the whole trip fits in one cookie. */
const ORCID_REDIRECT_MAX = 1000;

export type OrcidIntent = "login" | "link";

export interface OrcidIdentity {
  orcid: string;
  name: string;
}

export interface OrcidReturn extends OrcidIdentity {
  intent: OrcidIntent;
  userId: number | null;
  redirect: string | null;
}

/** A trip to ORCID under way, as the browser's cookie keeps it. */
export interface OrcidTrip {
  state: string;
  nonce: string;
  intent: OrcidIntent;
  userId: number | null;
  redirect: string | null;
  /** When it began. */
  at: number;
}

function client() {
  const orcid = config().orcid;
  if (!orcid) throw new Refused("notify.orcidOff", { status: 404 });
  return orcid;
}

export const orcidEnabled = () => config().orcid !== null;

/** ORCID's origin, which the pages' forms may lead to (their policy's form-action); null when off or not configured. */
export function orcidOrigin(): string | null {
  const url = configProblems().length === 0 ? config().orcid?.url : undefined;
  return url ? new URL(url).origin : null;
}

/** Where ORCID sends the member back: registered with the client as `{origin}/auth/orcid/callback`. */
export const orcidRedirectUri = (origin: string) => `${origin}/auth/orcid/callback`;

const tripMac = (secret: string, payload: string) => hmac(`orcid-trip:${secret}`, payload);

/**
 * Starts a trip to ORCID, at most AUTH_LIMITER's number a minute from one client address: the
 * address to send the browser to, and the trip for its cookie (signed; nothing is stored).
 */
export async function startOrcid(
  input: { intent: OrcidIntent; userId: number | null; redirect: string | null; origin: string; client: string },
  now: number,
): Promise<{ location: string; cookie: string }> {
  const { clientId, url } = client();
  if (!(await allowRequest(env.AUTH_LIMITER, `orcid:${input.client}`))) throw new Refused("validation.rateLimited", { status: 429 });
  const trip: OrcidTrip = {
    state: newToken(),
    nonce: newToken(),
    intent: input.intent,
    userId: input.userId,
    redirect: input.redirect && input.redirect.length <= ORCID_REDIRECT_MAX ? input.redirect : null,
    at: now,
  };
  const payload = base64url(new TextEncoder().encode(JSON.stringify(trip)));
  const location = new URL(`${url}/oauth/authorize`);
  location.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    scope: "openid",
    redirect_uri: orcidRedirectUri(input.origin),
    state: trip.state,
    nonce: trip.nonce,
  }).toString();
  return { location: location.href, cookie: `${payload}.${base64url(await tripMac(config().pepper.secret, payload))}` };
}

/** The trip a cookie holds, when it is one this site signed (under the pepper or an older one). */
async function tripOf(cookie: string | undefined): Promise<OrcidTrip | null> {
  const [payload = "", signature = ""] = (cookie ?? "").split(".");
  if (!(await signedUnder(config().pepper.byId.values(), signature, (secret) => tripMac(secret, payload)))) return null;
  try {
    return JSON.parse(new TextDecoder().decode(fromBase64url(payload)));
  } catch {
    return null; // signed by us, so never expected: no trip all the same
  }
}

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** Why a return from ORCID was refused, for the log (the member reads one sentence for all of them). */
function refuse(reason: string, detail?: unknown): never {
  logEvent("warn", "orcid.refused", { reason, ...(detail ? { detail: describeError(detail) } : {}) });
  throw new Refused("notify.orcidFailed");
}

/**
 * The trip this browser started that the callback's query comes back from (its state), begun
 * within ten minutes; else refused. Only then is the callback this browser's own trip.
 */
export async function orcidTrip(query: URLSearchParams, cookie: string | undefined, now: number): Promise<OrcidTrip> {
  const trip = await tripOf(cookie);
  if (!trip) refuse("no trip of ours in this browser");
  const state = query.get("state") ?? "";
  if (!state || state !== trip.state) refuse("state does not match the browser's");
  if (now - trip.at > ORCID_STATE_MS) refuse("state expired");
  return trip;
}

/**
 * Finishes this browser's trip (`orcidTrip`): the code is exchanged (a second use of it is
 * refused there) and the id_token's signature, issuer, audience, expiry, subject and nonce are checked.
 */
export async function finishOrcid(query: URLSearchParams, trip: OrcidTrip, origin: string, now: number): Promise<OrcidReturn> {
  const { clientId, clientSecret, url } = client();
  if (query.get("error")) throw new Refused("notify.orcidDenied");
  const code = query.get("code");
  if (!code) refuse("no code");

  let answer: { orcid?: string; name?: string; id_token?: string };
  try {
    const response = await fetch(`${url}/oauth/token`, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: clientId,
        client_secret: clientSecret,
        grant_type: "authorization_code",
        code,
        redirect_uri: orcidRedirectUri(origin),
      }),
      signal: AbortSignal.timeout(ORCID_TIMEOUT_MS),
    });
    if (!response.ok) refuse(`token endpoint answered ${response.status}`, await response.text());
    answer = await response.json();
  } catch (error) {
    if (error instanceof Refused) throw error;
    refuse("token endpoint unreachable", error);
  }
  if (!answer.id_token) refuse("no id_token");
  const jwks = jwksByUrl.get(url) ?? createRemoteJWKSet(new URL(`${url}/oauth/jwks`), { timeoutDuration: ORCID_TIMEOUT_MS });
  jwksByUrl.set(url, jwks);
  let claims: { sub?: string; nonce?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(answer.id_token, jwks, { issuer: url, audience: clientId, currentDate: new Date(now) }));
  } catch (error) {
    refuse("id_token not valid", error);
  }
  if (claims.nonce !== trip.nonce) refuse("nonce does not match");
  const orcid = normalizeOrcid(claims.sub ?? "");
  if (!orcid || (answer.orcid && normalizeOrcid(answer.orcid) !== orcid)) refuse("id_token names another iD");
  const name = (answer.name ?? "").trim().slice(0, ORCID_NAME_MAX) || orcid;
  return { intent: trip.intent, userId: trip.userId, redirect: trip.redirect, orcid, name };
}

/**
 * Links an authenticated iD to a member. The same iD again changes nothing; an iD another account
 * holds is refused (the unique index decides, so two accounts linking one iD at once cannot both
 * win), and so is a second iD while one is linked.
 */
export async function linkOrcid(userId: number, identity: OrcidIdentity, now: number) {
  try {
    const linked = await env.DB.prepare(
      "UPDATE users SET orcid = ?1, orcid_name = ?2, orcid_linked_at = ?3 WHERE id = ?4 AND (orcid IS NULL OR orcid = ?1) RETURNING id",
    )
      .bind(identity.orcid, identity.name, now, userId)
      .first();
    if (!linked) throw new Refused("notify.orcidOtherLinked", { status: 409 });
  } catch (error) {
    if (error instanceof Error && /UNIQUE/i.test(error.message)) throw new Refused("notify.orcidTaken", { status: 409 });
    throw error;
  }
}

/** Links the iD a "link" trip brought back, for the member who started it: anyone else (a trip finished in another session) is refused. */
export async function linkReturned(memberId: number | undefined, back: OrcidReturn, now: number) {
  if (memberId === undefined || memberId !== back.userId) throw new Refused("notify.orcidFailed");
  await linkOrcid(memberId, back, now);
}

/** What Settings shows of a member's ORCID link, and whether they have a password besides. */
export const orcidLinkRead = (userId: number): Read<{ orcid: string | null; name: string | null; hasPassword: boolean }> => ({
  statements: [env.DB.prepare("SELECT orcid, orcid_name, password_hash <> '' AS has_password FROM users WHERE id = ?").bind(userId)],
  decode: ([found]) => {
    const row = found?.results[0] as { orcid: string | null; orcid_name: string | null; has_password: number } | undefined;
    return { orcid: row?.orcid ?? null, name: row?.orcid_name ?? null, hasPassword: row?.has_password === 1 };
  },
});

/** Unlinks the member's iD, unless it is their only way in (no password): then refused, nothing changed. */
export async function unlinkOrcid(userId: number) {
  const done = await env.DB.prepare(
    "UPDATE users SET orcid = NULL, orcid_name = NULL, orcid_linked_at = NULL WHERE id = ? AND password_hash <> '' RETURNING id",
  )
    .bind(userId)
    .first();
  if (!done) throw new Refused("notify.orcidOnlyWayIn", { status: 409 });
}

/** The account an iD signs in to (null: none yet, so sign-up may begin with it). */
export const accountOfOrcid = (orcid: string) =>
  env.DB.prepare("SELECT id, suspended_reason FROM users WHERE orcid = ?")
    .bind(orcid)
    .first<{ id: number; suspended_reason: string | null }>();

/** Keeps an authenticated iD without an account for its sign-up; the token goes in the browser's cookie. */
export async function beginOrcidSignup(identity: OrcidIdentity, now: number): Promise<string> {
  const token = newToken();
  await env.DB.prepare("INSERT INTO orcid_signups (token_hash, orcid, name, created_at) VALUES (?, ?, ?, ?)")
    .bind(await sha256Hex(token), identity.orcid, identity.name, now)
    .run();
  return token;
}

/** The iD a sign-up under way carries (null when there is none, or it is too old). */
export async function pendingOrcidSignup(token: string | undefined, now: number): Promise<OrcidIdentity | null> {
  if (!token) return null;
  return env.DB.prepare("SELECT orcid, name FROM orcid_signups WHERE token_hash = ? AND created_at > ?")
    .bind(await sha256Hex(token), now - ORCID_SIGNUP_MS)
    .first<OrcidIdentity>();
}

/** Spends a sign-up's token (the account is being made with its iD). */
export async function spendOrcidSignup(token: string, now: number): Promise<OrcidIdentity | null> {
  return env.DB.prepare("DELETE FROM orcid_signups WHERE token_hash = ? AND created_at > ? RETURNING orcid, name")
    .bind(await sha256Hex(token), now - ORCID_SIGNUP_MS)
    .first<OrcidIdentity>();
}

/** The works on a member's public ORCID record (title, year, DOI), as ORCID's public API lists them; a member with no iD linked is a 404. */
export async function orcidWorks(orcid: string | null): Promise<OrcidWork[]> {
  if (!orcid) throw new Refused("notify.orcidNotLinked", { status: 404 });
  const { apiUrl } = client();
  let body: {
    group?: Array<{
      "work-summary"?: Array<{
        "put-code"?: number;
        title?: { title?: { value?: string } };
        "publication-date"?: { year?: { value?: string } } | null;
        "external-ids"?: { "external-id"?: Array<{ "external-id-type"?: string; "external-id-value"?: string }> };
      }>;
    }>;
  };
  try {
    const response = await fetch(`${apiUrl}/${orcid}/works`, {
      headers: { Accept: "application/json" },
      signal: AbortSignal.timeout(ORCID_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`works answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    logEvent("warn", "orcid.works_unavailable", { error: describeError(error) });
    throw new Refused("notify.orcidWorksUnavailable", { status: 502 });
  }
  const works: OrcidWork[] = [];
  for (const group of body.group ?? []) {
    // A group is one work as several sources list it; the first summary is ORCID's preferred one.
    const summary = group["work-summary"]?.[0];
    const title = summary?.title?.title?.value?.trim();
    if (!summary || !title || typeof summary["put-code"] !== "number") continue;
    const doi = summary["external-ids"]?.["external-id"]?.find((id) => id["external-id-type"] === "doi")?.["external-id-value"];
    const year = Number(summary["publication-date"]?.year?.value);
    works.push({
      putCode: summary["put-code"],
      title,
      year: Number.isInteger(year) && year > 999 ? year : null,
      doi: doi ? normalizeDoi(doi) : null,
    });
  }
  return works;
}
