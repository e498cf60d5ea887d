// `npm run capacity`: every database of an environment, its size, and how full it is against D1's
// limit a database (docs/operations.md, "Databases and capacity").
//
//   npm run capacity [-- --local] [-- --state DIR]
//       the local databases `npm start` serves (its state folder, .wrangler/state, unless --state).
//   npm run capacity -- --env production
//   npm run capacity -- --env preview [--name pr-12]
//       the deployed ones, as Cloudflare reports them (`wrangler d1 info NAME --json`; needs
//       CLOUDFLARE_API_TOKEN as the deploy does). A preview's own databases with --name.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CAPACITY_WARN_SHARE, DATABASE_LIMIT_MB, TEXT_SHARD_CLOSED_SHARE } from "../app/lib/limits.ts";
import { configDatabases, previewDatabaseName } from "./environment-databases.mjs";
import { quietEnv, wrangler } from "./lib.mjs";
import { withoutClassWarnings } from "./local-state.mjs";

const { values } = parseArgs({
  options: {
    local: { type: "boolean", default: false },
    state: { type: "string", default: ".wrangler/state" },
    env: { type: "string" },
    name: { type: "string" },
  },
});
const MB = 1024 * 1024;

function fail(message) {
  console.error(`capacity: ${message}`);
  process.exit(1);
}

/** Each local database's size: any query's `size_after` is the database's size in bytes. */
async function localSizes(databases) {
  if (!existsSync(join(values.state, "v3", "d1"))) fail(`no local databases in ${values.state} (npm start makes them)`);
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await withoutClassWarnings(() =>
    getPlatformProxy({ configPath: "wrangler.toml", persist: { path: join(values.state, "v3") } }),
  );
  try {
    return await Promise.all(
      databases.map(async (db) => ({ ...db, bytes: (await proxy.env[db.binding].prepare("SELECT 1").run()).meta.size_after })),
    );
  } finally {
    await proxy.dispose();
  }
}

/** Each deployed database's size as Cloudflare reports it. */
function remoteSizes(databases) {
  return databases.map((db) => {
    let answer;
    try {
      answer = execFileSync(wrangler, ["d1", "info", db.database_name, "--json", "--env", "production"], {
        env: quietEnv,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      });
    } catch {
      fail(`wrangler d1 info ${db.database_name} failed (see above; it needs CLOUDFLARE_API_TOKEN or \`wrangler login\`)`);
    }
    const info = JSON.parse(answer);
    // wrangler names it database_size (the API's file_size).
    const bytes = info.database_size ?? info.file_size;
    if (typeof bytes !== "number") fail(`wrangler d1 info ${db.database_name} gave no size: ${answer.slice(0, 200)}`);
    return { ...db, bytes };
  });
}

const environment = values.env ?? "local";
if (values.name && environment !== "preview") fail("--name names a preview's own databases: use it with --env preview");
if (values.name && !/^[a-z0-9-]{1,40}$/.test(values.name)) fail("--name must be a preview's name (e.g. pr-12)");
let databases = await configDatabases(environment);
if (values.name) databases = databases.map((db) => ({ ...db, database_name: previewDatabaseName(values.name, db.binding) }));
const sizes = environment === "local" ? await localSizes(databases) : remoteSizes(databases);

const limit = DATABASE_LIMIT_MB * MB;
const rows = sizes.map((db) => {
  const share = db.bytes / limit;
  const marks = [
    share >= CAPACITY_WARN_SHARE ? `WARNING: ${CAPACITY_WARN_SHARE * 100} % or more` : "",
    db.kind === "text" && share >= TEXT_SHARD_CLOSED_SHARE ? "closed to new items" : "",
  ].filter(Boolean);
  return [db.database_name, db.binding, db.kind, (db.bytes / MB).toFixed(2), `${(share * 100).toFixed(2)} %`, marks.join("; ")];
});
const header = ["name", "binding", "kind", "size MB", "% of limit", ""];
const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
const line = (row) =>
  row
    .map((cell, i) => (i === 3 || i === 4 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
    .join("  ")
    .trimEnd();
const where = environment === "local" ? `local, state in ${values.state}` : values.name ? `preview ${values.name}` : environment;
console.log(`Databases (${where}); D1 holds at most ${DATABASE_LIMIT_MB} MB a database, warning at ${CAPACITY_WARN_SHARE * 100} %:\n`);
console.log([header, ...rows].map(line).join("\n"));
const full = rows.filter((row) => row[5]).length;
if (full) console.log(`\n${full} past ${CAPACITY_WARN_SHARE * 100} %: see docs/operations.md, "Databases and capacity".`);
