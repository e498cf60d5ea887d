// `npm test`: type-check, lint, every Vitest layer (workers pool, happy-dom, unit), the local and the
// production build, then Playwright against the built workers: the local one with JavaScript on and
// off, the production one in its production-like run. Ends with "N passed, N failed".
import { existsSync, readFileSync, rmSync } from "node:fs";
import { freePort, run } from "./lib.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
rmSync("reports", { recursive: true, force: true });

const failures = [];
async function step(name, command, args, env) {
  const started = Date.now();
  console.log(`\n=== ${name}`);
  const code = await run(command, args, env ? { env: { ...process.env, ...env } } : undefined);
  console.log(`=== ${name}: ${code === 0 ? "ok" : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (code !== 0) failures.push(name);
  return code === 0;
}

console.log(`Node ${process.version}`);
await step("types", "sh", ["-c", `${bin("wrangler")} types >/dev/null && ${bin("react-router")} typegen && ${bin("tsc")}`]);
await step("lint", bin("biome"), ["check", "."]);
await step("vitest (workers pool, happy-dom, unit)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile=reports/vitest.json",
]);
const built =
  (await step("build", bin("react-router"), ["build"])) &&
  (await step("build for production (CLOUDFLARE_ENV=production)", bin("react-router"), ["build"], { CLOUDFLARE_ENV: "production" }));
if (built) {
  await step("playwright (JavaScript on and off)", bin("playwright"), ["test"], { E2E_PORT: String(await freePort(2)) });
} else {
  failures.push("playwright (not run: the build failed)");
}

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
const vitest = read("reports/vitest.json");
const e2e = read("reports/e2e.json");
const passed = (vitest?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0) + (e2e?.stats.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (e2e?.stats.skipped ?? 0);
console.log(`\nvitest: ${vitest?.numPassedTests ?? 0} passed, ${vitest?.numFailedTests ?? 0} failed`);
console.log(
  `playwright: ${e2e?.stats.expected ?? 0} passed, ${e2e?.stats.unexpected ?? 0} failed, ${e2e?.stats.skipped ?? 0} skipped (JavaScript-only tests in the no-JS project)`,
);
if (failures.length) console.log(`failed steps: ${failures.join(", ")}`);
// A failing step without failing tests (types, lint, build) still counts as a failure.
console.log(`${passed} passed, ${failed || failures.length} failed, ${skipped} skipped`);
process.exit(failures.length ? 1 : 0);
