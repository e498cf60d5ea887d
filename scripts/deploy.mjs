// Deploys, the way the pipelines (.github/workflows) and an operator (docs/operations.md) run it:
//
//   node scripts/deploy.mjs production [--dry-run] [--secrets-file FILE]
//       build with CLOUDFLARE_ENV=production, apply each production database's D1 migrations (the
//       core, the statistics, then each text shard, each from its kind's folder), deploy.
//       A failed migration stops here: the code that needs it is never deployed.
//   node scripts/deploy.mjs preview --name pr-12 [--dry-run]
//       the same build as a Worker Preview of the production Worker, with databases of its own
//       (research-commons-pr-12, -pr-12-stats, -pr-12-text-1, ...: created when missing, migrated
//       first) and jobs and stats queues of its own. Prints the preview's URL (and writes url=... to
//       $GITHUB_OUTPUT when set).
//   node scripts/deploy.mjs preview-delete --name pr-12 [--dry-run]
//       removes the preview, its databases and its queues.
//   node scripts/deploy.mjs add-shard [--dry-run]
//       one more production text shard (docs/operations.md, "Adding a text shard"): creates the
//       database and adds its block to wrangler.toml (production and previews); the next deploy
//       migrates it, and new items start going there.
//
// --dry-run needs no Cloudflare account: it builds for real (or, with --reuse-build, takes the
// production build already in build-production), applies the migrations to scratch local
// databases, runs `wrangler deploy --dry-run` on the real build, and prints the commands it
// would run against Cloudflare instead of running them. The tests run it. add-shard's dry run
// writes wrangler.toml's new block into a copy and runs the production checks against that copy.
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { MIGRATION_DIRS } from "./databases.mjs";
import { configDatabases, isPreviewDatabase, orderedDatabases, previewDatabaseName } from "./environment-databases.mjs";
import { mustRun, quietEnv, run, wrangler } from "./lib.mjs";
import { prepareLocalState, withoutClassWarnings } from "./local-state.mjs";

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

/**
 * In a dry run: every database the config binds migrated in a scratch local state, each from its
 * kind's folder, so a broken migration fails here too; then each one's migration record read back
 * (a database left out, or a migration not recorded, stops the dry run).
 */
