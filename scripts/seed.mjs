// Loads the demo data into a local D1 state folder. Every statement is idempotent (INSERT OR IGNORE),
// so running `npm start` again is harmless. Demo data exists only locally, never in a deployment.
import { mkdirSync, writeFileSync } from "node:fs";
import { demoStatements } from "./demo-data.mjs";
import { mustRun, wrangler } from "./lib.mjs";

const stateDir = process.argv[2] ?? ".wrangler/state";
const statements = await demoStatements();
if (statements.length === 0) process.exit(0);
mkdirSync(".wrangler/tmp", { recursive: true });
const file = ".wrangler/tmp/demo-seed.sql";
writeFileSync(file, `${statements.join(";\n")};\n`);
await mustRun(wrangler, ["d1", "execute", "DB", "--local", "--config", "wrangler.toml", "--persist-to", stateDir, "--file", file]);
