import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AccountError } from "~/.server/accounts/account-error";
import {
  type Caller,
  changePassword,
  credentialOf,
  currentSession,
  login,
  logout,
  register,
  resetPassword,
  sendVerificationCode,
} from "~/.server/accounts/accounts";
import { CODE_TTL_MS, consumeCode, issueCode } from "~/.server/accounts/codes";
import { rememberedDevice } from "~/.server/accounts/known-devices";
import { ACCOUNT_FREE_FAILURES, FAILURE_WINDOW_MS, failureDelaySeconds } from "~/.server/accounts/login-attempts";
import { hashPassword, isCommonPassword, PBKDF2_ITERATIONS, pepperIdOf, verifyPassword } from "~/.server/accounts/passwords";
import { SESSION_ABSOLUTE_MS, SESSION_TOUCH_MS } from "~/.server/accounts/sessions";
import { config } from "~/.server/config/config";
import { KNOWN_DEVICE_COOKIE, knownDeviceCookie } from "~/.server/web/auth/cookies";
import { SESSION_IDLE_MS } from "~/lib/config";
import { mailedCode, outboxFor, testCaller, uniqueEmail } from "./helpers";

const PEPPER = "test-pepper";
const PASSWORD = "correct horse battery staple";

/** Asks for a sign-up code as the page does, and reads it from the mail. */
async function registrationCode(email: string, caller: Caller, settle: () => Promise<unknown>) {
  await sendVerificationCode(email, "register", caller);
  await settle();
  return mailedCode(email);
}

async function newMember(email = uniqueEmail(), now?: number) {
  const { caller, settle } = testCaller(now);
  const code = await registrationCode(email, caller, settle);
  const session = await register({ email, code, password: PASSWORD, nickName: "Tester", accountType: 1, kind: "individual" }, caller);
  return { email, ...session };
}

async function errorOf(promise: Promise<unknown>): Promise<AccountError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AccountError) return error;
    throw error;
  }
  throw new Error("expected an AccountError");
}

describe("passwords", () => {
  it("hash with PBKDF2-SHA256 at production's 100,000-iteration cap, in PHC format, inside workerd", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    const started = performance.now();
    const phc = await hashPassword(PASSWORD, { id: "1", secret: PEPPER });
    const elapsed = performance.now() - started;
    console.log(`one PBKDF2-SHA256 hash (100,000 iterations) in workerd: ${elapsed.toFixed(1)} ms`);
    expect(phc).toMatch(/^\$pbkdf2-sha256\$i=100000,p=1\$[\w-]{22}\$[\w-]{43}$/);
    const peppers = new Map([["1", PEPPER]]);
    expect(await verifyPassword(PASSWORD, phc, peppers)).toBe(true);
    expect(await verifyPassword("wrong password", phc, peppers)).toBe(false);
    expect(await verifyPassword(PASSWORD, phc, new Map([["1", "another pepper"]]))).toBe(false);
    // A stored hash asking for more iterations than production allows is refused, not run.
    expect(await verifyPassword(PASSWORD, phc.replace("i=100000", "i=200000"), peppers)).toBe(false);
  });

  it("name their pepper, so a rotated pepper still checks old hashes and a forgotten one matches nothing", async () => {
    const old = await hashPassword(PASSWORD, { id: "1", secret: "old pepper" });
    expect(pepperIdOf(old)).toBe("1");
    // Hashes from before pepper ids mean pepper 1.
    expect(pepperIdOf(old.replace(",p=1", ""))).toBe("1");
    const rotated = new Map([
      ["2", "new pepper"],
      ["1", "old pepper"],
    ]);
    expect(await verifyPassword(PASSWORD, old, rotated)).toBe(true);
    expect(await verifyPassword(PASSWORD, old.replace(",p=1", ""), rotated)).toBe(true);
    expect(await verifyPassword(PASSWORD, old, new Map([["2", "new pepper"]]))).toBe(false);
    expect(await verifyPassword(PASSWORD, old.replace("p=1", "p=2"), rotated)).toBe(false);
  });

  it("refuse common passwords, whatever their case", () => {
    expect(isCommonPassword("Password123")).toBe(true);
    expect(isCommonPassword(PASSWORD)).toBe(false);
  });
});

