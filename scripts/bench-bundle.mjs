// The deployable bundle: its size as `wrangler deploy --dry-run` reports it for the production build,
// against Cloudflare's limit, and the worker's startup time as `wrangler check startup` profiles it
// (the global scope's work before the first request; Cloudflare refuses a Worker that takes over 1 s).
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { mustRun, quietEnv, wrangler } from "./lib.mjs";

const CONFIG = "build-production/server/wrangler.json";
const LIMIT_MIB = 64; // uncompressed, every plan (wrangler 4.164 checks the same figure)
const STARTUP_LIMIT_MS = 1000;

const run = (args) => execFileSync(wrangler, args, { env: quietEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const plain = (text) => text.replace(/\u001b\[[\d;]*m/g, "");

export async function bundleBenchmarks() {
  console.log("\nDeployable bundle (production build)");
  await mustRun("node_modules/.bin/react-router", ["build"], { env: { ...quietEnv, CLOUDFLARE_ENV: "production" }, stdio: "ignore" });
  const dry = plain(run(["deploy", "--dry-run", "--config", CONFIG, "--outdir", "build-production/dry-run"]));
  const size = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(dry);
  if (size) {
    const [raw, gzip] = [Number(size[1]), Number(size[2])];
    const share = ((raw / 1024 / LIMIT_MIB) * 100).toFixed(1);
    console.log(
      `  wrangler deploy --dry-run: ${raw.toFixed(0)} KiB raw, ${gzip.toFixed(0)} KiB gzip (${share}% of the ${LIMIT_MIB} MiB limit)`,
    );
  } else {
    console.log("  wrangler deploy --dry-run printed no size");
  }
  const outfile = "build-production/startup.cpuprofile";
  const startup = plain(run(["check", "startup", "--config", CONFIG, "--outfile", outfile]));
  rmSync(outfile, { force: true });
  const active = /Active:\s*([\d.]+)\s*ms/i.exec(startup)?.[1];
  console.log(
    active
      ? `  startup (wrangler check startup, CPU while the bundle loads): ${active} ms (limit ${STARTUP_LIMIT_MS} ms)`
      : `  wrangler check startup printed: ${startup.trim().split("\n").slice(-3).join(" | ")}`,
  );
}
