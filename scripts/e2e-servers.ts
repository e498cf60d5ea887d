// The two servers the browser suites run against, in one place for playwright.config.ts (which
// starts them when nobody did) and scripts/test.mjs (which starts them while Vitest runs, so they
// are ready when Playwright begins).
import { mkdirSync, writeFileSync } from "node:fs";

/** The production-like run (production build, production settings, local bindings) beside the local one. */
export const productionLike = (port: number) => ({
  port: port + 1,
  mailPort: port + 2,
  logFile: "reports/production-like.log",
  varsFile: "reports/production-like.vars",
});

/** Each server's command and the address that answers once it is ready. */
export function e2eServers(port: number): { command: string; url: string }[] {
  const production = productionLike(port);
  // Its secrets, as an operator's git-ignored .dev.vars would hold them (fixed, so every process agrees).
  mkdirSync("reports", { recursive: true });
  writeFileSync(
    production.varsFile,
    "PASSWORD_PEPPER=production-like-test-pepper-0123456789abcdef\nMAIL_API_KEY=production-like-test-key\n",
  );
  return [
    { command: `node scripts/serve-e2e.mjs ${port}`, url: `http://127.0.0.1:${port}/healthz` },
    {
      command: `node scripts/production-like.mjs --no-build --fresh --port ${production.port} --state .wrangler/e2e-production-state --env-file ${production.varsFile} --fake-mail --fake-mail-port ${production.mailPort} --log-file ${production.logFile}`,
      url: `http://127.0.0.1:${production.port}/healthz`,
    },
  ];
}