describe("verification codes", () => {
  const now = Date.UTC(2026, 10, 22, 9, 0);

  it("are 6 digits, stored hashed, single use and bound to email and purpose", async () => {
    const email = uniqueEmail();
    const issued = await issueCode(PEPPER, email, "register", now);
    if (!issued.ok) throw new Error("not issued");
    expect(issued.code).toMatch(/^\d{6}$/);
    const row = await env.DB.prepare("SELECT code_hash FROM verification_codes WHERE email = ?").bind(email).first<{ code_hash: string }>();
    expect(row?.code_hash).not.toContain(issued.code);
    expect(await consumeCode(PEPPER, email, "reset", issued.code, now)).toBe("invalid");
    expect(await consumeCode(PEPPER, uniqueEmail(), "register", issued.code, now)).toBe("invalid");
    expect(await consumeCode(PEPPER, email, "register", issued.code, now)).toBe("ok");
    expect(await consumeCode(PEPPER, email, "register", issued.code, now)).toBe("invalid");
  });

  it("expire after 10 minutes", async () => {
    const email = uniqueEmail();
    const issued = await issueCode(PEPPER, email, "register", now);
    if (!issued.ok) throw new Error("not issued");
    expect(await consumeCode(PEPPER, email, "register", issued.code, now + CODE_TTL_MS)).toBe("expired");
  });

  it("end after 5 wrong tries, even for the right code after that", async () => {
    const email = uniqueEmail();
    const issued = await issueCode(PEPPER, email, "register", now);
    if (!issued.ok) throw new Error("not issued");
    const wrong = issued.code === "000000" ? "111111" : "000000";
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await consumeCode(PEPPER, email, "register", wrong, now));
    expect(answers).toEqual(["invalid", "invalid", "invalid", "invalid", "exhausted"]);
    expect(await consumeCode(PEPPER, email, "register", issued.code, now)).toBe("invalid");
  });

  it("compare at most 5 guesses however many arrive at once, so the right one sent last is not accepted", async () => {
    const email = uniqueEmail();
    const issued = await issueCode(PEPPER, email, "reset", now);
    if (!issued.ok) throw new Error("not issued");
    const guesses = Array.from({ length: 29 }, (_, i) => String((Number(issued.code) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all([...guesses, issued.code].map((code) => consumeCode(PEPPER, email, "reset", code, now)));
    expect(answers.at(-1)).not.toBe("ok");
    expect(answers.filter((a) => a === "ok")).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM verification_codes WHERE email = ?").bind(email).first("n")).toBe(0);
  });

  it("are spent once: of five requests with the right code at once, one succeeds", async () => {
    const email = uniqueEmail();
    const issued = await issueCode(PEPPER, email, "register", now);
    if (!issued.ok) throw new Error("not issued");
    const answers = await Promise.all(Array.from({ length: 5 }, () => consumeCode(PEPPER, email, "register", issued.code, now)));
    expect(answers.sort()).toEqual(["invalid", "invalid", "invalid", "invalid", "ok"]);
  });

  it("come at most once a minute, and a new one replaces the old", async () => {
    const email = uniqueEmail();
    const first = await issueCode(PEPPER, email, "reset", now);
    expect(await issueCode(PEPPER, email, "reset", now + 30_000)).toEqual({ ok: false, retryAfter: 30 });
    const second = await issueCode(PEPPER, email, "reset", now + 60_000);
    if (!first.ok || !second.ok) throw new Error("not issued");
    if (first.code !== second.code) expect(await consumeCode(PEPPER, email, "reset", first.code, now + 60_000)).toBe("invalid");
    expect(await consumeCode(PEPPER, email, "reset", second.code, now + 60_000)).toBe("ok");
  });
});

describe("sign-up and login", () => {
  it("makes one account from five registrations at once with one code; the others hear 'invalid code', never a 500", async () => {
    const email = uniqueEmail();
    const { caller, settle } = testCaller();
    const code = await registrationCode(email, caller, settle);
    const attempts = Array.from({ length: 5 }, (_, i) =>
      register(
        { email, code, password: PASSWORD, nickName: `Twin ${i}`, accountType: 1, kind: "individual" },
        { ...caller, client: `10.0.0.${i}` },
      ).then(
        () => "created",
        (error: unknown) => (error instanceof AccountError ? error.code : `unexpected: ${String(error)}`),
      ),
    );
    expect((await Promise.all(attempts)).sort()).toEqual(["code_invalid", "code_invalid", "code_invalid", "code_invalid", "created"]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first("n")).toBe(1);
  });

  it("creates the account with its type and kind, and logs the member in", async () => {
    const member = await newMember();
    expect(member.user).toMatchObject({ email: member.email, account_type: 1, kind: "individual", nick_name: "Tester" });
    const stored = await env.DB.prepare("SELECT password_hash FROM users WHERE email = ?")
      .bind(member.email)
      .first<{ password_hash: string }>();
    expect(stored?.password_hash).toMatch(/^\$pbkdf2-sha256\$/);
  });

  it("refuses a common password without using up the code", async () => {
    const email = uniqueEmail();
    const { caller, settle } = testCaller();
    const code = await registrationCode(email, caller, settle);
    const error = await errorOf(
      register({ email, code, password: "password123", nickName: "x", accountType: 2, kind: "individual" }, caller),
    );
    expect(error).toMatchObject({ code: "password_common", field: "password" });
    await expect(
      register({ email, code, password: PASSWORD, nickName: "x", accountType: 2, kind: "individual" }, caller),
    ).resolves.toBeTruthy();
  });

  it("rotates the token on every login and revokes it on logout", async () => {
    const member = await newMember();
    const { caller } = testCaller();
    const first = await login(member.email, PASSWORD, caller);
    const second = await login(member.email.toUpperCase(), PASSWORD, caller);
    expect(first.token).not.toBe(second.token);
    expect(first.token).toMatch(/^[\w-]{43}$/);
    const stored = await env.DB.prepare("SELECT token_hash FROM sessions WHERE user_id = ?")
      .bind(member.user.id)
      .all<{ token_hash: string }>();
    expect(stored.results.map((r) => r.token_hash)).not.toContain(first.token);
    await logout(first.token);
    expect((await currentSession(first.token, caller.now)).status).toBe("none");
    expect((await currentSession(second.token, caller.now)).status).toBe("valid");
  });

  it("ends a session idle for 20 minutes, slides while used, and ends it at its absolute lifetime", async () => {
    const start = Date.UTC(2026, 10, 22, 9, 0);
    const member = await newMember(uniqueEmail(), start);
    const token = member.token;
    expect((await currentSession(token, start + SESSION_IDLE_MS - 1000)).status).toBe("valid");
    // Used just before the idle limit, the session slides on.
    expect((await currentSession(token, start + 2 * SESSION_IDLE_MS - 2000)).status).toBe("valid");
    expect((await currentSession(token, start + 3 * SESSION_IDLE_MS)).status).toBe("expired");
    expect((await currentSession(token, start + 3 * SESSION_IDLE_MS)).status).toBe("none");

    const busy = await login(member.email, PASSWORD, testCaller(start).caller);
    let now = start;
    while (now < start + SESSION_ABSOLUTE_MS - SESSION_IDLE_MS) {
      now += SESSION_IDLE_MS - SESSION_TOUCH_MS;
      expect((await currentSession(busy.token, now)).status).toBe("valid");
    }
    expect((await currentSession(busy.token, start + SESSION_ABSOLUTE_MS)).status).toBe("expired");
  });

  it("moves a hash made before pepper ids to the current pepper at the next login", async () => {
    const { email } = await newMember();
    const legacy = (await hashPassword(PASSWORD, config().pepper)).replace(`,p=${config().pepper.id}`, "");
    await env.DB.prepare("UPDATE users SET password_hash = ? WHERE email = ?").bind(legacy, email).run();
    await login(email, PASSWORD, testCaller().caller);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE email = ?").bind(email).first<{ password_hash: string }>();
    expect(row?.password_hash).toMatch(/^\$pbkdf2-sha256\$i=100000,p=1\$/);
    expect(await verifyPassword(PASSWORD, row?.password_hash ?? "", config().pepper.byId)).toBe(true);
  });

  it("answers wrong passwords and unknown emails alike", async () => {
    const member = await newMember();
    const known = await errorOf(login(member.email, "wrong password", testCaller().caller));
    const unknown = await errorOf(login(uniqueEmail(), "wrong password", testCaller().caller));
    expect(known).toMatchObject({ code: "invalid_credentials", field: undefined });
    expect(unknown).toMatchObject({ code: "invalid_credentials", field: undefined });
  });

  it("slows repeated failures from one client without locking the member out elsewhere", async () => {
    const member = await newMember();
    const attacker = testCaller();
    for (let i = 0; i < 5; i++) await errorOf(login(member.email, "guess", attacker.caller));
    expect(failureDelaySeconds(5)).toBe(1);
    const slowed = await errorOf(login(member.email, PASSWORD, attacker.caller));
    expect(slowed).toMatchObject({ code: "throttled", retryAfter: 1 });
    // The member, from another address, logs in at once.
    await expect(login(member.email, PASSWORD, testCaller().caller)).resolves.toHaveProperty("token");
    expect(failureDelaySeconds(40)).toBe(15 * 60);
  });

  it("checks at most the account-wide number of guesses from many addresses, one after another or all at once", async () => {
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        () => "signed in",
        (error: unknown) => (error instanceof AccountError ? error.code : `unexpected: ${String(error)}`),
      );
    const member = await newMember();
    const seen = [];
    for (let i = 0; i < 40; i++) seen.push(await outcome(login(member.email, `guess ${i}`, testCaller().caller)));
    expect(seen.filter((code) => code === "invalid_credentials")).toHaveLength(ACCOUNT_FREE_FAILURES);
    expect(seen.slice(ACCOUNT_FREE_FAILURES).every((code) => code === "account_throttled")).toBe(true);

    const target = await newMember();
    const together = await Promise.all(
      Array.from({ length: 40 }, (_, i) => outcome(login(target.email, `guess ${i}`, testCaller().caller))),
    );
    expect(together.filter((code) => code === "invalid_credentials").length).toBeLessThanOrEqual(ACCOUNT_FREE_FAILURES);
    expect(together.filter((code) => code !== "invalid_credentials" && code !== "account_throttled")).toEqual([]);
  });

  it("lets the member's known browser in while the account is under attack, and a reset makes a new browser known", async () => {
    const member = await newMember();
    const deviceOf = async (cookie: string) => decodeURIComponent(/device=([^;]*)/.exec(cookie)?.[1] ?? "");
    const request = new Request("http://localhost/login");
    const remember = async (email: string, cookie?: string) =>
      deviceOf(
        knownDeviceCookie(request, await rememberedDevice(config().pepper.secret, email, (await credentialOf(email)) ?? "", cookie)),
      );
    const known = await remember(member.email);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) await errorOf(login(member.email, "guess", testCaller().caller));

    const stranger = await errorOf(login(member.email, PASSWORD, testCaller().caller));
    expect(stranger).toMatchObject({ code: "account_throttled", retryAfter: 60 });
    // Another account's proof does not count for this one.
    const elsewhere = await remember((await newMember()).email);
    await expect(errorOf(login(member.email, PASSWORD, { ...testCaller().caller, device: elsewhere }))).resolves.toMatchObject({
      code: "account_throttled",
    });
    await expect(login(member.email, PASSWORD, { ...testCaller().caller, device: known })).resolves.toHaveProperty("token");
    expect(KNOWN_DEVICE_COOKIE).toBe("device");

    // A quiet hour, or a reset by the mailbox's owner, starts the count again.
    await expect(
      login(member.email, PASSWORD, testCaller(Date.UTC(2026, 10, 22, 9, 0) + FAILURE_WINDOW_MS).caller),
    ).resolves.toHaveProperty("token");
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) await errorOf(login(member.email, "guess", testCaller().caller));
    const { caller, settle } = testCaller();
    await sendVerificationCode(member.email, "reset", caller);
    await settle();
    await resetPassword({ email: member.email, code: await mailedCode(member.email), password: `${PASSWORD}!` }, caller);
    await expect(login(member.email, `${PASSWORD}!`, testCaller().caller)).resolves.toHaveProperty("token");
  });

  it("forgets every browser when the password changes, and gives each browser a value of its own", async () => {
    const member = await newMember();
    const request = new Request("http://localhost/login");
    const deviceOf = (cookie: string) => decodeURIComponent(/device=([^;]*)/.exec(cookie)?.[1] ?? "");
    const remember = async (cookie?: string) =>
      deviceOf(
        knownDeviceCookie(
          request,
          await rememberedDevice(config().pepper.secret, member.email, (await credentialOf(member.email)) ?? "", cookie),
        ),
      );
    const [first, second] = [await remember(), await remember()];
    expect(first).not.toBe(second);
    // The same browser keeps its id when it signs in again.
    expect((await remember(first)).split(".")[0]).toBe(first.split(".")[0]);
    const throttle = async () => {
      for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) await errorOf(login(member.email, "guess", testCaller().caller));
    };
    await throttle();
    await expect(login(member.email, PASSWORD, { ...testCaller().caller, device: first })).resolves.toHaveProperty("token");
    // A password change makes an old cookie (or a copy of it) a stranger's.
    await changePassword(member.user.id, member.token, PASSWORD, "a changed river passphrase", testCaller().caller);
    await throttle();
    await expect(
      errorOf(login(member.email, "a changed river passphrase", { ...testCaller().caller, device: first })),
    ).resolves.toMatchObject({
      code: "account_throttled",
    });
    const renewed = await remember(first);
    await expect(login(member.email, "a changed river passphrase", { ...testCaller().caller, device: renewed })).resolves.toHaveProperty(
      "token",
    );
  });

  it("answers 'rate limited' after the per-address limit", async () => {
    const { caller } = testCaller();
    const errors = [];
    for (let i = 0; i < 11; i++) errors.push((await errorOf(login(uniqueEmail(), "x", caller))).code);
    expect(errors.slice(0, 10).every((code) => code === "invalid_credentials")).toBe(true);
    expect(errors[10]).toBe("rate_limited");
  });
});

