// `npm test`: type-check and lint beside the local and the production build (each build is made
// once and reused: the deploy dry runs and the production project take the production one), then
// every Vitest layer (workers pool with route loaders and actions, happy-dom, unit), then Playwright
// against the built workers: the local one with JavaScript on and off, the production one in its
// production-like run. Ends with each step's time in one table and "N passed, N failed".
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { e2eServers } from "./e2e-servers.ts";
import { freePort, quietEnv, run, waitFor } from "./lib.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
rmSync("reports", { recursive: true, force: true });

const steps = [];
const started = Date.now();
const seconds = (ms) => (ms / 1000).toFixed(1);

function record(name, code, since) {
  const step = { name, ok: code === 0, seconds: seconds(Date.now() - since) };
  steps.push(step);
  console.log(`=== ${name}: ${step.ok ? "ok" : `FAILED (exit ${code})`} in ${step.seconds} s`);
  return step.ok;
}

/** A step that has the terminal to itself. */
async function step(name, command, args, env) {
  const since = Date.now();
  console.log(`\n=== ${name}`);
  return record(name, await run(command, args, env ? { env: { ...quietEnv, ...env } } : undefined), since);
}

/** A step that runs beside others: its output is kept and printed whole when it ends. */
function quietStep(name, command, args, env) {
  const since = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...quietEnv, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("exit", (code, signal) => {
      console.log(`\n=== ${name}\n${Buffer.concat(output).toString().trimEnd()}`);
      resolve(record(name, code ?? (signal ? 1 : 0), since));
    });
  });
}

console.log(`Node ${process.version}`);
// The type check is TypeScript 7's native compiler (about 4 s here, where tsc 6 took 14 s alone and
// 38 s beside the builds); typescript 6 stays installed for openapi-typescript, which needs its API.
const tsc = "node_modules/typescript-native/bin/tsc";
const checks = (async () => {
  await quietStep("types", "sh", ["-c", `${bin("wrangler")} types >/dev/null && ${bin("react-router")} typegen && ${tsc}`]);
  await quietStep("lint", bin("biome"), ["check", "."]);
})();
const builds = (async () =>
  (await quietStep("build", bin("react-router"), ["build"])) &&
  (await quietStep("build for production (CLOUDFLARE_ENV=production)", bin("react-router"), ["build"], {
    CLOUDFLARE_ENV: "production",
  })))();
const [built] = await Promise.all([builds, checks]);

// The browser suites' servers get ready (local state, demo data) while Vitest runs; Playwright finds them up.
const e2ePort = await freePort(2);
const servers = built
  ? e2eServers(e2ePort).map(({ command, url }) => ({
      url,
      child: spawn("sh", ["-c", command], { env: quietEnv, stdio: "ignore", detached: true }),
    }))
  : [];
const stopServers = () => {
  for (const { child } of servers) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
};
process.on("exit", stopServers);
/** Whether the server answers (waits while it starts; false once it has exited, or after three minutes). */
const answers = ({ url, child }) =>
  waitFor(url, 180_000, () => child.exitCode !== null).then(
    () => true,
    () => false,
  );

await step("vitest (workers pool, happy-dom, unit)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile=reports/vitest.json",
]);
if (built) {
  // Should one not have come up, Playwright starts both itself (and says why, if it cannot).
  const started = (await Promise.all(servers.map(answers))).every(Boolean);
  if (!started) stopServers();
  await step("playwright (JavaScript on and off, production)", bin("playwright"), ["test"], {
    E2E_PORT: String(started ? e2ePort : await freePort(2)),
    E2E_SERVERS_STARTED: started ? "1" : "0",
  });
  stopServers();
} else {
  steps.push({ name: "playwright (not run: the build failed)", ok: false, seconds: "-" });
}

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
const vitest = read("reports/vitest.json");
const e2e = read("reports/e2e.json");
const passed = (vitest?.numPassedTests ?? 0) + (e2e?.stats.expected ?? 0) + (e2e?.stats.flaky ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (e2e?.stats.skipped ?? 0);
console.log(`\nvitest: ${vitest?.numPassedTests ?? 0} passed, ${vitest?.numFailedTests ?? 0} failed`);
console.log(`playwright: ${e2e?.stats.expected ?? 0} passed, ${e2e?.stats.unexpected ?? 0} failed, ${e2e?.stats.flaky ?? 0} flaky`);

// Each step's time (types and lint ran beside the builds, so the total is less than the sum).
const width = Math.max(...steps.map((s) => s.name.length));
console.log(`\n| ${"step".padEnd(width)} | result | seconds |\n| ${"-".repeat(width)} | ------ | ------- |`);
for (const s of steps) console.log(`| ${s.name.padEnd(width)} | ${s.ok ? "ok    " : "FAILED"} | ${s.seconds.padStart(7)} |`);
console.log(`| ${"total (wall clock)".padEnd(width)} |        | ${seconds(Date.now() - started).padStart(7)} |`);

const failures = steps.filter((s) => !s.ok);
if (failures.length) console.log(`failed steps: ${failures.map((s) => s.name).join(", ")}`);
// A failing step without failing tests (types, lint, build) still counts as a failure.
console.log(`${passed} passed, ${failed || failures.length} failed, ${skipped} skipped`);
process.exit(failures.length ? 1 : 0);
