import { hashPassword } from "~/.server/accounts/passwords";
import { createSession } from "~/.server/accounts/sessions";
import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { newFileKey } from "~/.server/storage/files";

// What the development-only routes (/dev/*) do; only local builds have those routes, so only they
// bundle this.

export interface DevMember {
  email?: string;
  nick_name?: string;
  account_type?: 1 | 2;
  kind?: "individual" | "facilitator";
  organisation?: string;
  password?: string;
}

/** The member with `email`, or a new one; with a new session's token. */
export async function devSession(input: DevMember, now: number) {
  const db = env.DB;
  let member = input.email
    ? await db.prepare("SELECT id, email FROM users WHERE email = ?").bind(input.email).first<{ id: number; email: string }>()
    : null;
  if (!member) {
    const email =
      input.email ?? `${(input.nick_name ?? "member").toLowerCase().replace(/\W/g, "")}-${crypto.randomUUID().slice(0, 8)}@e2e.test`;
    const hash = await hashPassword(input.password ?? "research-demo-2026", config().pepper);
    member = await db
      .prepare(
        `INSERT INTO users (email, password_hash, account_type, kind, nick_name, organisation, language, created_at)
         VALUES (?, ?, ?, ?, ?, ?, 'en', ?) RETURNING id, email`,
      )
      .bind(email, hash, input.account_type ?? 1, input.kind ?? "individual", input.nick_name ?? "Member", input.organisation ?? null, now)
      .first<{ id: number; email: string }>();
  }
  if (!member) return null;
  return { ...member, token: await createSession(member.id, now) };
}

/** A plain R2 put of `body` and its removal (the baseline `npm run bench` compares uploads with); its size. */
export async function plainPut(body: ReadableStream) {
  const key = newFileKey("files");
  const stored = await env.FILES.put(key, body);
  await env.FILES.delete(key);
  return stored?.size ?? 0;
}

/**
 * This week's digest of the member with `email`, built now whatever the hour on their clocks (the
 * cron sends it from 08:00): for browser tests of the mail itself. The same claim as the cron's, so
 * it is still sent once.
 */
export async function devDigest(email: string, now: number) {
  const { sendDigest } = await import("~/.server/notifications/digests");
  const member = await env.DB.prepare("SELECT id FROM users WHERE email = ? AND deleted_at IS NULL").bind(email).first<number>("id");
  if (member === null) return null;
  const day = new Date(now).toISOString().slice(0, 10);
  const monday = new Date(Date.parse(`${day}T00:00:00Z`) - ((new Date(now).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
  return sendDigest(member, `weekly:${monday}`, now);
}