describe("codes for known and unknown emails", () => {
  it("answer the same; only a known member's mailbox gets a reset code", async () => {
    const member = await newMember();
    const stranger = uniqueEmail("stranger");
    const a = testCaller();
    const b = testCaller();
    await expect(sendVerificationCode(member.email, "reset", a.caller)).resolves.toBeUndefined();
    await expect(sendVerificationCode(stranger, "reset", b.caller)).resolves.toBeUndefined();
    await Promise.all([a.settle(), b.settle()]);
    expect((await outboxFor(member.email)).at(-1)?.subject).toBe("Reset your Research Commons password");
    expect(await outboxFor(stranger)).toEqual([]);
    // Resetting an unknown email fails exactly like a wrong code.
    const error = await errorOf(resetPassword({ email: stranger, code: "123456", password: PASSWORD }, testCaller().caller));
    expect(error).toMatchObject({ code: "code_invalid", field: "code" });
  });

  it("start a known member's reset mail only after the answer, so both answers take the same work", async () => {
    const member = await newMember();
    const { caller, settle } = testCaller();
    const before = (await outboxFor(member.email)).length;
    await sendVerificationCode(member.email, "reset", caller);
    // Nothing of the mail has happened yet when the caller has its answer.
    expect((await outboxFor(member.email)).length).toBe(before);
    await settle();
    expect((await outboxFor(member.email)).length).toBe(before + 1);
  });

  it("tell an existing member by mail, not on screen, that someone tried to sign up again", async () => {
    const member = await newMember();
    const { caller, settle } = testCaller();
    await expect(sendVerificationCode(member.email, "register", caller)).resolves.toBeUndefined();
    await settle();
    expect((await outboxFor(member.email)).at(-1)?.subject).toBe("You already have a Research Commons account");
  });
});

