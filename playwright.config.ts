import { defineConfig } from "@playwright/test";
import { e2eServers, productionLike } from "./scripts/e2e-servers.ts";

const port = Number(process.env.E2E_PORT ?? 8790);
export const PRODUCTION = productionLike(port);

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
const REQUESTS_ONLY = ["api.spec.ts", "naughty-strings.spec.ts", "harvesters.spec.ts", "script-budget.spec.ts"];

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
  // npm test starts them while Vitest runs (E2E_SERVERS_STARTED); on their own, Playwright starts them.
  webServer: e2eServers(port).map(({ command, url }) => ({
    command,
    url,
    reuseExistingServer: process.env.E2E_SERVERS_STARTED === "1",
    timeout: 120_000,
    stdout: "ignore" as const,
  })),
});
