// Part of `npm run bench`, on a generated catalogue (100,000 items, 10,000 members by default;
// BENCH_ITEMS / BENCH_MEMBERS change it; 10,000 of its videos with an hour of captions each,
// BENCH_CAPTIONS): search latency and captions' share of the database, the time of one full credit-score
// recomputation (the cron's job, fired through the local /cdn-cgi/handler/scheduled), and message
// delivery between its members (bench-messaging.mjs). The data comes from `npm run bench:data`
// (scripts/generate-catalogue.mjs), regenerated here into its own folder.

import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { SCORE_BATCH_MEMBERS } from "../app/lib/limits.ts";
import { messaging } from "./bench-messaging.mjs";
import { CAPTION_ONLY_WORD, captionsSize, generateCatalogue, TEXT_ONLY_WORD } from "./generate-catalogue.mjs";
import { freePort, serveBuilt, waitFor } from "./lib.mjs";

const QUERIES = [
  ["documents, one English word", "tab=documents&q=water"],
  ["documents, two English words", "tab=documents&q=solar%20grid"],
  ["documents, English word + goal filter", "tab=documents&q=ocean&sdg=14"],
  ["videos, one English word", "tab=videos&q=forest"],
  ["documents, Japanese (気候変動)", `tab=documents&q=${encodeURIComponent("気候変動")}`],
  ["documents, Chinese (清洁饮水)", `tab=documents&q=${encodeURIComponent("清洁饮水")}`],
  ["documents, 2-character Chinese (减贫, LIKE path)", `tab=documents&q=${encodeURIComponent("减贫")}`],
  ["documents, page 3", "tab=documents&q=health&page=3"],
  ["members, family name", "tab=members&q=Tanaka"],
  ["no match", "tab=documents&q=zzzzqqq"],
  [`documents, a word only in documents' text (${TEXT_ONLY_WORD})`, `tab=documents&q=${TEXT_ONLY_WORD}`],
  // What is said in videos (their captions' index follows the fields' matches): words not in any
  // field, so the captions are searched, and 水, also in titles, as members would type it.
  [`videos, a word only in captions (${CAPTION_ONLY_WORD})`, `tab=videos&q=${CAPTION_ONLY_WORD}`],
  ["videos, a common English word in captions (people)", "tab=videos&q=people"],
  ["videos, two words in one cue (farmers river)", "tab=videos&q=farmers%20river"],
  ["videos, 1-character Chinese (水)", `tab=videos&q=${encodeURIComponent("水")}`],
  ["videos, 1-character Chinese only in captions (河)", `tab=videos&q=${encodeURIComponent("河")}`],
  ["videos, 2-character Japanese only in captions (地域)", `tab=videos&q=${encodeURIComponent("地域")}`],
];
const FEEDS = [
  ["newest", "sort=newest"],
  ["newest, page 50", "sort=newest&page=50"],
  ["one goal, newest", "sdg=6&sort=newest"],
  ["videos, most viewed", "kind=video&sort=views"],
  ["one goal, most liked", "sdg=13&sort=likes"],
];
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 30);

const stats = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return `median ${at(0.5)} ms, p95 ${at(0.95)} ms`;
};

/** The local D1 databases' size on disk together (core, statistics, text shards), in MB (the files and their write-ahead logs). */
function databaseMB(stateDir) {
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const bytes = readdirSync(dir)
    .filter((name) => name.includes(".sqlite"))
    .reduce((total, name) => total + statSync(join(dir, name)).size, 0);
  return bytes / 1e6;
}

/**
 * The search benchmarks, and one full credit-score recomputation through the queue, on a generated
 * catalogue of `items` items and `members` members; the messaging benchmark when asked.
 */
