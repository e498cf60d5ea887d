import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test } from "./fixtures";

test("API calls run none of the pages' middleware: a pending notice, the language and the session cookie stay untouched", async ({
  request,
}) => {
  const flash = encodeURIComponent(JSON.stringify({ id: "abc12345", kind: "success", key: "notify.updateSuccess" }));
  for (const path of ["/api/openapi.json", "/api/auth/info", "/api/no-such-call"]) {
    const response = await request.get(path, { headers: { Cookie: `flash=${flash}; token=Bearer%20${"x".repeat(43)}` } });
    expect(response.headers()["content-type"]).toContain("application/json");
    const cookies = response.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie");
    expect(cookies.map((c) => c.value.split("=")[0])).toEqual([]);
  }
});

test("another site's page cannot call the API, and is told so in the envelope; programs and our own pages can", async ({
  request,
  baseURL,
}) => {
  const elsewhere = "https://elsewhere.example";
  const preflight = await request.fetch("/api/auth/info", {
    method: "OPTIONS",
    headers: { Origin: elsewhere, "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "authorization" },
  });
  expect(preflight.status()).toBe(403);
  expect(preflight.headers()["access-control-allow-origin"]).toBeUndefined();
  expect((await preflight.json()).message).toBe("Calls from other sites are not accepted");
  const post = await request.post("/api/users/login", { headers: { Origin: elsewhere }, data: { email: "a@b.example", pwd: "x" } });
  expect(post.status()).toBe(403);
  expect((await post.json()).code).toBe(403);

  expect((await request.get("/api/openapi.json", { headers: { Origin: baseURL ?? "" } })).status()).toBe(200);
  expect((await request.get("/api/openapi.json")).status()).toBe(200);
});

// The linters run offline: no telemetry, no update check.
const QUIET = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_UPDATE_NOTIFIER: "1" };

test("the served API document passes two independent OpenAPI linters with no errors", async ({ request }) => {
  const document = await (await request.get("/api/openapi.json")).text();
  mkdirSync("reports", { recursive: true });
  writeFileSync("reports/openapi.json", document);
  const lint = (command: string, args: string[]) => {
    try {
      return { code: 0, output: execFileSync(`node_modules/.bin/${command}`, args, { encoding: "utf8", stdio: "pipe", env: QUIET }) };
    } catch (error) {
      const failed = error as { status: number; stdout?: string; stderr?: string };
      return { code: failed.status, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
    }
  };
  const redocly = lint("redocly", ["lint", "reports/openapi.json", "--format", "stylish"]);
  expect(redocly.code, redocly.output).toBe(0);
  const spectral = lint("spectral", ["lint", "reports/openapi.json", "--ruleset", ".spectral.yaml", "--fail-severity", "error"]);
  expect(spectral.code, spectral.output).toBe(0);
});

test("a client generated from the document by openapi-typescript type-checks the spec's calls", async ({ request }) => {
  mkdirSync("reports", { recursive: true });
  writeFileSync("reports/openapi.json", await (await request.get("/api/openapi.json")).text());
  execFileSync("node_modules/.bin/openapi-typescript", ["reports/openapi.json", "--output", "reports/api-types.ts"], {
    stdio: "pipe",
    env: QUIET,
  });
  let output = "";
  try {
    execFileSync("node_modules/.bin/tsc", ["-p", "tests/client/tsconfig.json"], { encoding: "utf8", stdio: "pipe" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
});

test("the API reference renders the document with Swagger UI under a policy that allows no inline or foreign script; without JavaScript it links the document", async ({
  page,
  browser,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  page.on("pageerror", (error) => violations.push(error.message));
  const response = await page.goto("/api/docs");
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  // Swagger UI is a large script: a busy machine takes a while to render it.
  await expect(page.getByRole("heading", { name: /Research Commons API/ })).toBeVisible({ timeout: 20_000 });
  // Operations from the generated document, grouped by tag, with the spec's login call among them.
  await expect(page.locator(".opblock-summary-path").filter({ hasText: /^\/users\/login$/ })).toBeVisible();
  await expect(page.locator(".opblock-tag").filter({ hasText: "conversations" })).toBeVisible();
  expect(violations).toEqual([]);

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  await plain.goto("/api/docs");
  await expect(plain.getByRole("link", { name: "/api/openapi.json" })).toBeVisible();
  await noScript.close();
});
