// Notifications (issue 33, docs/decisions/0040-calm-notifications.md), on the built worker with its
// real queue: the time to build the weekly digests of 10,000 members with 20 notifications each
// (two cron runs of 5,000, in jobs of 50), and the D1 statements one uploaded item spends telling
// 1,000 followers, 1,000 followers of its goal and 1,000 saved searches. Figures come from the
// consumer's log lines (statements counted like Server-Timing's). Prints figures; asserts nothing.
import { readFileSync } from "node:fs";
import { rgbPng } from "../tests/fixtures/images.ts";
import { freePort, onLogEvents, seedState, serveBuilt, waitFor } from "./lib.mjs";

const MEMBERS = Number(process.env.BENCH_DIGEST_MEMBERS ?? 10_000);
const PER_MEMBER = 20;
const AUDIENCE = 1000;
const UPLOADER = "match-bench@bench.test";

/** A zone where it is about noon now: every member's weekly digest is due. */
function noonZone(now) {
  const offset = 12 - new Date(now).getUTCHours();
  return offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
}

function seedSql(now) {
  const zone = noonZone(now);
  const n = (count) => `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${count})`;
  const member = (k) => `(SELECT id FROM users WHERE email = 'digest-' || (${k}) || '@bench.test')`;
  return [
    `${n(MEMBERS)} INSERT INTO users (email, password_hash, account_type, kind, nick_name, time_zone, created_at)
       SELECT 'digest-' || k || '@bench.test', 'x', 1, 'individual', 'Digest member ' || k, '${zone}', ${now} FROM n`,
    `INSERT INTO users (email, password_hash, account_type, kind, nick_name, time_zone, created_at) VALUES ('${UPLOADER}', 'x', 1, 'individual', 'Match uploader', 'UTC', ${now})`,
    `${n(MEMBERS * PER_MEMBER)} INSERT INTO notifications (user_id, kind, event, event_key, subject_id, actor_id, created_at)
       SELECT (SELECT min(id) FROM users WHERE email LIKE 'digest-%') + (k - 1) / ${PER_MEMBER}, 'like', 'like', 'bench:' || k, NULL, NULL, ${now} - (k % 6) * 86400000 - 60000 FROM n`,
    `${n(AUDIENCE)} INSERT INTO follows (follower_id, followee_id, created_at) SELECT ${member("k")}, (SELECT id FROM users WHERE email = '${UPLOADER}'), ${now} FROM n`,
    `${n(AUDIENCE)} INSERT INTO goal_follows (user_id, sdg, created_at) SELECT ${member(`${AUDIENCE} + k`)}, 6, ${now} FROM n`,
    `${n(AUDIENCE)} INSERT INTO saved_searches (user_id, q, terms, kind, sdg, created_at)
       SELECT ${member(`${2 * AUDIENCE} + k`)}, 'water ' || k, json_array('water'), NULL, NULL, ${now} FROM n`,
  ];
}

export async function notificationBenchmarks() {
  await seedState(".wrangler/bench-notifications", "bench-notifications", seedSql(Date.now()));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = serveBuilt(port, ".wrangler/bench-notifications", ["ignore", "pipe", "pipe"], ["--test-scheduled"]);
  const digests = { members: 0, sent: 0, statements: 0 };
  const matching = { statements: 0, told: 0, done: false };
  onLogEvents(server, (event) => {
    if (event.event === "digests.sent") {
      digests.members += event.members;
      digests.sent += event.sent;
      digests.statements += event.statements;
    } else if (event.event === "new_item.matched") {
      matching.statements += event.statements;
      matching.told += event.told;
      if (event.next === null) matching.done = true;
    }
  });
  const until = async (done, ms = 600_000) => {
    const end = Date.now() + ms;
    while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 250));
  };
  try {
    await waitFor(`${base}/healthz`);
    console.log(`\nNotifications (decision 0040): ${MEMBERS.toLocaleString("en")} members with ${PER_MEMBER} notifications each`);
    const started = performance.now();
    // Two cron runs: each queues at most 5,000 members' digests.
    for (let run = 1; run * 5000 <= Math.max(5000, MEMBERS); run++) {
      await fetch(`${base}/cdn-cgi/handler/scheduled`);
      await until(() => digests.members >= Math.min(MEMBERS, run * 5000));
    }
    const took = (performance.now() - started) / 1000;
    console.log(
      `  Weekly digests: ${digests.sent.toLocaleString("en")} mails for ${digests.members.toLocaleString("en")} members in ${took.toFixed(1)} s from the first cron trigger (${((took * 1000) / Math.max(1, digests.members)).toFixed(1)} ms a member), ${(digests.statements / Math.max(1, digests.members)).toFixed(1)} D1 statements a member`,
    );

    const token = (await (await fetch(`${base}/dev/session`, { method: "POST", body: JSON.stringify({ email: UPLOADER }) })).json()).token;
    const form = new FormData();
    const fields = {
      kind: "document",
      sdg: "6",
      title: "Water for dry towns",
      summary: "Wells",
      content: "Water tables",
      keywords: "water",
      publicize: "1",
    };
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    form.set("file", new Blob([readFileSync("demo/sample-document.pdf")], { type: "application/pdf" }), "bench.pdf");
    form.set("thumbnail", new Blob([rgbPng(64, 36, () => [40, 120, 200])], { type: "image/png" }), "thumbnail.png");
    const upload = await fetch(`${base}/api/contents`, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
    if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
    await until(() => matching.done, 120_000);
    console.log(
      `  One upload telling ${AUDIENCE} followers, ${AUDIENCE} followers of its goal and ${AUDIENCE} saved searches: ${matching.told.toLocaleString("en")} members told, ${matching.statements} D1 statements spent on matching`,
    );
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
    await new Promise((resolve) => server.once("exit", resolve));
  }
}
