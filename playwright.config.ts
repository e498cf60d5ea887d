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
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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

// Debian's Chromium (no browser download is possible here), with JavaScript on and off, and the
// production build's checks in a project of their own.
export default defineConfig({
  testDir: "tests/e2e",
  timeout: 30_000,
  workers: 2,
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: { baseURL: `http://127.0.0.1:${port}`, launchOptions: chromium },
  projects: [
    { name: "js", testIgnore: "production/**", use: { javaScriptEnabled: true } },
    { name: "no-js", testIgnore: "production/**", use: { javaScriptEnabled: false } },
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
