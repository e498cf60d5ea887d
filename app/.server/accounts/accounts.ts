import { env } from "~/.server/bindings";
import { config } from "~/.server/config/config";
import { translator } from "~/.server/i18n/translate";
import { sendMail } from "~/.server/mail/mail";
import { closeSessionSockets } from "~/.server/messaging/session-sockets";
import { Refused } from "~/.server/refused";
import { allowRequest } from "~/.server/security/rate-limit";
import type { Language } from "~/lib/i18n";
import { AccountError } from "./account-error";
import { type CodePurpose, consumeCode, issueCode } from "./codes";
import { isKnownDevice } from "./known-devices";
import { accountScope, claimAttempt, clientScope, releaseAttempt, type Scope } from "./login-attempts";
import { accountOfOrcid, pendingOrcidSignup, spendOrcidSignup } from "./orcid";
import { DUMMY_HASH, hashPassword, isCommonPassword, isCurrentHash, verifyPassword } from "./passwords";
import { createSession, findSession, revokeAllSessions, revokeSession, type SessionUser, sessionHash } from "./sessions";

/**
 * Accounts: the one domain service behind the sign-up, login and reset pages and the /api/users calls.
 * Every answer for an unknown email is the same as for a known one.
 */
/**
 * Who is asking and when: the client address for limits, the known-device cookie (if any), the clock
 * for tests, waitUntil for mail.
 */
export interface Caller {
  client: string;
  device?: string;
  now: number;
  language: Language;
  /** This site's origin as the request reached it (links in mail). */
  origin?: string;
  waitUntil?: (promise: Promise<unknown>) => void;
}

async function limit(action: string, caller: Caller) {
  if (!(await allowRequest(env.AUTH_LIMITER, `${action}:${caller.client}`))) throw new AccountError("rate_limited");
}

/**
 * Work for after the answer (mail): it starts on a later task, after the service has returned to its
 * caller, and a known and an unknown email take this same path up to there (with or without work),
 * so what a caller can time does not say which it was.
 */
function later(caller: Caller, work: (() => Promise<unknown>) | null) {
  const logged = new Promise((resolve) => setTimeout(resolve, 0))
    .then(() => work?.())
    .catch((error) => console.error("background work failed", error));
  if (caller.waitUntil) caller.waitUntil(logged);
  return logged;
}

/** What a known-device proof is bound to: the account's password hash, new with every change and reset (null: no account). */
export const credentialOf = async (email: string) => (await findUserByEmail(email))?.password_hash ?? null;

const findUserByEmail = (email: string) =>
  env.DB.prepare("SELECT id, password_hash, language, suspended_reason FROM users WHERE email = ?").bind(email).first<{
    id: number;
    password_hash: string;
    language: string;
    suspended_reason: string | null;
  }>();

export async function sendVerificationCode(email: string, purpose: CodePurpose, caller: Caller) {
  await limit("send-code", caller);
  const issued = await issueCode(config().pepper.secret, email, purpose, caller.now);
  if (!issued.ok) throw new AccountError("code_too_soon", "email", issued.retryAfter);
  const user = await findUserByEmail(email);
  const t = translator(user?.language ?? caller.language);
  // Known and unknown emails do the same work before the answer; the mail (if any) leaves after it.
  const codeMail = { to: email, subject: t("mail.resetCodeSubject"), text: t("mail.codeBody", { code: issued.code, minutes: 10 }) };
  if (purpose === "register") {
    const mail = user
      ? { to: email, subject: t("mail.alreadyRegisteredSubject"), text: t("mail.alreadyRegisteredBody") }
      : { ...codeMail, subject: t("mail.codeSubject") };
    later(caller, () => sendMail(mail));
  } else {
    later(caller, user ? () => sendMail(codeMail) : null);
  }
}

function codeError(check: Exclude<Awaited<ReturnType<typeof consumeCode>>, "ok">): AccountError {
  const code = check === "expired" ? "code_expired" : check === "exhausted" ? "code_exhausted" : "code_invalid";
  return new AccountError(code, "code");
}

