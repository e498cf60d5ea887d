import { mkdirSync, writeFileSync } from "node:fs";
import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 8790);
// The production-like run (production build, production settings, local bindings) beside it.
export const PRODUCTION = {
  port: port + 1,
  mailPort: port + 2,
  logFile: "reports/production-like.log",
  varsFile: "reports/production-like.vars",
};
// Its secrets, as an operator's git-ignored .dev.vars would hold them (fixed, so every process agrees).
mkdirSync("reports", { recursive: true });
writeFileSync(PRODUCTION.varsFile, "PASSWORD_PEPPER=production-like-test-pepper-0123456789abcdef\nMAIL_API_KEY=production-like-test-key\n");

const chromium = {
  // Debian's headless shell: the same Chromium without the browser's own UI, about 40% less CPU a test.
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
/** The full browser, for the few tests about what only it has (its PDF viewer): `test.use({ launchOptions: FULL_CHROMIUM })`. */
export const FULL_CHROMIUM = { ...chromium, executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" };

// Specs of requests only (no page is rendered in a browser) run once, in the js project.
const REQUESTS_ONLY = ["api.spec.ts", "naughty-strings.spec.ts"];

// Debian's Chromium (no browser download is possible here), with JavaScript on and off, and the
// production build's checks in a project of their own. The no-JS project schedules every spec that
// submits forms or reads pages; tests tagged JS_ONLY (tests/e2e/helpers.ts) are not scheduled there.
export default defineConfig({
  testDir: "tests/e2e",
  // Limits for a hung test, sized for a machine three times slower than a quiet 2-core one; no test
  // measures speed (waiting is on events and states, never on a clock).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 2,
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: { baseURL: `http://127.0.0.1:${port}`, launchOptions: chromium },
  projects: [
    { name: "js", testIgnore: "production/**", use: { javaScriptEnabled: true } },
    {
      name: "no-js",
      testIgnore: ["production/**", ...REQUESTS_ONLY],
      grepInvert: /@js-only/,
      use: { javaScriptEnabled: false },
    },
    {
      name: "production",
      testMatch: "production/**/*.spec.ts",
      use: { javaScriptEnabled: true, baseURL: `http://127.0.0.1:${PRODUCTION.port}` },
    },
  ],
  webServer: [
    {
      command: `node scripts/serve-e2e.mjs ${port}`,
      url: `http://127.0.0.1:${port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
    },
    {
      command: `node scripts/production-like.mjs --no-build --fresh --port ${PRODUCTION.port} --state .wrangler/e2e-production-state --env-file ${PRODUCTION.varsFile} --fake-mail --fake-mail-port ${PRODUCTION.mailPort} --log-file ${PRODUCTION.logFile}`,
      url: `http://127.0.0.1:${PRODUCTION.port}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
    },
  ],
});