describe("password reset", () => {
  it("changes the password, ends every session and mails a notice", async () => {
    const member = await newMember();
    const other = await login(member.email, PASSWORD, testCaller().caller);
    const { caller, settle } = testCaller(Date.UTC(2026, 10, 22, 9, 5));
    await sendVerificationCode(member.email, "reset", caller);
    await settle();
    await resetPassword({ email: member.email, code: await mailedCode(member.email), password: "a brand new passphrase" }, caller);
    await settle();
    expect((await currentSession(member.token, caller.now)).status).toBe("none");
    expect((await currentSession(other.token, caller.now)).status).toBe("none");
    expect((await outboxFor(member.email)).at(-1)?.subject).toBe("Your Research Commons password was changed");
    await expect(login(member.email, PASSWORD, testCaller().caller)).rejects.toMatchObject({ code: "invalid_credentials" });
    await expect(login(member.email, "a brand new passphrase", testCaller().caller)).resolves.toHaveProperty("token");
  });

  it("changed in the settings, spends a pending reset code and mails its own notice", async () => {
    const member = await newMember();
    const { caller, settle } = testCaller(Date.UTC(2026, 10, 22, 9, 5));
    await sendVerificationCode(member.email, "reset", caller);
    await settle();
    const code = await mailedCode(member.email);
    await changePassword(member.user.id, member.token, PASSWORD, "a changed river passphrase", caller);
    await settle();
    const notice = (await outboxFor(member.email)).at(-1);
    expect(notice?.subject).toBe("Your Research Commons password was changed");
    expect(notice?.body).toContain("changed in your settings");
    // The code mailed before the change no longer undoes it.
    expect((await errorOf(resetPassword({ email: member.email, code, password: "an attacker's passphrase" }, caller))).code).toBe(
      "code_invalid",
    );
    await expect(login(member.email, "a changed river passphrase", testCaller().caller)).resolves.toHaveProperty("token");
  });
});
