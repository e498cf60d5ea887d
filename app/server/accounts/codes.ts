import { newCode, sha256Hex } from "./crypto";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_MS = 60 * 1000;
export const CODE_MAX_ATTEMPTS = 5;

export type CodePurpose = "register" | "reset";
export type CodeCheck = "ok" | "invalid" | "expired" | "exhausted";

const codeHash = (pepper: string, email: string, purpose: CodePurpose, code: string) =>
  sha256Hex(`${pepper}:${purpose}:${email.toLowerCase()}:${code}`);

/** A new code for this email and purpose, replacing any older one; at most one a minute. */
export async function issueCode(db: D1Database, pepper: string, email: string, purpose: CodePurpose, now: number) {
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

/** Checks a code once: right codes are used up, wrong ones count, and the fifth wrong one ends the code. */
export async function consumeCode(
  db: D1Database,
  pepper: string,
  email: string,
  purpose: CodePurpose,
  code: string,
  now: number,
): Promise<CodeCheck> {
  const row = await db
    .prepare("SELECT code_hash, expires_at, attempts FROM verification_codes WHERE email = ? AND purpose = ?")
    .bind(email, purpose)
    .first<{ code_hash: string; expires_at: number; attempts: number }>();
  if (!row) return "invalid";
  const remove = db.prepare("DELETE FROM verification_codes WHERE email = ? AND purpose = ?").bind(email, purpose);
  if (now >= row.expires_at) {
    await remove.run();
    return "expired";
  }
  if (row.code_hash === (await codeHash(pepper, email, purpose, code))) {
    await remove.run();
    return "ok";
  }
  if (row.attempts + 1 >= CODE_MAX_ATTEMPTS) {
    await remove.run();
    return "exhausted";
  }
  await db.prepare("UPDATE verification_codes SET attempts = attempts + 1 WHERE email = ? AND purpose = ?").bind(email, purpose).run();
  return "invalid";
}
