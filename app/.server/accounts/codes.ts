import { env } from "~/.server/bindings";
import { newCode, sha256Hex } from "~/.server/security/crypto";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export type CodePurpose = "register" | "reset";
export type CodeCheck = "ok" | "invalid" | "expired" | "exhausted";

const codeHash = (pepper: string, email: string, purpose: CodePurpose, code: string) =>
  sha256Hex(`${pepper}:${purpose}:${email.toLowerCase()}:${code}`);

/** A new code for this email and purpose, replacing any older one; at most one a minute. */
export async function issueCode(pepper: string, email: string, purpose: CodePurpose, now: number) {
  const db = env.DB;
  const last = await db
    .prepare("SELECT created_at FROM verification_codes WHERE email = ? AND purpose = ?")
    .bind(email, purpose)
    .first<{ created_at: number }>();
  if (last && now - last.created_at < CODE_RESEND_MS) {
    return { ok: false as const, retryAfter: Math.ceil((last.created_at + CODE_RESEND_MS - now) / 1000) };
  }
  const code = newCode();
  await db
    .prepare(
      "INSERT OR REPLACE INTO verification_codes (email, purpose, code_hash, created_at, expires_at, attempts) VALUES (?, ?, ?, ?, ?, 0)",
    )
    .bind(email, purpose, await codeHash(pepper, email, purpose, code), now, now + CODE_TTL_MS)
    .run();
  return { ok: true as const, code };
}

/**
 * Checks a code once. Counting the attempt and checking that one is left are a single statement,
 * done before the comparison, so at most CODE_MAX_ATTEMPTS guesses are ever compared whatever the
 * concurrency; a right code is used up by a single conditional delete, so only one request can
 * spend it.
 */
export async function consumeCode(pepper: string, email: string, purpose: CodePurpose, code: string, now: number): Promise<CodeCheck> {
  const db = env.DB;
  const claimed = await db
    .prepare(
      `UPDATE verification_codes SET attempts = attempts + 1
       WHERE email = ? AND purpose = ? AND attempts < ? AND expires_at > ? RETURNING code_hash, attempts`,
    )
    .bind(email, purpose, CODE_MAX_ATTEMPTS, now)
    .first<{ code_hash: string; attempts: number }>();
  const remove = (condition = "") =>
    db.prepare(`DELETE FROM verification_codes WHERE email = ? AND purpose = ?${condition} RETURNING expires_at`);
  if (!claimed) {
    // No attempt left to take: say why, and drop the code if it can no longer be used (not one a
    // new request has just put in its place).
    const gone = await remove(" AND (attempts >= ? OR expires_at <= ?)")
      .bind(email, purpose, CODE_MAX_ATTEMPTS, now)
      .first<{ expires_at: number }>();
    if (!gone) return "invalid";
    return gone.expires_at <= now ? "expired" : "exhausted";
  }
  if (claimed.code_hash === (await codeHash(pepper, email, purpose, code))) {
    const spent = await remove(" AND code_hash = ?").bind(email, purpose, claimed.code_hash).first<{ expires_at: number }>();
    return spent ? "ok" : "invalid";
  }
  if (claimed.attempts >= CODE_MAX_ATTEMPTS) {
    await remove().bind(email, purpose).run();
    return "exhausted";
  }
  return "invalid";
}
