// Shared by the start, test and bench scripts: run a command, and serve the built worker locally.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

export const quietEnv = {
  ...process.env,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
  NO_UPDATE_NOTIFIER: "1",
};

/** Runs a command, streaming its output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: quietEnv, ...options });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export async function mustRun(command, args, options) {
  const code = await run(command, args, options);
  if (code !== 0) {
    console.error(`\n${command} ${args.join(" ")} failed with exit code ${code}`);
    process.exit(code);
  }
}

export const wrangler = "node_modules/.bin/wrangler";

/** Applies the D1 migrations (and demo data) to a local state folder. Harmless when repeated. */
export async function prepareDatabase(stateDir, { demo = true } = {}) {
  const { prepareLocalState } = await import("./local-state.mjs");
  await prepareLocalState(stateDir, { demo });
}

/**
 * A fresh state folder (migrations, demo data) with these SQL statements run into its D1, through a
 * file named for `name`; answers the seconds the statements took.
 */
export async function seedState(stateDir, name, statements) {
  rmSync(stateDir, { recursive: true, force: true });
  await prepareDatabase(stateDir);
  mkdirSync(".wrangler/tmp", { recursive: true });
  const file = `.wrangler/tmp/${name}.sql`;
  writeFileSync(file, `${statements.join(";\n")};\n`);
  const started = performance.now();
  await mustRun(wrangler, ["d1", "execute", "DB", "--local", "--config", "wrangler.toml", "--persist-to", stateDir, "--file", file], {
    stdio: "ignore",
  });
  return (performance.now() - started) / 1000;
}

/** Calls `handle` with each structured log line (app/.server/observability/log.ts) a served worker prints. */
export function onLogEvents(server, handle) {
  let buffered = "";
  const read = (chunk) => {
    buffered += chunk;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      const at = line.indexOf('{"level"');
      if (at >= 0) handle(JSON.parse(line.slice(at)));
    }
  };
  server.stdout.on("data", read);
  server.stderr.on("data", read);
}

/**
 * The local build's config with Workers AI answered by the stand-in (scripts/fake-ai.wrangler.toml,
 * served in the same session): the translation model's suggestions work locally (decision 0050).
 * Written beside the build's own config, whose relative paths it keeps.
 */
export function withFakeAi(config = "build/server/wrangler.json") {
  const built = JSON.parse(readFileSync(config, "utf8"));
  built.services = [...(built.services ?? []), { binding: "AI", service: "research-commons-fake-ai", entrypoint: "FakeWhisper" }];
  const path = join(dirname(config), "wrangler.fake-ai.json");
  writeFileSync(path, JSON.stringify(built));
  return ["--config", path, "--config", "scripts/fake-ai.wrangler.toml", "--var", "TRANSLATION_MODEL:@cf/meta/m2m100-1.2b"];
}

/** Serves a built worker (by default the local build, with its AI stand-in) on 127.0.0.1:port with local bindings kept in stateDir. */
export function serveBuilt(port, stateDir, stdio = "inherit", extraArgs = [], config = "build/server/wrangler.json") {
  const local = config === "build/server/wrangler.json";
  return spawn(
    wrangler,
    [
      "dev",
      ...(local ? withFakeAi(config) : ["--config", config]),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      stateDir,
      "--show-interactive-dev-session=false",
      // Links in mail that background work sends (digests) point at this server.
      "--var",
      `SITE_URL:http://127.0.0.1:${port}`,
      ...extraArgs,
    ],
    { stdio, env: quietEnv },
  );
}

/** Settings as wrangler dev's `--var NAME:value` arguments. */
export const varArgs = (vars) => Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]);

/** Stops the server on SIGINT/SIGTERM (wrangler can linger, so it is killed after a grace period). */
export function stopWithParent(server) {
  const stop = () => {
    server.kill("SIGTERM");
    setTimeout(() => {
      server.kill("SIGKILL");
      process.exit(0);
    }, 2000).unref();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.on("exit", (code) => process.exit(code ?? 0));
}

/** Waits until `url` answers (below 500); throws after `timeoutMs`, or as soon as `stopped()` says there is no point. */
export async function waitFor(url, timeoutMs = 60_000, stopped = () => false) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && !stopped()) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer${stopped() ? "" : ` within ${timeoutMs} ms`}`);
}

/** A TCP port nothing listens on right now. */
/** Whether a port on loopback is free right now. */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer()
      .once("error", () => resolve(false))
      .listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A free loopback port; with `following`, also that many free ports right after it (the e2e servers use three). */
export async function freePort(following = 0) {
  // Below Linux's ephemeral range (32768+), where the servers' own random ports (inspector,
  // workerd's internals) come from: one of those once took a port chosen here before its server started.
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await Promise.all(Array.from({ length: following + 1 }, (_, i) => isFree(port + i)));
    if (free.every(Boolean)) return port;
  }
}
