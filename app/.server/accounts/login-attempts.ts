import { env } from "~/.server/bindings";

/**
 * Login attempts, counted before the password is checked, in one statement each, so no number of
 * concurrent requests gets more guesses compared than the limits allow (D1 runs statements alone).
 *
 * Two scopes share the login_failures table:
 * - one client address for one account: after FREE_FAILURES, each try waits twice as long as the
 *   last, up to MAX_DELAY_S. The member elsewhere is not affected.
 * - the account, from every client that has not signed in to it before (ACCOUNT_SCOPE): after
 *   ACCOUNT_FREE_FAILURES in an hour, a doubling delay that starts at a minute, so guessing from any
 *   number of addresses gets about 28 tries an hour. The member's own browsers carry a known-device
 *   cookie and skip this scope; a new browser gets in at once after a password reset.
 */
const FREE_FAILURES = 5;
export const ACCOUNT_FREE_FAILURES = 20;
const MAX_DELAY_S = 15 * 60;
/** A count starts again after a quiet hour; the cron trigger removes rows older than that. */
export const FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** The client value of an account-wide row; real addresses never look like this. */
export const ACCOUNT_SCOPE = "*";

/** Where attempts are counted: after `free` failures, the delay starts at `unit` seconds and doubles. */
export type Scope = { client: string; free: number; unit: number };

export const clientScope = (client: string): Scope => ({ client, free: FREE_FAILURES, unit: 1 });
export const accountScope: Scope = { client: ACCOUNT_SCOPE, free: ACCOUNT_FREE_FAILURES, unit: 60 };

export const failureDelaySeconds = (failures: number, scope: Scope = clientScope("")) =>
  failures < scope.free ? 0 : Math.min(scope.unit * 2 ** Math.min(failures - scope.free, 20), MAX_DELAY_S);

/**
 * Takes one attempt in a scope, or answers how many seconds to wait. The attempt counts as a failure
 * until `release` says it succeeded.
 */
export async function claimAttempt(email: string, scope: Scope, now: number): Promise<{ wait: number } | null> {
  const db = env.DB;
  const claimed = await db
    .prepare(
      `INSERT INTO login_failures (email, client, failures, last_failed_at) VALUES (?1, ?2, 1, ?3)
       ON CONFLICT (email, client) DO UPDATE SET
         failures = CASE WHEN last_failed_at <= ?3 - ?5 THEN 1 ELSE failures + 1 END,
         last_failed_at = ?3
       WHERE failures < ?4 OR last_failed_at <= ?3 - ?5
          OR last_failed_at + MIN(?7 * (1 << MIN(failures - ?4, 20)), ?6) * 1000 <= ?3
       RETURNING failures`,
    )
    .bind(email, scope.client, now, scope.free, FAILURE_WINDOW_MS, MAX_DELAY_S, scope.unit)
    .first();
  if (claimed) return null;
  const row = await db
    .prepare("SELECT failures, last_failed_at FROM login_failures WHERE email = ? AND client = ?")
    .bind(email, scope.client)
    .first<{ failures: number; last_failed_at: number }>();
  const waitMs = row ? row.last_failed_at + failureDelaySeconds(row.failures, scope) * 1000 - now : 0;
  return { wait: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Gives back an attempt that was not a failure after all (or was never made). */
export function releaseAttempt(email: string, scope: Scope) {
  const db = env.DB;
  return scope.client === ACCOUNT_SCOPE
    ? db
        .prepare("UPDATE login_failures SET failures = failures - 1 WHERE email = ? AND client = ? AND failures > 0")
        .bind(email, scope.client)
    : db.prepare("DELETE FROM login_failures WHERE email = ? AND client = ?").bind(email, scope.client);
}
