import { spawn } from "node:child_process";
import { type APIRequestContext, test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "research-demo-2026";

/**
 * Runs SQL against a served worker's local D1 from outside it. Only for a state nothing else writes
 * to at the time (the production-like run's, whose tests run one after another): a second writer
 * on a busy state makes the server's own writes fail with SQLITE_BUSY.
 */
export async function sql(statement: string, where = { state: ".wrangler/e2e-state", env: [] as string[] }) {
  const run = spawn(
    "node_modules/.bin/wrangler",
    ["d1", "execute", "DB", "--local", ...where.env, "--persist-to", where.state, "--command", statement],
    {
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
      stdio: "ignore",
    },
  );
  const code = await new Promise((done) => run.on("exit", done));
  if (code !== 0) throw new Error(`wrangler d1 execute failed (${code}): ${statement}`);
}

/** A client address of its own per test, so the per-address rate limits never mix tests up. */
export const clientIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

export const uniqueEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.test`;

/**
 * The newest code mailed to `email`, read from the local outbox page (/dev/mail). The mail leaves
 * after the answer, so this waits for it to appear; the limit is only for a mail that never comes.
 */
export async function codeFor(request: APIRequestContext, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const html = await (await request.get("/dev/mail")).text();
        const mail = html.split('data-testid="mail"').find((part) => part.includes(`>${email}<`));
        code = mail ? /\b(\d{6})\b/.exec(mail.slice(mail.indexOf('data-testid="mail-body"')))?.[1] : undefined;
        return code;
      },
      { message: `a code mailed to ${email}`, timeout: 60_000 },
    )
    .toBeTruthy();
  return code as string;
}

export interface Member {
  id: number;
  email: string;
  token: string;
}

const sessionCookie = (page: Page, token: string) =>
  page.context().addCookies([
    {
      name: "token",
      value: `Bearer%20${token}`,
      url: page.url().startsWith("http") ? page.url() : (test.info().project.use.baseURL as string),
    },
  ]);

/**
 * Signs the page's browser context in as an existing member (a demo one by default) through the
 * local build's session route (/dev/session): for tests whose subject is not signing in.
 */
export async function signIn(page: Page, email = "researcher@demo.test"): Promise<Member> {
  const res = await page.request.post("/dev/session", { data: { email } });
  expect(res.status()).toBe(200);
  const member = (await res.json()) as Member;
  await sessionCookie(page, member.token);
  return member;
}

/** Logs in through the API with a password (the spec's token cookie): for tests about logging in. */
export async function logInWithPassword(page: Page, email: string, password = DEMO_PASSWORD): Promise<Member> {
  const res = await page.request.post("/api/users/login", { data: { email, pwd: password } });
  expect(res.status()).toBe(200);
  const { data } = await res.json();
  await sessionCookie(page, data.access_token);
  return { id: data.user.id, email, token: data.access_token };
}

/**
 * A new member (password DEMO_PASSWORD) signed in on `page`, made through /dev/session: the
 * sign-up flow itself (code mailed, outbox read) is proven by the auth specs.
 */
export async function signUpAndIn(
  page: Page,
  nickName: string,
  account: { account_type?: 1 | 2; kind?: "individual" | "facilitator"; organisation?: string } = {},
): Promise<Member> {
  const res = await page.request.post("/dev/session", { data: { nick_name: nickName, ...account } });
  expect(res.status()).toBe(200);
  const member = (await res.json()) as Member;
  await sessionCookie(page, member.token);
  return member;
}

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
  extraHTTPHeaders: async ({}, use) => use({ "CF-Connecting-IP": clientIp() }),
});

export { expect };
