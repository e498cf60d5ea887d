// Serves the built worker for Playwright on a fresh local state (migrations and demo data applied).
import { rmSync } from "node:fs";
import { startFakeOrcid } from "./fake-orcid.mjs";
import { prepareDatabase, serveBuilt, stopWithParent, varArgs } from "./lib.mjs";

const port = Number(process.argv[2] ?? 8790);
const stateDir = ".wrangler/e2e-state";
rmSync(stateDir, { recursive: true, force: true });
await prepareDatabase(stateDir);
const orcid = await startFakeOrcid();
// Open records allowed, two records an OAI-PMH answer so a harvest crosses tokens (decision 0049);
// the production-like server keeps the default, off.
const server = serveBuilt(port, stateDir, "inherit", varArgs({ ...orcid.vars, OPEN_RECORDS: "on", OAI_LIST_SIZE: "2" }));
stopWithParent(server);
