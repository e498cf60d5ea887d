// `npm run membership -- set <email> <free|regular|premium> [--env production] [--state <dir>]`: the
// one way a member's membership level changes (no payment provider is specified; docs/decisions/0017).
// Locally it writes to `npm start`'s state (stop the server first); with --env production, to the deployed D1.
import { execFileSync } from "node:child_process";
import { quietEnv, wrangler } from "./lib.mjs";

const LEVELS = ["free", "regular", "premium"];
const [verb, email, level, ...rest] = process.argv.slice(2);
const option = (name) => {
  const at = rest.indexOf(name);
  return at >= 0 ? rest[at + 1] : undefined;
};
if (verb !== "set" || !/^[^\s'@]+@[^\s'@]+$/.test(email ?? "") || !LEVELS.includes(level)) {
  console.error(`usage: npm run membership -- set <email> <${LEVELS.join("|")}> [--env production] [--state <dir>]`);
  process.exit(2);
}
const target = option("--env");
const sql = `UPDATE users SET membership = '${level}' WHERE email = '${email}' RETURNING id`;
const where = target
  ? ["--remote", "--env", target]
  : ["--local", "--config", "wrangler.toml", "--persist-to", option("--state") ?? ".wrangler/state"];
const output = execFileSync(wrangler, ["d1", "execute", "DB", ...where, "--json", "--command", sql], { env: quietEnv, encoding: "utf8" });
if ((JSON.parse(output)[0]?.results?.length ?? 0) === 0) {
  console.error(`Nothing changed: no member ${email}.`);
  process.exit(1);
}
// Tags past a lower level's limit stay; the member cannot add more until under it.
console.log(`${email} is now at the ${level} level. It applies from the member's next request.`);
