import { createRemoteJWKSet, jwtVerify } from "jose";
import { env } from "~/.server/bindings";
import { config, configProblems } from "~/.server/config/config";
import { describeError, logEvent } from "~/.server/observability/log";
import type { Read } from "~/.server/reads";
import { Refused } from "~/.server/refused";
import { normalizeDoi, normalizeOrcid } from "~/lib/identifiers";
import { ORCID_NAME_MAX } from "~/lib/limits";
import type { OrcidWork } from "~/lib/shapes";
import { newToken, sha256Hex } from "./crypto";

// Sign in with ORCID (docs/decisions/0041-orcid.md): OAuth 2.0's authorization code with OpenID
// Connect's `openid` scope. The state is random, kept hashed in D1 and in the browser's cookie, and
// spent by the one callback that comes back with it; the nonce comes back inside the id_token ORCID
// signs, which is checked against ORCID's published keys. The iD is only ever what ORCID says.

/** How long a trip to ORCID may take. */
export const ORCID_STATE_MS = 10 * 60 * 1000;
/** How long an iD without an account waits for its sign-up. */
export const ORCID_SIGNUP_MS = 30 * 60 * 1000;
/** How long ORCID may take to answer a token or works request. */
const ORCID_TIMEOUT_MS = 10_000;

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

/** Starts a trip to ORCID: the address to send the browser to, and the state its cookie keeps. */
export async function startOrcid(
  input: { intent: OrcidIntent; userId: number | null; redirect: string | null; origin: string },
  now: number,
): Promise<{ location: string; state: string }> {
  const { clientId, url } = client();
  const state = newToken();
  const nonce = newToken();
  await env.DB.prepare("INSERT INTO orcid_states (state_hash, nonce, intent, user_id, redirect, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(await sha256Hex(state), nonce, input.intent, input.userId, input.redirect, now)
    .run();
  const location = new URL(`${url}/oauth/authorize`);
  location.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    scope: "openid",
    redirect_uri: orcidRedirectUri(input.origin),
    state,
    nonce,
  }).toString();
  return { location: location.href, state };
}

const jwksByUrl = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** Why a return from ORCID was refused, for the log (the member reads one sentence for all of them). */
function refuse(reason: string, detail?: unknown): never {
  logEvent("warn", "orcid.refused", { reason, ...(detail ? { detail: describeError(detail) } : {}) });
  throw new Refused("notify.orcidFailed");
}

/**
 * Finishes a trip: the callback's query, the state the browser's cookie kept. The state is spent
 * first (a second use of it, or of its code, is refused), then the code is exchanged and the
 * id_token's signature, issuer, audience, expiry, subject and nonce are checked.
 */
export async function finishOrcid(
  query: URLSearchParams,
  browserState: string | undefined,
  origin: string,
  now: number,
): Promise<OrcidReturn> {
  const { clientId, clientSecret, url } = client();
  const state = query.get("state") ?? "";
  if (!state || state !== browserState) refuse("state does not match the browser's");
  const row = await env.DB.prepare("DELETE FROM orcid_states WHERE state_hash = ? RETURNING nonce, intent, user_id, redirect, created_at")
    .bind(await sha256Hex(state))
    .first<{ nonce: string; intent: OrcidIntent; user_id: number | null; redirect: string | null; created_at: number }>();
  if (!row) refuse("state unknown or already used");
  if (now - row.created_at > ORCID_STATE_MS) refuse("state expired");
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
  if (claims.nonce !== row.nonce) refuse("nonce does not match");
  const orcid = normalizeOrcid(claims.sub ?? "");
  if (!orcid || (answer.orcid && normalizeOrcid(answer.orcid) !== orcid)) refuse("id_token names another iD");
  const name = (answer.name ?? "").trim().slice(0, ORCID_NAME_MAX) || orcid;
  return { intent: row.intent, userId: row.user_id, redirect: row.redirect, orcid, name };
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

/** The works on a member's public ORCID record (title, year, DOI), as ORCID's public API lists them. */
export async function orcidWorks(orcid: string): Promise<OrcidWork[]> {
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
