// `npm run role -- grant|revoke <email> <role> [--env production] [--state <dir>]`: the one way a
// role (moderator, reviewer) is given or taken. Locally it writes to `npm start`'s state (stop the
// server first: two writers at once make SQLite busy); with --env production, to the deployed D1.
import { execFileSync } from "node:child_process";
import { quietEnv, wrangler } from "./lib.mjs";

const ROLES = ["moderator", "reviewer"];
const [verb, email, role, ...rest] = process.argv.slice(2);
const option = (name) => {
  const at = rest.indexOf(name);
  return at >= 0 ? rest[at + 1] : undefined;
};
if (!["grant", "revoke"].includes(verb) || !/^[^\s'@]+@[^\s'@]+$/.test(email ?? "") || !ROLES.includes(role)) {
  console.error(`usage: npm run role -- grant|revoke <email> <${ROLES.join("|")}> [--env production] [--state <dir>]`);
  process.exit(2);
}
const target = option("--env");
const sql =
  verb === "grant"
    ? `INSERT OR IGNORE INTO member_roles (user_id, role, granted_at) SELECT id, '${role}', ${Date.now()} FROM users WHERE email = '${email}' RETURNING user_id`
    : `DELETE FROM member_roles WHERE role = '${role}' AND user_id = (SELECT id FROM users WHERE email = '${email}') RETURNING user_id`;
const where = target
  ? ["--remote", "--env", target]
  : ["--local", "--config", "wrangler.toml", "--persist-to", option("--state") ?? ".wrangler/state"];
const output = execFileSync(wrangler, ["d1", "execute", "DB", ...where, "--json", "--command", sql], { env: quietEnv, encoding: "utf8" });
// The statement returns the rows it changed (local D1 reports no change counts).
const changes = JSON.parse(output)[0]?.results?.length ?? 0;
if (changes === 0) {
  console.error(`Nothing changed: no member ${email}, or ${verb === "grant" ? "they already hold" : "they do not hold"} ${role}.`);
  process.exit(1);
}
console.log(
  `${verb === "grant" ? "Granted" : "Revoked"} ${role} ${verb === "grant" ? "to" : "from"} ${email}. It applies from the member's next request.`,
);
