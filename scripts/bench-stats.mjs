// Statistics (issue 32, docs/decisions/0039-statistics.md), measured on the built worker with its
// real stats queue: D1 statements per 1,000 recorded views, the core's and the statistics database's
// (the consumer logs each batch's counts), the detail page's p50/p95 with and without view recording
// (a browser's User-Agent against a robot's, which is not recorded; the two interleaved), and
// /personal/stats for a member with 1,000 items and two years of daily rows. Prints figures; asserts nothing.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { freePort, mustRun, onLogEvents, quietEnv, seedState, serveBuilt, waitFor, wrangler } from "./lib.mjs";

const ITEMS = Number(process.env.BENCH_STATS_ITEMS ?? 1000);
const DAYS = Number(process.env.BENCH_STATS_DAYS ?? 730);
const VIEWS = 1000;
const READERS = 20;
const CONCURRENCY = 4;
const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ROBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const OWNER = "stats-bench@bench.test";

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (n) => `${n.toFixed(1)} ms`;

/** A member with ITEMS items, in the core. */
function seedSql(now) {
  return [
    `INSERT INTO users (email, password_hash, account_type, kind, nick_name, created_at) VALUES ('${OWNER}', 'x', 1, 'individual', 'Bench owner', ${now - DAYS * 86_400_000})`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${ITEMS})
     INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, created_at, updated_at)
     SELECT (SELECT id FROM users WHERE email = '${OWNER}'), 'document', 1 + k % 17, 'Bench item ' || k, 's', 'c', 'k', 1, 'bench-stats/' || k, 1, 'application/pdf', 't', 'image/png', ${now}, ${now} FROM n`,
  ];
}

/** The bench items' owner and ids (one INSERT made them, so they follow each other), as the core numbered them. */
function benchItems(stateDir) {
  const sql = "SELECT owner_id AS owner, min(id) AS first, max(id) AS last FROM content WHERE file_key LIKE 'bench-stats/%'";
  const args = ["d1", "execute", "DB", "--local", "--config", "wrangler.toml", "--persist-to", stateDir, "--json", "--command", sql];
  return JSON.parse(execFileSync(wrangler, args, { env: quietEnv, encoding: "utf8" }))[0].results[0];
}

/**
 * Each item viewed every day for DAYS days, downloaded and cited every week, as folded rows of the
 * statistics database (decision 0045): day by day, so each statement stays small; the triggers fill
 * the months, the owner's days and the items' counts.
 */
function statsSql({ owner, first, last }, now) {
  const day = (k) => `date(${now} / 1000 - ${k} * 86400, 'unixepoch')`;
  const items = `WITH RECURSIVE i(id) AS (SELECT ${first} UNION ALL SELECT id + 1 FROM i WHERE id < ${last})`;
  return Array.from(
    { length: DAYS },
    (_, k) =>
      `${items} INSERT INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers)
       SELECT ${owner}, id, 'document', ${day(k)}, 'view', 1 + id % 2, 1 + (id + ${k}) % 5, 1 + (id + ${k}) % 3 FROM i
       UNION ALL SELECT ${owner}, id, 'document', ${day(k)}, 'download', 1, 1, 1 FROM i WHERE (id + ${k}) % 7 = 0
       UNION ALL SELECT ${owner}, id, 'document', ${day(k)}, 'export', 2, 1, 1 FROM i WHERE (id + ${k}) % 11 = 0`,
  );
}

/** The core seeded, then the statistics database; answers the seconds both took. */
async function seed(stateDir, now) {
  const core = await seedState(stateDir, "bench-stats", seedSql(now));
  const started = performance.now();
  const file = ".wrangler/tmp/bench-stats-stats.sql";
  writeFileSync(file, `${statsSql(benchItems(stateDir), now).join(";\n")};\n`);
  const args = ["d1", "execute", "STATS_DB", "--local", "--config", "wrangler.toml", "--persist-to", stateDir, "--file", file];
  await mustRun(wrangler, args, { stdio: "ignore" });
  return core + (performance.now() - started) / 1000;
}

export async function statsBenchmarks() {
  const stateDir = ".wrangler/bench-stats";
  const seeded = await seed(stateDir, Date.now());
  console.log(
    `\nStatistics (decision 0039): a member with ${ITEMS.toLocaleString("en")} items and ${DAYS} days of rows, seeded in ${seeded.toFixed(0)} s`,
  );

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = serveBuilt(port, stateDir, ["ignore", "pipe", "pipe"]);
  // The consumer logs each folded batch: its readings and the D1 statements it took, in the core and the statistics database.
  const folded = { batches: 0, readings: 0, statements: 0, statsStatements: 0 };
  onLogEvents(server, (event) => {
    if (event.event !== "stats.folded") return;
    folded.batches++;
    folded.readings += event.readings;
    folded.statements += event.statements;
    folded.statsStatements += event.statsStatements ?? 0;
  });
  try {
    await waitFor(`${base}/healthz`);
    const session = async (body) =>
      (await (await fetch(`${base}/dev/session`, { method: "POST", body: JSON.stringify(body) })).json()).token;
    const owner = await session({ email: OWNER });
    const readers = [];
    for (let i = 0; i < READERS; i++) readers.push(await session({ nick_name: `Bench reader ${i}` }));
    const items = await itemIds(base, owner);

    // Views: each reader opens items in turn, a browser's and a robot's request alternating.
    const timed = { browser: [], robot: [] };
    const requests = Array.from({ length: VIEWS * 2 }, (_, i) => ({
      token: readers[Math.floor(i / 2) % READERS],
      item: items[Math.floor(i / 2) % items.length],
      agent: i % 2 === 0 ? "browser" : "robot",
    }));
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests.length) {
          const { token, item, agent } = requests[next++];
          const started = performance.now();
          const res = await fetch(`${base}/retrieval/detail?id=${item}`, {
            headers: { Cookie: `token=Bearer%20${token}`, "User-Agent": agent === "browser" ? BROWSER : ROBOT },
          });
          await res.arrayBuffer();
          timed[agent].push(performance.now() - started);
        }
      }),
    );
    const deadline = Date.now() + 120_000;
    while (folded.readings < VIEWS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    console.log(
      `  Recording ${folded.readings.toLocaleString("en")} views: ${folded.statements} core D1 statements in ${folded.batches} batches, ${((folded.statements * 1000) / Math.max(1, folded.readings)).toFixed(1)} per 1,000 views (target <= 20), and ${((folded.statsStatements * 1000) / Math.max(1, folded.readings)).toFixed(1)} per 1,000 in the statistics database; none on the page's request path`,
    );
    const [p50b, p95b, p50r, p95r] = [
      quantile(timed.browser, 0.5),
      quantile(timed.browser, 0.95),
      quantile(timed.robot, 0.5),
      quantile(timed.robot, 0.95),
    ];
    console.log(
      `  Detail page, ${VIEWS} loads each, interleaved: recorded (a browser) p50 ${ms(p50b)} p95 ${ms(p95b)}; not recorded (a robot) p50 ${ms(p50r)} p95 ${ms(p95r)}; ratio p50 ${(p50b / p50r).toFixed(2)}, p95 ${(p95b / p95r).toFixed(2)} (target: within 10%)`,
    );

    // The statistics page of the member with the 1,000 items, over each range.
    for (const range of ["30d", "12m", "all"]) {
      const times = [];
      const worker = [];
      const d1 = [];
      let bytes = 0;
      for (let i = 0; i < 33; i++) {
        const started = performance.now();
        const res = await fetch(`${base}/personal/stats?range=${range}`, { headers: { Cookie: `token=Bearer%20${owner}` } });
        bytes = (await res.arrayBuffer()).byteLength;
        if (i < 3) continue; // warming up
        times.push(performance.now() - started);
        const timing = res.headers.get("Server-Timing") ?? "";
        worker.push(Number(/total;dur=([\d.]+)/.exec(timing)?.[1]));
        d1.push(Number(/db;dur=([\d.]+)/.exec(timing)?.[1]));
      }
      console.log(
        `  /personal/stats?range=${range.padEnd(3)} at the client p50 ${ms(quantile(times, 0.5))} p95 ${ms(quantile(times, 0.95))} (target p95 <= 100 ms); in the worker until its answer starts p95 ${ms(quantile(worker, 0.95))}, of which D1 p95 ${ms(quantile(d1, 0.95))}; ${(bytes / 1024).toFixed(0)} KB of HTML`,
      );
    }
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
    await new Promise((resolve) => server.once("exit", resolve));
  }
}

/** The bench owner's item ids, from their statistics (the API's item table, 50 a page). */
async function itemIds(base, token) {
  const ids = [];
  for (let page = 1; ids.length < 100; page++) {
    const res = await fetch(`${base}/api/stats/me?sort=title&page=${page}`, { headers: { Authorization: `Bearer ${token}` } });
    const { data } = await res.json();
    ids.push(...data.items.map((item) => item.id));
    if (!data.has_more) break;
  }
  return ids;
}
