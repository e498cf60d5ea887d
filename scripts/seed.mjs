// Loads the demo data into a local D1 state folder. Every statement is idempotent (INSERT OR IGNORE),
// so running `npm start` again is harmless. Demo data exists only locally, never in a deployment.
import { mkdirSync, writeFileSync } from "node:fs";
import { DEMO_CONTENT, demoStatements } from "./demo-data.mjs";
import { mustRun, wrangler } from "./lib.mjs";

const stateDir = process.argv[2] ?? ".wrangler/state";
const statements = await demoStatements();
mkdirSync(".wrangler/tmp", { recursive: true });
const file = ".wrangler/tmp/demo-seed.sql";
writeFileSync(file, `${statements.join(";\n")};\n`);
await mustRun(wrangler, ["d1", "execute", "DB", "--local", "--config", "wrangler.toml", "--persist-to", stateDir, "--file", file]);

// The demo files go into local R2 under the keys the rows point at (put again on every start: harmless).
for (const object of DEMO_CONTENT.flatMap((c) => [c.file, c.thumbnail])) {
  await mustRun(wrangler, [
    "r2",
    "object",
    "put",
    `research-commons-files/${object.key}`,
    "--local",
    "--config",
    "wrangler.toml",
    "--persist-to",
    stateDir,
    "--file",
    object.path,
    "--content-type",
    object.type,
  ]);
}