export async function catalogueBenchmarks({ items, members, texts, captions = 0, stateDir, withMessaging }) {
  console.log(
    `\nGenerating ${items} items (${texts} documents with 5,000 words of text each, ${captions} videos with an hour of captions each) and ${members} members (npm run bench:data -- ${stateDir} ${items} ${members} ${texts} ${captions}) ...`,
  );
  const seconds = await generateCatalogue(stateDir, items, members, texts, captions);
  console.log(
    `  generated in ${seconds.toFixed(1)} s; the databases are ${databaseMB(stateDir).toFixed(0)} MB together (D1 allows 10,000 MB each)`,
  );
  if (captions) {
    // SQLite's own page counts of the captions' tables (dbstat, read from the database file: D1 has no dbstat).
    const { hours, cuesMB, indexMB } = await captionsSize(stateDir);
    const perHour = (mb) => (mb / hours).toFixed(3);
    console.log(
      `  captions: ${hours.toLocaleString("en")} hours, ${(cuesMB + indexMB).toFixed(0)} MB in D1, the text shards' cues and the core's rows (${perHour(cuesMB + indexMB)} MB per hour of captions: cues ${perHour(cuesMB)} MB, index ${perHour(indexMB)} MB)`,
    );
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = serveBuilt(port, stateDir, "ignore", ["--test-scheduled"]);
  try {
    await waitFor(`${base}/healthz`);
    const login = await fetch(`${base}/api/users/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.1.0.1" },
      body: JSON.stringify({ email: "bench-1@bench.test", pwd: "research-demo-2026" }),
    });
    const token = (await login.json()).data.access_token;
    const headers = { Authorization: `Bearer ${token}` };

    console.log(
      `\nSearch latency at ${items.toLocaleString("en")} items (GET /api/search, ${RUNS} runs each after 3 warm-ups, sequential):`,
    );
    for (const [label, query] of QUERIES) {
      const times = [];
      let hits = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        const started = performance.now();
        const res = await fetch(`${base}/api/search?${query}`, { headers });
        const body = await res.json();
        if (i >= 3) times.push(performance.now() - started);
        hits = body.data?.results?.length ?? -1;
      }
      console.log(`  ${label.padEnd(50)} ${stats(times)}  (${hits} hits on the page)`);
    }

    console.log(`\nDiscovery feed (GET /api/contents, ${RUNS} runs each):`);
    for (const [label, query] of FEEDS) {
      const times = [];
      for (let i = 0; i < RUNS + 3; i++) {
        const started = performance.now();
        await (await fetch(`${base}/api/contents?${query}`, { headers })).json();
        if (i >= 3) times.push(performance.now() - started);
      }
      console.log(`  ${label.padEnd(50)} ${stats(times)}`);
    }

    const picks = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const started = performance.now();
      await (await fetch(`${base}/api/recommendations`, { headers })).json();
      if (i >= 3) picks.push(performance.now() - started);
    }
    console.log(`\nRecommended list (GET /api/recommendations, page 1, ${RUNS} runs): ${stats(picks)}`);

    const took = await recomputation(base, headers);
    const total = members + DEMO_MEMBERS;
    console.log(
      `\nFull credit-score recomputation through the queue, ${total.toLocaleString("en")} members: ${took.toFixed(2)} s from the cron trigger to the published ranking (${Math.ceil(total / SCORE_BATCH_MEMBERS)} jobs of ${SCORE_BATCH_MEMBERS} members), ${((took * 1000 * 1000) / total).toFixed(0)} ms per 1,000 members`,
    );
    if (withMessaging) await messaging(base);
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
  }
}

const DEMO_MEMBERS = 4; // the demo data's, beside the generated ones

/** Fires the cron and waits until the ranking the API shows is a newer run than before. */
async function recomputation(base, headers) {
  const rankedAt = async () => (await (await fetch(`${base}/api/ranking`, { headers })).json()).data?.me?.ranked_at ?? 0;
  const before = await rankedAt();
  const started = performance.now();
  await (await fetch(`${base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("*/15 * * * *")}`)).text();
  const deadline = Date.now() + 30 * 60_000;
  while ((await rankedAt()) <= before) {
    if (Date.now() > deadline) throw new Error("the recomputation was not published within 30 minutes");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return (performance.now() - started) / 1000;
}
