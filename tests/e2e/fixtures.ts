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

/** The newest code mailed to `email`, read from the local outbox page (/dev/mail). */
export async function codeFor(request: APIRequestContext, email: string): Promise<string> {
  for (let i = 0; i < 20; i++) {
    const html = await (await request.get("/dev/mail")).text();
    const mail = html.split('data-testid="mail"').find((part) => part.includes(`>${email}<`));
    const code = mail ? /\b(\d{6})\b/.exec(mail.slice(mail.indexOf('data-testid="mail-body"')))?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** Logs the page's browser context in through the API (the spec's token cookie). */
export async function signIn(page: Page, email = "researcher@demo.test", password = DEMO_PASSWORD) {
  const res = await page.request.post("/api/users/login", { data: { email, pwd: password } });
  expect(res.status()).toBe(200);
  const { data } = await res.json();
  await page.context().addCookies([
    {
      name: "token",
      value: `Bearer%20${data.access_token}`,
      url: page.url().startsWith("http") ? page.url() : (test.info().project.use.baseURL as string),
    },
  ]);
  return data;
}

/** A new member signed up through the API and signed in on `page`; answers their id, email and API token. */
export async function signUpAndIn(page: Page, nickName: string): Promise<{ id: number; email: string; token: string }> {
  const email = uniqueEmail(nickName.toLowerCase().replace(/\W/g, ""));
  await page.request.post("/api/users/send-verification-code", { data: { email } });
  const code = await codeFor(page.request, email);
  const created = await page.request.post("/api/users/register", {
    data: { email, code, pwd: DEMO_PASSWORD, nick_name: nickName, account_type: 1 },
  });
  expect(created.status()).toBe(201);
  const session = await signIn(page, email);
  return { id: session.user.id, email, token: session.access_token };
}

export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
  extraHTTPHeaders: async ({}, use) => use({ "CF-Connecting-IP": clientIp() }),
});

export { expect };
