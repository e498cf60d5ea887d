// `npm start`: build, migrate, load demo data, and serve on http://127.0.0.1:$PORT (default 8787).
import { mustRun, prepareDatabase, serveBuilt, stopWithParent } from "./lib.mjs";

const port = Number(process.env.PORT ?? 8787);
const stateDir = ".wrangler/state";

console.log(`Node ${process.version}`);
await mustRun("node_modules/.bin/react-router", ["build"]);
await prepareDatabase(stateDir);
console.log(`\nServing on http://127.0.0.1:${port} (state in ${stateDir})\n`);
const server = serveBuilt(port, stateDir);
stopWithParent(server);
