import { env } from "~/.server/bindings";
import { newToken, sha256Hex } from "~/.server/security/crypto";
import { SESSION_IDLE_MS } from "~/lib/config";

/** Absolute lifetime of a session, whatever its activity (docs/decisions/0006-accounts-and-sessions.md). */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** Reading pages refreshes last-seen at most this often, so browsing is not a D1 write per request. */
export const SESSION_TOUCH_MS = 60 * 1000;

export interface SessionUser {
  id: number;
  email: string;
  account_type: 1 | 2;
  kind: "individual" | "facilitator";
  nick_name: string;
  organisation: string | null;
  image: string | null;
  language: string;
  membership: string;
  /** Roles granted by an operator (auth/roles.ts); empty for most members. */
  roles: string[];
  /** The ORCID iD the member linked by signing in to ORCID. */
  orcid: string | null;
}

export type SessionLookup = { status: "valid"; user: SessionUser } | { status: "expired" } | { status: "none" };

export async function createSession(userId: number, now: number): Promise<string> {
  const token = newToken();
  await env.DB.prepare("INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(await sha256Hex(token), userId, now, now, now + SESSION_ABSOLUTE_MS)
    .run();
  return token;
}

/** How a session is stored (and named to the live sockets): the SHA-256 of its token. */
export const sessionHash = (token: string) => sha256Hex(token);

/** The member behind a token, sliding the idle timeout; an idle or too old session is ended. */
export async function findSession(token: string | null | undefined, now: number): Promise<SessionLookup> {
  if (!token) return { status: "none" };
  return findSessionByHash(await sessionHash(token), now);
}

/** findSession for a stored session's hash (the live sockets keep the hash, never the token). */
export async function findSessionByHash(hash: string, now: number): Promise<SessionLookup> {
  const db = env.DB;
  const row = await db
    .prepare(
      `SELECT s.last_seen_at, s.expires_at, u.id, u.email, u.account_type, u.kind, u.nick_name, u.organisation, u.image, u.language, u.membership, u.orcid,
         (SELECT group_concat(role) FROM member_roles WHERE user_id = u.id) AS roles
       FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ? AND u.suspended_reason IS NULL`,
    )
    .bind(hash)
    .first<Omit<SessionUser, "roles"> & { last_seen_at: number; expires_at: number; roles: string | null }>();
  if (!row) return { status: "none" };
  if (now - row.last_seen_at > SESSION_IDLE_MS || now >= row.expires_at) {
    await db.prepare("DELETE FROM sessions WHERE token_hash = ?").bind(hash).run();
    return { status: "expired" };
  }
  if (now - row.last_seen_at > SESSION_TOUCH_MS) {
    await db.prepare("UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?").bind(now, hash).run();
  }
  const { last_seen_at: _seen, expires_at: _expires, roles, ...user } = row;
  return { status: "valid", user: { ...user, roles: roles ? roles.split(",") : [] } };
}

/** Ends one session; answers whose it was (null when it had already ended). */
export async function revokeSession(token: string): Promise<{ userId: number; hash: string } | null> {
  const hash = await sessionHash(token);
  const row = await env.DB.prepare("DELETE FROM sessions WHERE token_hash = ? RETURNING user_id").bind(hash).first<{ user_id: number }>();
  return row ? { userId: row.user_id, hash } : null;
}

export function revokeAllSessions(userId: number) {
  return env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(userId);
}
