// `npm start`: build, migrate, load demo data, and serve on http://127.0.0.1:$PORT (default 8787).
import { startFakeOrcid } from "./fake-orcid.mjs";
import { mustRun, prepareDatabase, serveBuilt, stopWithParent, varArgs } from "./lib.mjs";

const port = Number(process.env.PORT ?? 8787);
const stateDir = ".wrangler/state";
/** The schedule in wrangler.toml. */
const CRON = "*/15 * * * *";

console.log(`Node ${process.version}`);
await mustRun("node_modules/.bin/react-router", ["build"]);
await prepareDatabase(stateDir);
// ORCID and the DOI resolver are out of reach here: a stand-in answers their APIs on loopback.
const orcid = await startFakeOrcid();
console.log(`\nServing on http://127.0.0.1:${port} (state in ${stateDir}); stand-in ORCID and DOI resolver on ${orcid.url}\n`);
// `OPEN_RECORDS=on npm start` lets owners open their items' records (docs/configuration.md).
const open = process.env.OPEN_RECORDS ? { OPEN_RECORDS: process.env.OPEN_RECORDS } : {};
const server = serveBuilt(port, stateDir, "inherit", ["--test-scheduled", ...varArgs({ ...orcid.vars, ...open })]);
stopWithParent(server);

// The cron once, as production's would run within minutes: it reads the demo document's text, computes
// the first ranking and moves the demo's older messages.
for (let tries = 0; tries < 120; tries++) {
  const ran = await fetch(`http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(CRON)}`).catch(() => null);
  if (ran?.ok) {
    console.log("Ran the scheduled jobs once.");
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
}
