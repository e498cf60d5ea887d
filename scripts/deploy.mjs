// Deploys, the way the pipelines (.github/workflows) and an operator (docs/operations.md) run it:
//
//   node scripts/deploy.mjs production [--dry-run] [--secrets-file FILE]
//       build with CLOUDFLARE_ENV=production, apply D1 migrations to the production database, deploy.
//       A failed migration stops here: the code that needs it is never deployed.
//   node scripts/deploy.mjs preview --name pr-12 [--dry-run]
//       the same build as a Worker Preview of the production Worker, with a D1 database of its own
//       (research-commons-pr-12, created when missing, migrated first) and jobs and stats queues of its own. Prints the preview's URL
//       (and writes url=... to $GITHUB_OUTPUT when set).
//   node scripts/deploy.mjs preview-delete --name pr-12 [--dry-run]
//       removes the preview and its database.
//
// --dry-run needs no Cloudflare account: it builds for real (or, with --reuse-build, takes the
// production build already in build-production), applies the migrations to a scratch
// local database, runs `wrangler deploy --dry-run` on the real build, and prints the commands it
// would run against Cloudflare instead of running them. The tests run it.
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { mustRun, quietEnv, run, wrangler } from "./lib.mjs";
import { prepareLocalState } from "./local-state.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "dry-run": { type: "boolean", default: false },
    "reuse-build": { type: "boolean", default: false },
    name: { type: "string" },
    "secrets-file": { type: "string" },
  },
});
const [action] = positionals;
const dryRun = values["dry-run"];
const BUILT = "build-production/server/wrangler.json";
const PLACEHOLDER = /^REPLACE_/;

function fail(message) {
  console.error(`\ndeploy: ${message}`);
  process.exit(1);
}