async function checkMigrationsLocally(options) {
  const state = mkdtempSync(join(tmpdir(), "deploy-dry-run-"));
  try {
    await prepareLocalState(state, { demo: false, ...options });
    const { getPlatformProxy } = await import("wrangler");
    const { readD1Migrations } = await import("@cloudflare/vitest-plugin");
    const proxy = await withoutClassWarnings(() =>
      getPlatformProxy({
        configPath: options.config ?? "wrangler.toml",
        environment: options.environment,
        persist: { path: join(state, "v3") },
      }),
    );
    try {
      for (const { binding, kind } of orderedDatabases(Object.keys(proxy.env).map((binding) => ({ binding })))) {
        const expected = (await readD1Migrations(MIGRATION_DIRS[kind])).map((m) => m.name);
        const { results } = await proxy.env[binding].prepare("SELECT name FROM d1_migrations ORDER BY id").all();
        const applied = new Set(results.map((row) => row.name));
        const missing = expected.filter((name) => !applied.has(name));
        if (missing.length) fail(`${binding} lacks ${missing.join(", ")} after the local migration`);
        console.log(`[dry run] ${binding} (${MIGRATION_DIRS[kind]}): all ${expected.length} migrations applied locally`);
      }
    } finally {
      await proxy.dispose();
    }
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

/** `wrangler deploy --dry-run` on a built config: bundles it and checks the configuration. */
async function bundleCheck(config = BUILT) {
  await mustRun(wrangler, ["deploy", "--dry-run", "--config", config, "--outdir", "build-production/dry-run"]);
}

/** Every database's id must be real: a placeholder left in wrangler.toml would deploy nothing usable. */
function requireRealIds(where, databases) {
  for (const { binding, database_id: id = "" } of databases) {
    if (!PLACEHOLDER.test(id)) continue;
    if (dryRun) console.warn(`[dry run] ${where} ${binding} still has the placeholder database id ${id}: a real deploy stops here`);
    else
      fail(
        `${where} ${binding} has the placeholder database id ${id}; create the database and put its id in wrangler.toml (docs/operations.md)`,
      );
  }
}

/** Each database's migrations, the core first, then the statistics, then the text shards (a failure stops the deploy). */
async function migrate(databases, target) {
  for (const { binding } of databases) await remote(["d1", "migrations", "apply", binding, "--remote", ...target]);
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

/** The D1 databases of the Cloudflare account (names and ids). */
const accountDatabases = async () => JSON.parse((await remote(["d1", "list", "--json"], { capture: true })) || "[]");
const databaseId = async (name) => JSON.parse(await remote(["d1", "info", name, "--json"], { capture: true })).uuid;

function requireName() {
  if (!values.name || !/^[a-z0-9-]{1,40}$/.test(values.name)) fail("--name must be 1-40 lowercase letters, digits or dashes (e.g. pr-12)");
  return values.name;
}

async function deployProduction() {
  const built = await build();
  const databases = orderedDatabases(built.d1_databases);
  requireRealIds("[env.production]", databases);
  if (dryRun) await checkMigrationsLocally({ environment: "production" });
  // Migrations first, against the source config (the built one has no migration history of its own).
  await migrate(databases, ["--env", "production"]);
  await ensureQueues(queuesOf(built));
  // --secrets-file: a new Worker's first deploy must bring the secrets production requires.
  const secrets = values["secrets-file"] ? ["--secrets-file", resolve(values["secrets-file"])] : [];
  if (dryRun) await bundleCheck();
  else await mustRun(wrangler, ["deploy", "--config", BUILT, ...secrets]);
}

async function deployPreview() {
  const name = requireName();
  const built = await build();
  // This preview's own database of every kind the previews bind, in the built config only (wrangler.toml keeps the shared defaults).
  const existing = dryRun ? [] : (await accountDatabases()).map((db) => db.name);
  const databases = [];
  for (const shared of orderedDatabases(built.previews.d1_databases)) {
    const database = previewDatabaseName(name, shared.binding);
    // Distinct made-up ids in a dry run: a local database is kept under its id.
    let id = `dry-run-${database}`;
    if (dryRun) await remote(["d1", "create", database]);
    else {
      if (!existing.includes(database)) await remote(["d1", "create", database]);
      id = await databaseId(database);
    }
    const { kind, ...binding } = shared;
    databases.push({ ...binding, database_name: database, database_id: id, migrations_dir: resolve(MIGRATION_DIRS[kind]) });
  }
  built.previews.d1_databases = databases;
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
    JSON.stringify({ name: built.name, compatibility_date: built.compatibility_date, d1_databases: databases }),
  );
  if (dryRun) await checkMigrationsLocally({ config: migrationConfig });
  await migrate(orderedDatabases(databases), ["--config", migrationConfig]);
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

/** Removes the preview, its databases and its queues; each is tried even when another fails (or never existed). */
async function deletePreview() {
  const name = requireName();
  // Its databases as they are in the account (made with whatever shards the previews bound then);
  // a dry run, which cannot look, names those a preview made now has.
  const databases = dryRun
    ? (await configDatabases("preview")).map((db) => previewDatabaseName(name, db.binding))
    : (await accountDatabases()).map((db) => db.name).filter((database) => isPreviewDatabase(name, database));
  const failed = [];
  for (const args of [
    ["preview", "delete", "--config", "wrangler.toml", "--env", "production", "--name", name, "-y"],
    ...databases.map((database) => ["d1", "delete", database, "-y"]),
    ...PREVIEW_QUEUE_KINDS.flatMap((kind) => [
      ["queues", "delete", previewQueue(name, kind)],
      ["queues", "delete", `${previewQueue(name, kind)}-failed`],
    ]),
  ]) {
    if (dryRun) await remote(args);
    else if ((await run(wrangler, args)) !== 0) failed.push(args.slice(0, 3).join(" "));
  }
  if (failed.length) fail(`${failed.join(" and ")} failed (see above)`);
}

/** wrangler.toml with a block added after the last block of `header` (blocks are separated by a blank line). */
function withBlock(text, header, block) {
  const last = text.lastIndexOf(`${header}\n`);
  if (last < 0) fail(`wrangler.toml has no ${header}`);
  const end = text.indexOf("\n\n", last);
  const at = end < 0 ? text.length : end + 1;
  return `${text.slice(0, at)}\n${block}${text.slice(at)}`;
}

const shardBlock = (header, n, name, id) =>
  `${header}\nbinding = "TEXT_${n}"\ndatabase_name = "${name}"\ndatabase_id = "${id}"\nmigrations_dir = "${MIGRATION_DIRS.text}"\n`;

/**
 * One more production text shard: the database created, and its block (and the previews' own) added
 * to wrangler.toml. Nothing stored moves; the deploy that follows migrates it, and new items start
 * going to it at random among the open shards (NEW_ITEM_SHARD in app/.server/databases.ts).
 */
async function addShard() {
  const shards = (await configDatabases("production")).filter((db) => db.kind === "text");
  const n = Math.max(0, ...shards.map((db) => Number(db.binding.slice("TEXT_".length)))) + 1;
  const name = `research-commons-production-text-${n}`;
  await remote(["d1", "create", name]);
  const id = dryRun ? `dry-run-${name}` : await databaseId(name);
  // The previews bind the same shards (each preview makes its own database from this block's binding).
  const text = withBlock(
    withBlock(
      readFileSync("wrangler.toml", "utf8"),
      "[[env.production.d1_databases]]",
      shardBlock("[[env.production.d1_databases]]", n, name, id),
    ),
    "[[env.production.previews.d1_databases]]",
    shardBlock("[[env.production.previews.d1_databases]]", n, `research-commons-preview-text-${n}`, `REPLACE_WITH_PREVIEW_TEXT_${n}_D1_ID`),
  );
  const folder = dryRun ? mkdtempSync(join(tmpdir(), "add-shard-")) : ".";
  const config = join(folder, "wrangler.toml");
  writeFileSync(config, text);
  console.log(`TEXT_${n} (${name}) added to ${config}:\n\n${shardBlock("[[env.production.d1_databases]]", n, name, id)}`);
  if (!dryRun) {
    console.log("Next: commit wrangler.toml and deploy (npm run deploy:production, or the Production workflow): the deploy migrates it.");
    return;
  }
  try {
    // What the production deploy that follows does, against the copy: migrate every database, then bundle a build that binds the new shard.
    const databases = await configDatabases("production", config);
    if (!databases.some((db) => db.binding === `TEXT_${n}`)) fail(`the copy of wrangler.toml does not bind TEXT_${n}`);
    await checkMigrationsLocally({ config, environment: "production" });
    await migrate(databases, ["--env", "production"]);
    const built = await build();
    built.d1_databases = [...built.d1_databases, { binding: `TEXT_${n}`, database_name: name, database_id: id }];
    // Beside the build it copies: the built config names its code and assets relative to itself.
    const builtCopy = "build-production/server/wrangler-add-shard.json";
    writeFileSync(builtCopy, JSON.stringify(built));
    try {
      await bundleCheck(builtCopy);
    } finally {
      rmSync(builtCopy, { force: true });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (action === "production") await deployProduction();
else if (action === "preview") await deployPreview();
else if (action === "preview-delete") await deletePreview();
else if (action === "add-shard") await addShard();
else fail("usage: node scripts/deploy.mjs production|preview|preview-delete|add-shard [--name pr-N] [--dry-run]");
if (dryRun) console.log("\ndeploy: dry run finished; nothing was sent to Cloudflare");