export interface Registration {
  email: string;
  code: string;
  /** Optional only with an ORCID sign-up, whose iD is then the way in. */
  password?: string;
  /** The cookie's token of a sign-up begun with ORCID (orcid.ts): the account gets its iD. */
  orcidToken?: string;
  nickName: string;
  accountType: 1 | 2;
  kind: "individual" | "facilitator";
  organisation?: string;
}

export async function register(input: Registration, caller: Caller) {
  await limit("register", caller);
  if (input.password && isCommonPassword(input.password)) throw new AccountError("password_common", "password");
  const orcid = input.orcidToken ? await pendingOrcidSignup(input.orcidToken, caller.now) : null;
  if (input.orcidToken && !orcid) throw new Refused("notify.orcidSignupExpired");
  if (!input.password && !orcid) throw new Refused("validation.passwordEmpty", { field: "password" });
  const check = await consumeCode(config().pepper.secret, input.email, "register", input.code, caller.now);
  if (check !== "ok") throw codeError(check);
  // Only the mailbox's owner gets here (the code proved it), so saying "taken" reveals nothing.
  if (await findUserByEmail(input.email)) throw new AccountError("email_taken", "email");
  // No password: the empty hash, which no password matches; the iD is the way in.
  const hash = input.password ? await hashPassword(input.password, config().pepper) : "";
  if (orcid && input.orcidToken && !(await spendOrcidSignup(input.orcidToken, caller.now))) throw new Refused("notify.orcidSignupExpired");
  // ON CONFLICT: two sign-ups for one address (or one iD) that both got this far make one account, never a 500.
  const row = await env.DB.prepare(
    `INSERT INTO users (email, password_hash, account_type, kind, nick_name, organisation, language, created_at, orcid, orcid_name, orcid_linked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
  )
    .bind(
      input.email,
      hash,
      input.accountType,
      input.kind,
      input.nickName,
      input.kind === "facilitator" ? (input.organisation ?? null) : null,
      caller.language,
      caller.now,
      orcid?.orcid ?? null,
      orcid?.name ?? null,
      orcid ? caller.now : null,
    )
    .first<{ id: number }>();
  if (!row && orcid && (await accountOfOrcid(orcid.orcid))) throw new Refused("notify.orcidTaken", { status: 409 });
  if (!row) throw new AccountError("email_taken", "email");
  return startSession(row.id, caller);
}

/**
 * Signs in the account an authenticated iD is linked to (null: none, sign-up may begin). The session
 * is a password login's: the same idle timeout, revocation and sockets.
 */
export async function loginWithOrcid(orcid: string, caller: Caller) {
  await limit("login", caller);
  const user = await accountOfOrcid(orcid);
  if (!user) return null;
  if (user.suspended_reason) throw new AccountError("suspended", undefined, undefined, user.suspended_reason);
  return startSession(user.id, caller);
}

async function startSession(userId: number, caller: Caller) {
  const token = await createSession(userId, caller.now);
  const found = await findSession(token, caller.now);
  if (found.status !== "valid") throw new Error("new session not found");
  return { token, user: found.user };
}

export async function login(email: string, password: string, caller: Caller): Promise<{ token: string; user: SessionUser }> {
  await limit("login", caller);
  const { pepper } = config();
  const user = await findUserByEmail(email);
  // The account-wide count first: a refusal there has taken nothing from the client's own count.
  const known = await isKnownDevice(pepper.secret, email, user?.password_hash ?? null, caller.device);
  const taken: Scope[] = [];
  for (const scope of known ? [clientScope(caller.client)] : [accountScope, clientScope(caller.client)]) {
    const refused = await claimAttempt(email, scope, caller.now);
    if (refused) {
      if (taken.length > 0) await env.DB.batch(taken.map((s) => releaseAttempt(email, s)));
      throw new AccountError(scope === accountScope ? "account_throttled" : "throttled", undefined, refused.wait);
    }
    taken.push(scope);
  }

  // An account without a password (signed up with ORCID) takes as long to refuse as an unknown one.
  const ok = await verifyPassword(password, user?.password_hash || DUMMY_HASH, pepper.byId);
  if (!user || !ok) throw new AccountError("invalid_credentials");
  const writes = taken.map((scope) => releaseAttempt(email, scope));
  // A hash made with a retired pepper (or before ids) moves to the current one while the password is at hand.
  if (!isCurrentHash(user.password_hash, pepper.id)) {
    const rehashed = await hashPassword(password, pepper);
    writes.push(
      env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?").bind(rehashed, user.id, user.password_hash),
    );
  }
  await env.DB.batch(writes);
  // Told only to whoever knows the password, so it says nothing to a guesser.
  if (user.suspended_reason) throw new AccountError("suspended", undefined, undefined, user.suspended_reason);
  return startSession(user.id, caller);
}

export async function resetPassword(input: { email: string; code: string; password: string }, caller: Caller) {
  await limit("reset", caller);
  if (isCommonPassword(input.password)) throw new AccountError("password_common", "password");
  const check = await consumeCode(config().pepper.secret, input.email, "reset", input.code, caller.now);
  const user = await findUserByEmail(input.email);
  // An unknown email's code (stored, never sent) can only be guessed: it answers like a wrong code.
  if (check !== "ok" || !user) throw codeError(check === "ok" ? "invalid" : check);
  const hash = await hashPassword(input.password, config().pepper);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ?").bind(hash, user.id),
    revokeAllSessions(user.id),
    env.DB.prepare("DELETE FROM login_failures WHERE email = ?").bind(input.email),
  ]);
  await closeSessionSockets(user.id, null);
  const t = translator(user.language);
  later(caller, () => sendMail({ to: input.email, subject: t("mail.resetDoneSubject"), text: t("mail.resetDoneBody") }));
}

/**
 * A signed-in member changes their password: the current one first (guesses count against the
 * address's limit), then every other session ends and its sockets close; this one stays.
 */
export async function changePassword(userId: number, keepToken: string, current: string, next: string, caller: Caller) {
  await limit("password", caller);
  const { pepper } = config();
  const user = await env.DB.prepare("SELECT email, password_hash, language FROM users WHERE id = ?")
    .bind(userId)
    .first<{ email: string; password_hash: string; language: string }>();
  if (!user || !(await verifyPassword(current, user.password_hash, pepper.byId)))
    throw new AccountError("current_password_wrong", "currentPassword");
  if (isCommonPassword(next)) throw new AccountError("password_common", "password");
  const hash = await hashPassword(next, pepper);
  // Only over the hash it was checked against: of two changes at once, one wins whole, the other is refused.
  const [changed, ended] = await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ? RETURNING id").bind(
      hash,
      userId,
      user.password_hash,
    ),
    env.DB.prepare(
      "DELETE FROM sessions WHERE user_id = ?1 AND token_hash <> ?2 AND (SELECT password_hash FROM users WHERE id = ?1) = ?3 RETURNING token_hash",
    ).bind(userId, await sessionHash(keepToken), hash),
    // A reset code mailed before the change would undo it: every pending one is spent.
    env.DB.prepare(
      "DELETE FROM verification_codes WHERE email = ?1 AND purpose = 'reset' AND (SELECT password_hash FROM users WHERE id = ?2) = ?3",
    ).bind(user.email, userId, hash),
  ]);
  if (!changed?.results.length) throw new AccountError("current_password_wrong", "currentPassword");
  for (const { token_hash } of (ended?.results ?? []) as { token_hash: string }[]) await closeSessionSockets(userId, token_hash);
  const t = translator(user.language);
  later(caller, () => sendMail({ to: user.email, subject: t("mail.resetDoneSubject"), text: t("mail.changedBody") }));
}

export const currentSession = (token: string | null | undefined, now: number) => findSession(token, now);
/** Ends a session, and closes the live sockets it had open. */
export async function logout(token: string) {
  const ended = await revokeSession(token);
  if (ended) await closeSessionSockets(ended.userId, ended.hash);
}

/** The member's language: mail goes out in it, and it follows them to every browser they sign in on. */
export async function saveLanguage(userId: number, language: Language) {
  await env.DB.prepare("UPDATE users SET language = ? WHERE id = ?").bind(language, userId).run();
}