/** Runs a command against Cloudflare, or in a dry run says what it would run. */
async function remote(args, options) {
  if (dryRun) {
    console.log(`[dry run] would run: wrangler ${args.join(" ")}`);
    return "";
  }
  if (options?.capture) return execFileSync(wrangler, args, { env: quietEnv, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  await mustRun(wrangler, args);
  return "";
}

async function build() {
  // --reuse-build (npm test's dry runs): the production build npm test has just made, when there is one.
  if (!(values["reuse-build"] && existsSync(BUILT))) {
    await mustRun("node_modules/.bin/react-router", ["build"], { env: { ...quietEnv, CLOUDFLARE_ENV: "production" } });
  }
  return JSON.parse(readFileSync(BUILT, "utf8"));
}

/** In a dry run: the migrations applied to a scratch local database, so a broken one fails here too. */
async function checkMigrationsLocally(options) {
  const state = mkdtempSync(join(tmpdir(), "deploy-dry-run-"));
  try {
    await prepareLocalState(state, { demo: false, ...options });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

/** `wrangler deploy --dry-run` on the real build: bundles it and checks the configuration. */
async function bundleCheck() {
  await mustRun(wrangler, ["deploy", "--dry-run", "--config", BUILT, "--outdir", "build-production/dry-run"]);
}

function requireRealIds(blocks) {
  for (const [where, block] of blocks) {
    const id = block?.d1_databases?.[0]?.database_id ?? "";
    if (!PLACEHOLDER.test(id)) continue;
    if (dryRun) console.warn(`[dry run] ${where} still has the placeholder database id ${id}: a real deploy stops here`);
    else fail(`${where} has the placeholder database id ${id}; create the database and put its id in wrangler.toml (docs/operations.md)`);
  }
}

/** The preview's URL in `wrangler preview --json` output (the preview's own before the deployment's). */
function previewUrl(answer) {
  const urls = [];
  const walk = (value, key = "") => {
    if (typeof value === "string" && /url/i.test(key) && value.startsWith("https://")) urls.push(value);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(answer?.preview);
  walk(answer?.deployment);
  return urls[0];
}

const previewDatabase = (name) => `research-commons-${name}`;
/** A preview's own queue for what a shared queue is for: "research-commons-pr-12-jobs" for "...-jobs". */
const previewQueue = (name, shared) => `research-commons-${name}-${shared.split("-").at(-1)}`;
/** The queues a preview has (wrangler.toml's preview block names the shared defaults). */
const PREVIEW_QUEUE_KINDS = ["jobs", "stats"];

/** The queues of a config block (jobs, stats) and their dead-letter queues. */
const queuesOf = (block) =>
  (block?.queues?.consumers ?? []).flatMap((consumer) => [consumer.queue, consumer.dead_letter_queue].filter(Boolean));

/** Creates each queue that does not exist yet (a consumer cannot be deployed for a missing queue). */
async function ensureQueues(names) {
  for (const name of names) {
    if (dryRun) {
      await remote(["queues", "create", name]);
      continue;
    }
    if ((await run(wrangler, ["queues", "info", name])) === 0) continue;
    await mustRun(wrangler, ["queues", "create", name]);
  }
}

function requireName() {
  if (!values.name || !/^[a-z0-9-]{1,40}$/.test(values.name)) fail("--name must be 1-40 lowercase letters, digits or dashes (e.g. pr-12)");
  return values.name;
}

async function deployProduction() {
  const built = await build();
  requireRealIds([["[env.production]", built]]);
  if (dryRun) await checkMigrationsLocally({ environment: "production" });
  // Migrations first, against the source config (the built one has no migration history of its own).
  await remote(["d1", "migrations", "apply", "DB", "--remote", "--env", "production"]);
  await ensureQueues(queuesOf(built));
  // --secrets-file: a new Worker's first deploy must bring the secrets production requires.
  const secrets = values["secrets-file"] ? ["--secrets-file", resolve(values["secrets-file"])] : [];
  if (dryRun) await bundleCheck();
  else await mustRun(wrangler, ["deploy", "--config", BUILT, ...secrets]);
}

async function deployPreview() {
  const name = requireName();
  const built = await build();
  const database = previewDatabase(name);
  let id = "dry-run-database-id";
  if (!dryRun) {
    const existing = JSON.parse((await remote(["d1", "list", "--json"], { capture: true })) || "[]").find((db) => db.name === database);
    if (!existing) await remote(["d1", "create", database]);
    id = JSON.parse(await remote(["d1", "info", database, "--json"], { capture: true })).uuid;
  } else {
    await remote(["d1", "create", database]);
  }
  // This preview's own database, in the built config only (wrangler.toml keeps the shared defaults).
  const binding = { ...built.previews.d1_databases[0], database_name: database, database_id: id, migrations_dir: resolve("migrations") };
  built.previews.d1_databases = [binding];
  // And its own queues: a queue has one consumer, and jobs and readings name rows of this preview's database.
  built.previews.queues = {
    producers: built.previews.queues.producers.map((producer) => ({ ...producer, queue: previewQueue(name, producer.queue) })),
    consumers: built.previews.queues.consumers.map((consumer) => {
      const queue = previewQueue(name, consumer.queue);
      return { ...consumer, queue, ...(consumer.dead_letter_queue ? { dead_letter_queue: `${queue}-failed` } : {}) };
    }),
  };
  await ensureQueues(queuesOf(built.previews));
  writeFileSync(BUILT, JSON.stringify(built));
  const migrationConfig = resolve("build-production/preview-database.json");
  writeFileSync(
    migrationConfig,
    JSON.stringify({ name: built.name, compatibility_date: built.compatibility_date, d1_databases: [binding] }),
  );
  if (dryRun) await checkMigrationsLocally({ config: migrationConfig });
  await remote(["d1", "migrations", "apply", "DB", "--remote", "--config", migrationConfig]);
  if (dryRun) {
    await bundleCheck();
    await remote(["preview", "--config", BUILT, "--name", name, "--json"]);
    return;
  }
  const answer = JSON.parse(await remote(["preview", "--config", BUILT, "--name", name, "--json"], { capture: true }));
  const url = previewUrl(answer);
  console.log(`Preview ${name}: ${url}`);
  if (process.env.GITHUB_OUTPUT && url) appendFileSync(process.env.GITHUB_OUTPUT, `url=${url}\n`);
}

/** Removes the preview, its database and its queues; each is tried even when the other fails (or never existed). */
async function deletePreview() {
  const name = requireName();
  const failed = [];
  for (const args of [
    ["preview", "delete", "--config", "wrangler.toml", "--env", "production", "--name", name, "-y"],
    ["d1", "delete", previewDatabase(name), "-y"],
    ...PREVIEW_QUEUE_KINDS.flatMap((kind) => [
      ["queues", "delete", previewQueue(name, kind)],
      ["queues", "delete", `${previewQueue(name, kind)}-failed`],
    ]),
  ]) {
    if (dryRun) await remote(args);
    else if ((await run(wrangler, args)) !== 0) failed.push(args.slice(0, 2).join(" "));
  }
  if (failed.length) fail(`${failed.join(" and ")} failed (see above)`);
}

if (action === "production") await deployProduction();
else if (action === "preview") await deployPreview();
else if (action === "preview-delete") await deletePreview();
else fail("usage: node scripts/deploy.mjs production|preview|preview-delete [--name pr-N] [--dry-run]");
if (dryRun) console.log("\ndeploy: dry run finished; nothing was sent to Cloudflare");
