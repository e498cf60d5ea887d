import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { PRODUCTION } from "../../../playwright.config";
import { freePort } from "../../../scripts/lib.mjs";
import { sql } from "../fixtures";

// The production build, served with production's settings on local bindings
// (scripts/production-like.mjs): what a deployment would do, short of Cloudflare itself.

const mailApi = `http://127.0.0.1:${PRODUCTION.mailPort}`;
const quiet = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

/** Log lines the production-like worker printed as JSON, optionally only one event's. */
function logLines(file: string, event?: string): Array<Record<string, unknown>> {
  return readFileSync(file, "utf8")
    .replace(/\u001b\[[\d;]*m/g, "")
    .split("\n")
    .flatMap((line) => {
      const start = line.indexOf('{"level"');
      if (start < 0) return [];
      try {
        return [JSON.parse(line.slice(start)) as Record<string, unknown>];
      } catch {
        return [];
      }
    })
    .filter((entry) => !event || entry.event === event);
}

async function waitForLog(file: string, match: (entry: Record<string, unknown>) => boolean) {
  await expect.poll(() => logLines(file).find(match), { timeout: 45_000 }).toBeTruthy();
  return logLines(file).find(match) as Record<string, unknown>;
}

async function codeFor(email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const { data } = (await (
          await fetch(`${mailApi}/emails`, { headers: { Authorization: "Bearer production-like-test-key" } })
        ).json()) as {
          data: Array<{ to: string[]; text: string }>;
        };
        code = /\b(\d{6})\b/.exec(data.find((mail) => mail.to.includes(email))?.text ?? "")?.[1];
        return code;
      },
      { timeout: 45_000 },
    )
    .toBeTruthy();
  return code as string;
}

test.describe("a production build", () => {
  test("has no local outbox page, test session route, outbox code or development pepper in its bundle", async ({ request }) => {
    // No such page: a visitor is sent to the login, as from any unknown path.
    const mail = await request.get("/dev/mail", { maxRedirects: 0 });
    expect([mail.status(), mail.headers().location]).toEqual([302, "/login?redirect=%2Fdev%2Fmail"]);
    // The browser suites' direct sessions (/dev/session) are a local build's only.
    // No such route: the catch-all page, which takes no posts (405), as /dev/mail would.
    const session = await request.post("/dev/session", { data: { email: "anyone@production.test" } });
    expect([404, 405]).toContain(session.status());
    expect(session.headers()["set-cookie"] ?? "").not.toContain("token=");
    const dir = "build-production/server";
    const files = [
      join(dir, "index.js"),
      ...readdirSync(join(dir, "assets"))
        .filter((f) => f.endsWith(".js"))
        .map((f) => join(dir, "assets", f)),
    ];
    const code = files.map((file) => readFileSync(file, "utf8")).join("\n");
    expect(code.length).toBeGreaterThan(100_000);
    for (const local of [
      '"dev/mail"',
      "routes/dev.mail",
      '"dev/r2-put"',
      "routes/dev.r2-put",
      '"dev/session"',
      "routes/dev.session",
      '"dev/digest"',
      "routes/dev.digest",
      "routes/dev.mail-raw",
      "mimetext",
      "mail_outbox",
      "local-development-pepper",
      "demo.test",
      // The stand-in ORCID and DOI resolver are a script beside local runs, never in a bundle.
      "fake-orcid",
      "local stand-in",
      "APP-LOCALSTANDIN0001",
      "local-orcid-stand-in-secret",
      "stand-in.slow",
    ]) {
      expect(code, local).not.toContain(local);
    }
  });

  test("without ORCID settings shows no ORCID button and starts no trip to ORCID", async ({ request }) => {
    for (const path of ["/login", "/signup"]) {
      const html = await (await request.get(path)).text();
      expect(html, path).toContain("<form");
      expect(html, path).not.toContain("ORCID");
    }
    expect((await request.post("/auth/orcid", { form: { intent: "login" }, maxRedirects: 0 })).status()).toBe(404);
  });

  test("says how long a page took, and how much of it was the database", async ({ request }) => {
    const timing = (await request.get("/login")).headers()["server-timing"] ?? "";
    expect(timing).toMatch(/db;dur=[\d.]+/);
    expect(timing).toMatch(/total;dur=[\d.]+/);
  });

  test("has no demo members", async ({ request }) => {
    const response = await request.post("/api/users/login", { data: { email: "researcher@demo.test", pwd: "research-demo-2026" } });
    expect(response.status()).toBe(401);
  });

  // Open records are off unless the operator turns them on (decision 0049; the local server has them on).
  test("keeps records closed by default: a record's path sends to sign in, crawlers stay out, no sitemap or OAI-PMH", async ({
    page,
    request,
  }) => {
    await page.goto("/records/1/");
    await expect(page).toHaveURL(/\/login\?redirect=%2Fretrieval%2Fdetail%3Fid%3D1$/);
    const robots = await request.get("/robots.txt");
    expect([robots.status(), await robots.text()]).toEqual([200, "User-agent: *\nDisallow: /\n"]);
    for (const path of ["/sitemap.xml", "/oai?verb=Identify"]) expect((await request.get(path)).status(), path).toBe(404);
  });

  test("mails codes through the provider's API, and its cookies are Secure", async ({ page }) => {
    const email = `operator-${Date.now()}@production.test`;
    expect((await page.request.post("/api/users/send-verification-code", { data: { email, purpose: "register" } })).status()).toBe(200);
    const code = await codeFor(email);
    const registered = await page.request.post("/api/users/register", {
      data: { email, code, pwd: "a long production password", nick_name: "Operator", account_type: 1, kind: "individual" },
    });
    expect(registered.status()).toBe(201);

    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a long production password");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect(page).toHaveURL(/\/home$/);
    const token = (await page.context().cookies()).find((cookie) => cookie.name === "token");
    expect(token).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax" });
  });

  test("sends a browser error to the log as one structured, scrubbed line", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("data-interactive", "");
    const marker = `boom-${Date.now()}`;
    await page.evaluate((text) => {
      setTimeout(() => {
        throw new Error(`${text} for ada@example.org at /retrieval?q=secret`);
      });
    }, marker);
    const entry = await waitForLog(PRODUCTION.logFile, (e) => e.event === "client.error" && String(e.message).startsWith(marker));
    expect(entry).toMatchObject({ level: "error", kind: "error", page: "/login", message: `${marker} for [email] at /retrieval` });
    expect(logLines(PRODUCTION.logFile, "client.error").filter((e) => String(e.message).startsWith(marker))).toHaveLength(1);
  });

  test("shows a member the request id of a failed page, and logs the failure under it", async ({ page }) => {
    const email = `broken-${Date.now()}@production.test`;
    await page.request.post("/api/users/send-verification-code", { data: { email, purpose: "register" } });
    const registered = await page.request.post("/api/users/register", {
      data: {
        email,
        code: await codeFor(email),
        pwd: "a long production password",
        nick_name: "Broken",
        account_type: 1,
        kind: "individual",
      },
    });
    const { data } = await registered.json();
    // A stored verification the page cannot read: the loader throws, as a real fault would.
    await sql(
      `INSERT INTO verifications (user_id, kind, fields, photos, status, submitted_at) VALUES (${Number(data.user.id)}, 'personal', '{not json', '{}', 'pending', 0)`,
      {
        state: ".wrangler/e2e-production-state",
        env: ["--env", "production"],
      },
    );
    await page
      .context()
      .addCookies([
        { name: "token", value: `Bearer%20${data.access_token}`, domain: "127.0.0.1", path: "/", secure: true, httpOnly: true },
      ]);

    const response = await page.goto("/personal/verification");
    expect(response?.status()).toBe(500);
    const id = response?.headers()["x-request-id"] ?? "";
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByText(`Reference for the operators: ${id}`)).toBeVisible();
    const entry = await waitForLog(PRODUCTION.logFile, (e) => e.event === "request.failed" && e.request_id === id);
    expect(entry).toMatchObject({ level: "error", method: "GET", path: "/personal/verification" });
  });
});

