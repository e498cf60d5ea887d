// Serves the built worker for Playwright on a fresh local state (migrations and demo data applied).
import { rmSync } from "node:fs";
import { startFakeOrcid } from "./fake-orcid.mjs";
import { prepareDatabase, serveBuilt, stopWithParent, varArgs } from "./lib.mjs";

const port = Number(process.argv[2] ?? 8790);
const stateDir = ".wrangler/e2e-state";
rmSync(stateDir, { recursive: true, force: true });
await prepareDatabase(stateDir);
const orcid = await startFakeOrcid();
const server = serveBuilt(port, stateDir, "inherit", varArgs(orcid.vars));
stopWithParent(server);
