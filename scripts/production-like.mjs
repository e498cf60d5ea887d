// `npm run start:production-like`: the production build, with production's settings, on local
// bindings (D1, R2, Durable Objects in workerd) and without demo data. Secrets come from a git-ignored
// env file (default .dev.vars.production, apart from a local build's .dev.vars; see
// docs/configuration.md). It is how an operator, and the tests,
// see what production does before deploying.
//
//   node scripts/production-like.mjs [--port 8788] [--env-file .dev.vars.production] [--state DIR] [--fresh]
//                                    [--fake-mail] [--fake-mail-port N] [--log-file FILE] [--no-build]
//                                    [--var NAME:value ...]
//
// --fake-mail answers the mail provider's HTTP API on a loopback port (scripts/fake-mail-provider.mjs)
// and points MAIL_API_URL at it, so sign-up codes can be read without the real provider.
import { createWriteStream, existsSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { startFakeMailProvider } from "./fake-mail-provider.mjs";
import { mustRun, quietEnv, serveBuilt, stopWithParent } from "./lib.mjs";
import { prepareLocalState } from "./local-state.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "8788" },
    "env-file": { type: "string", default: ".dev.vars.production" },
    state: { type: "string", default: ".wrangler/production-like-state" },
    fresh: { type: "boolean", default: false },
    "fake-mail": { type: "boolean", default: false },
    "fake-mail-port": { type: "string", default: "0" },
    "log-file": { type: "string" },
    var: { type: "string", multiple: true, default: [] },
    "no-build": { type: "boolean", default: false },
  },
});

const production = { ...quietEnv, CLOUDFLARE_ENV: "production" };
if (!values["no-build"]) await mustRun("node_modules/.bin/react-router", ["build"], { env: production });
if (values.fresh) rmSync(values.state, { recursive: true, force: true });
await prepareLocalState(values.state, { demo: false, environment: "production" });

const envFile = resolve(values["env-file"]);
const extra = values.var.flatMap((pair) => ["--var", pair]);
if (existsSync(envFile)) extra.push("--env-file", envFile);
else console.warn(`\n${values["env-file"]} not found: the worker will answer 503 and log the secrets it misses.\n`);
if (values["fake-mail"]) {
  const { url } = await startFakeMailProvider({ port: Number(values["fake-mail-port"]) });
  extra.push("--var", `MAIL_API_URL:${url}`);
  console.log(`Fake mail provider on ${url} (GET ${url}/emails lists what was sent)`);
}
console.log(`\nServing the production build on http://127.0.0.1:${values.port} (state in ${values.state})\n`);
// With --log-file the worker's log lines also go to a file, where tests read them.
const logFile = values["log-file"] ? createWriteStream(values["log-file"]) : null;
const server = serveBuilt(Number(values.port), values.state, logFile ? "pipe" : "inherit", extra, "build-production/server/wrangler.json");
for (const stream of logFile ? [server.stdout, server.stderr] : []) {
  stream.on("data", (chunk) => {
    logFile.write(chunk);
    process.stdout.write(chunk);
  });
}
stopWithParent(server);