test.describe("a production build with a wrong configuration", () => {
  test("answers every request 503 with a translated page, and the log names each problem", async ({ request }) => {
    test.setTimeout(90_000);
    // Any port free now: a fixed one beside the others was sometimes taken by a worker's own.
    const port = await freePort();
    const logFile = resolve("reports/production-misconfigured.log");
    const vars = resolve("reports/production-misconfigured.vars");
    writeFileSync(vars, "MAIL_API_KEY=production-like-test-key\n"); // no PASSWORD_PEPPER
    const server = spawn(
      "node",
      [
        "scripts/production-like.mjs",
        "--no-build",
        "--fresh",
        "--port",
        String(port),
        "--state",
        ".wrangler/e2e-misconfigured-state",
        "--env-file",
        vars,
        "--log-file",
        logFile,
        "--var",
        "MAIL_PROVIDER:outbox",
        // Half of an ORCID client: named like any other missing setting.
        "--var",
        "ORCID_CLIENT_ID:APP-0123456789ABCDEF",
      ],
      { env: quiet, stdio: "ignore" },
    );
    try {
      const base = `http://127.0.0.1:${port}`;
      await expect.poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status, { timeout: 60_000 }).toBe(503);
      for (const path of ["/login", "/home", "/api/users/login", "/dev/mail"]) {
        expect((await request.get(`${base}${path}`)).status(), path).toBe(503);
      }
      const page = await request.get(`${base}/login`, { headers: { "Accept-Language": "ja,en;q=0.5" } });
      expect(await page.text()).toContain("一時的にご利用いただけません");
      const api = await (await request.post(`${base}/api/users/login`, { data: { email: "a@b.example", pwd: "x" } })).json();
      expect(api).toMatchObject({ code: 503, message: "Temporarily unavailable" });
      const entry = await waitForLog(logFile, (e) => e.event === "config.invalid");
      const problems = (entry.problems as Array<{ name: string; problem: string }>).map((p) => p.name).sort();
      expect(problems).toEqual(["MAIL_PROVIDER", "ORCID_CLIENT_SECRET", "PASSWORD_PEPPER"]);
    } finally {
      server.kill("SIGTERM");
    }
  });
});
