// `BENCH_ONLY=shards npm run bench` (issue 46, docs/decisions/0045-databases.md): one generated corpus
// laid over 1, 4 and 8 text shards in turn (BENCH_SHARDS="1,4,8"), each served by the built worker
// with a config binding that many (TEXT_1..TEXT_n). Per layout: the load's time, each database's size,
// search p50/p95 (BENCH_SEARCH_RUNS) of words that make the search ask every shard, and the rows and
// bytes one new item adds to each database; last, each layout against one database, and what a local
// run cannot show. The corpus: BENCH_SHARDS_ITEMS items (1,000,000), BENCH_SHARDS_TEXTS documents with
// BENCH_SHARDS_PAGES pages of 500 words of their own text (100,000 of 10), BENCH_SHARDS_CAPTIONS
// videos with an hour of captions each (1,000), BENCH_SHARDS_MEMBERS members (100,000). Each layout's
// state is removed once measured (BENCH_SHARDS_KEEP=1 keeps it). Prints figures; asserts nothing.
import { createHash, createHmac, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { databaseBindings } from "./databases.mjs";
import { CAPTION_ONLY_WORD, documentBody, loadCatalogue, TEXT_ONLY_WORD, videoCues } from "./generate-catalogue.mjs";
import { freePort, serveBuilt, waitFor } from "./lib.mjs";
import { withoutClassWarnings } from "./local-state.mjs";

const LAYOUTS = (process.env.BENCH_SHARDS ?? "1,4,8").split(",").map(Number);
const ITEMS = Number(process.env.BENCH_SHARDS_ITEMS ?? 1_000_000);
const MEMBERS = Number(process.env.BENCH_SHARDS_MEMBERS ?? 100_000);
const TEXTS = Number(process.env.BENCH_SHARDS_TEXTS ?? 100_000);
const CAPTIONS = Number(process.env.BENCH_SHARDS_CAPTIONS ?? 1000);
const PAGES = Number(process.env.BENCH_SHARDS_PAGES ?? 10);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 30);
const DIR = ".wrangler/bench-shards";
/** The issue's bar: a search over 8 shards within this of one database's, at the same corpus. */
const BAR = 1.5;

// Words whose matches are found in the shards (none is in a form field, so the fields' matches do not
// fill the page first), and one answered by the core alone, for comparison.
const QUERIES = [
  [`documents, a word only in documents' text (${TEXT_ONLY_WORD})`, `tab=documents&q=${TEXT_ONLY_WORD}`],
  [`videos, a word only in captions (${CAPTION_ONLY_WORD})`, `tab=videos&q=${CAPTION_ONLY_WORD}`],
  ["videos, a common word in captions (people)", "tab=videos&q=people"],
  ["videos, a CJK word only in captions (地域)", `tab=videos&q=${encodeURIComponent("地域")}`],
  ["documents, a common word in the fields (water; core only)", "tab=documents&q=water"],
];

const mb = (bytes) => `${(bytes / 1e6).toLocaleString("en", { maximumFractionDigits: 0 })} MB`;
const kb = (bytes) => `${(bytes / 1024).toLocaleString("en", { maximumFractionDigits: 1 })} KB`;
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const NAMES = { DB: "core", STATS_DB: "statistics" };
const named = (binding) => NAMES[binding] ?? binding;

export async function shardBenchmarks() {
  console.log(
    `\nText shards (issue 46, decision 0045): one corpus of ${ITEMS.toLocaleString("en")} items (${TEXTS.toLocaleString("en")} documents with ${PAGES} pages of 500 words of their own text each, ${CAPTIONS.toLocaleString("en")} videos with an hour of captions each) and ${MEMBERS.toLocaleString("en")} members, over ${LAYOUTS.join(", ")} text shards in turn`,
  );
  const results = new Map();
  for (const shards of LAYOUTS) results.set(shards, await layout(shards));
  summary(results);
  localLimits();
}

/** One layout: loaded, measured, searched, grown by one item, removed. Answers each query's sorted times. */
async function layout(shards) {
  const dir = join(DIR, String(shards));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = layoutConfig(shards, dir);
  const stateDir = join(dir, "state");
  console.log(`\n${shards} text shard${shards > 1 ? "s" : ""} (${config}):`);
  const { seconds, sizes } = await loadCatalogue(stateDir, {
    items: ITEMS,
    members: MEMBERS,
    texts: TEXTS,
    captions: CAPTIONS,
    pages: PAGES,
    config,
  });
  const total = Object.values(seconds).reduce((sum, s) => sum + s, 0);
  console.log(
    `  loaded in ${total.toFixed(0)} s (${Object.entries(seconds)
      .map(([binding, s]) => `${named(binding)} ${s.toFixed(0)} s`)
      .join(", ")})`,
  );
  const all = Object.values(sizes).reduce((sum, b) => sum + b, 0);
  console.log(
    `  sizes after the load (D1's size_after; its limit is 10,000 MB a database): ${Object.entries(sizes)
      .map(([binding, bytes]) => `${named(binding)} ${mb(bytes)}`)
      .join(", ")}; ${mb(all)} in all`,
  );
  const times = await searches(stateDir, config);
  await oneNewItem(stateDir, config, shards);
  if (process.env.BENCH_SHARDS_KEEP !== "1") rmSync(dir, { recursive: true, force: true });
  return times;
}

/**
 * The built worker's config (build/server/wrangler.json) with `shards` text shards bound, their ids
 * continuing wrangler.toml's (TEXT_n: ...0000000000(10 + n)), written into `dir`; its paths made absolute.
 */
function layoutConfig(shards, dir) {
  const server = resolve("build/server");
  const built = JSON.parse(readFileSync(join(server, "wrangler.json"), "utf8"));
  const others = built.d1_databases.filter((d) => !d.binding.startsWith("TEXT_"));
  const textDir = built.d1_databases.find((d) => d.binding === "TEXT_1").migrations_dir;
  const file = resolve(dir, "wrangler.json");
  const config = {
    ...built,
    configPath: file,
    main: resolve(server, built.main),
    assets: { ...built.assets, directory: resolve(server, built.assets.directory) },
    d1_databases: [
      ...others.map((d) => ({ ...d, migrations_dir: resolve(server, d.migrations_dir) })),
      ...Array.from({ length: shards }, (_, i) => ({
        binding: `TEXT_${i + 1}`,
        database_name: `research-commons-text-${i + 1}`,
        database_id: `00000000-0000-4000-8000-0000000000${11 + i}`,
        migrations_dir: resolve(server, textDir),
      })),
    ],
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * Each query's times through the served worker (GET /api/search as a member), sequential, after 3
 * warm-ups, and of each the time it waited on the core (Server-Timing's `db`, db-session.ts): the rest
 * is the worker's own work and the shards' answers.
 */
async function searches(stateDir, config) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = serveBuilt(port, stateDir, "ignore", [], config);
  const times = new Map();
  try {
    await waitFor(`${base}/healthz`, 120_000);
    const login = await fetch(`${base}/api/users/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "10.2.0.1" },
      body: JSON.stringify({ email: "bench-1@bench.test", pwd: "research-demo-2026" }),
    });
    const headers = { Authorization: `Bearer ${(await login.json()).data.access_token}` };
    console.log(`  search (GET /api/search, ${RUNS} runs each after 3 warm-ups, one at a time):`);
    console.log(`    ${"query".padEnd(62)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"core p50".padStart(9)}  hits  partial`);
    for (const [label, query] of QUERIES) {
      const taken = [];
      const core = [];
      let hits = 0;
      let partial = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        const started = performance.now();
        const res = await fetch(`${base}/api/search?${query}`, { headers });
        const body = await res.json();
        if (i < 3) continue;
        taken.push(performance.now() - started);
        core.push(Number(/(?:^|,\s*)db;dur=([\d.]+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? Number.NaN));
        hits = body.data?.results?.length ?? -1;
        if (body.data?.partial) partial++;
      }
      taken.sort((a, b) => a - b);
      core.sort((a, b) => a - b);
      times.set(label, { taken, core });
      const ms = (n) => `${n.toFixed(1)} ms`.padStart(9);
      console.log(
        `    ${label.padEnd(62)} ${ms(at(taken, 0.5))} ${ms(at(taken, 0.95))} ${ms(at(core, 0.5))}  ${String(hits).padStart(4)}  ${partial ? `${partial} of ${RUNS}` : "none"}`,
      );
    }
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
  }
  // One server at a time on this machine, and none on the state while it is grown.
  await new Promise((resolve) => (server.exitCode === null ? server.once("exit", resolve) : resolve()));
  return times;
}

/**
 * The rows and bytes one new item adds to each database, measured: a document with its text and a
 * video with an hour of captions (in the last shard), each written as the app writes it (the upload's
 * row, the text job's and the captions' three steps with their follow-up records), and a day on which
 * each is viewed by a member of each account type and downloaded once, as the stats queue folds it.
 * Before and after: each table's rows, and the bytes in use (SQLite's dbstat over the database file:
 * D1's size_after counts the pages the load's dropped tables freed, which a new row reuses first).
 */
async function oneNewItem(stateDir, config, shards) {
  const ids = Object.fromEntries(JSON.parse(readFileSync(config, "utf8")).d1_databases.map((d) => [d.binding, d.database_id]));
  const bindings = databaseBindings(ids);
  const { DatabaseSync } = await import("node:sqlite");
  const usages = () => Object.fromEntries(bindings.map((binding) => [binding, usage(DatabaseSync, databaseFile(stateDir, ids[binding]))]));
  const before = usages();
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await withoutClassWarnings(() => getPlatformProxy({ configPath: config, persist: { path: join(stateDir, "v3") } }));
  try {
    await addItem(proxy.env, shards, Date.now());
  } finally {
    await proxy.dispose();
  }
  const after = usages();
  console.log(
    `  one new item (a document with ${PAGES} pages of text and a video with an hour of captions, in TEXT_${shards}; a day of readings of each), measured:`,
  );
  for (const binding of bindings) {
    const grown = Object.entries(after[binding].rows)
      .map(([table, n]) => [table, n - (before[binding].rows[table] ?? 0)])
      .filter(([, n]) => n !== 0);
    if (!grown.length) continue;
    const rows = grown.reduce((sum, [, n]) => sum + n, 0);
    console.log(
      `    ${named(binding).padEnd(10)} +${rows} rows, +${kb(after[binding].used - before[binding].used)} in use (+${kb(after[binding].payload - before[binding].payload)} of row data): ${grown.map(([table, n]) => `${table} ${n > 0 ? "+" : ""}${n}`).join(", ")}`,
    );
  }
}

/** The local file of a D1 database (workerd names a Durable Object's file by the id of its name). */
function databaseFile(stateDir, databaseId) {
  const key = createHash("sha256").update("miniflare-D1DatabaseObject").digest();
  const name = createHmac("sha256", key).update(databaseId).digest().subarray(0, 16);
  const check = createHmac("sha256", key).update(name).digest().subarray(0, 16);
  return join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject", `${Buffer.concat([name, check]).toString("hex")}.sqlite`);
}

/** A database file's rows by table and bytes in use (dbstat: its pages, and the row data in them). */
function usage(DatabaseSync, file) {
  if (!existsSync(file)) throw new Error(`the database file ${file} is not there`);
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all();
    const rows = Object.fromEntries(tables.map(({ name }) => [name, Number(db.prepare(`SELECT count(*) AS n FROM "${name}"`).get().n)]));
    const { used, payload } = db.prepare("SELECT sum(pgsize) AS used, sum(payload) AS payload FROM dbstat").get();
    return { rows, used: Number(used), payload: Number(payload) };
  } finally {
    db.close();
  }
}

/** The new item's writes, shaped as the app's (content.ts, document-text.ts, captions.ts, the stats fold). */
async function addItem(env, shard, now) {
  const { DB, STATS_DB } = env;
  const text = env[`TEXT_${shard}`];
  const owner = (await DB.prepare("SELECT id FROM users WHERE email = 'bench-1@bench.test'").first()).id;
  const item = (kind, type) =>
    DB.prepare(
      `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type,
         thumbnail_key, thumbnail_type, created_at, updated_at, text_state, text_queued_at, text_shard)
       VALUES (?1, ?2, 6, 'Household water filters in twelve small towns', 'What we measured over two seasons, and which filters worked',
         'A field study of household water filters over one dry and one wet season, with the costs of each', 'water, sanitation, filters',
         1, ?3, 2000000, ?4, ?3 || '/thumbnail', 'image/png', ?5, ?5, CASE ?2 WHEN 'document' THEN 'pending' END, CASE ?2 WHEN 'document' THEN ?5 END, ?6)
       RETURNING id, file_key`,
    ).bind(owner, kind, `uploads/${randomUUID()}`, type, now, shard);
  const [made, madeVideo] = await DB.batch([item("document", "application/pdf"), item("video", "video/mp4")]);
  const { id: document, file_key } = made.results[0];
  const video = madeVideo.results[0].id;
  const record = (subject) =>
    DB.prepare("INSERT INTO shard_followups (target, subject, queued_at) VALUES (?, ?, ?) RETURNING id").bind(
      `text:${shard}`,
      subject,
      now,
    );
  const forget = (id) => DB.prepare("DELETE FROM shard_followups WHERE id = ?").bind(id);
  // The text: the record, the shard's row, the core's state with the record gone.
  const textRecord = (await record(document).first()).id;
  await text
    .prepare("INSERT INTO document_text (content_id, file_key, body, pages, page_count, extracted_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5)")
    .bind(document, file_key, documentBody(6, PAGES), PAGES, now)
    .run();
  await DB.batch([
    DB.prepare("UPDATE content SET text_state = 'done', text_note = NULL, text_pages = ?2, text_page_count = ?2 WHERE id = ?1").bind(
      document,
      PAGES,
    ),
    forget(textRecord),
  ]);
  // The captions: the pending row with its record, the cues (2,000 a statement), ready with the record gone.
  const key = randomUUID();
  const cues = videoCues(1, "en");
  const bytes = cues.reduce((sum, [, , body]) => sum + Buffer.byteLength(body), 0);
  const [, recorded] = await DB.batch([
    DB.prepare(
      `INSERT INTO captions (content_id, lang, source, state, cue_count, duration_ms, write_key, text_bytes, updated_at)
       VALUES (?, 'en', 'owner', 'pending', ?, ?, ?, ?, ?)`,
    ).bind(video, cues.length, cues.at(-1)[1], key, bytes, now),
    record(video),
  ]);
  await text.batch(
    Array.from({ length: Math.ceil(cues.length / 2000) }, (_, i) =>
      text
        .prepare(
          `INSERT INTO caption_cues (caption_key, content_id, lang, start_ms, end_ms, body, written_at)
           SELECT ?1, ?2, 'en', j.value ->> 0, j.value ->> 1, j.value ->> 2, ?4 FROM json_each(?3) j ORDER BY j.key`,
        )
        .bind(key, video, JSON.stringify(cues.slice(i * 2000, i * 2000 + 2000)), now),
    ),
  );
  await DB.batch([DB.prepare("UPDATE captions SET state = 'ready' WHERE write_key = ?").bind(key), forget(recorded.results[0].id)]);
  // A day's readings of each.
  await STATS_DB.prepare(
    `INSERT INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers)
     SELECT ?1, c.column1, c.column2, ?2, r.column1, r.column2, 1, 1 FROM (VALUES (?3, 'document'), (?4, 'video')) c, (VALUES ('view', 1), ('view', 2), ('download', 1)) r`,
  )
    .bind(owner, new Date(now).toISOString().slice(0, 10), document, video)
    .run();
}

/** Each query's p50 and p95 by layout, the widest layout's against the first (one database), and the core's share. */
function summary(results) {
  const layouts = [...results.keys()];
  const first = layouts[0];
  const widest = layouts.at(-1);
  console.log(
    `\nSearch p50 / p95 by layout (ms), and ${widest} shards against ${first === 1 ? "one database" : `${first} shards`} (the issue's bar: within ${BAR}x):`,
  );
  console.log(
    `  ${"query".padEnd(62)} ${layouts.map((n) => `${n} shard${n > 1 ? "s" : ""}`.padStart(15)).join(" ")} ${`${widest} : ${first} (p50 / p95)`.padStart(24)}`,
  );
  for (const [label] of QUERIES) {
    const p = (n, q) => at(results.get(n).get(label).taken, q);
    const ratio = (q) => p(widest, q) / p(first, q);
    const within = ratio(0.5) <= BAR && ratio(0.95) <= BAR ? "within" : "OVER";
    console.log(
      `  ${label.padEnd(62)} ${layouts.map((n) => `${p(n, 0.5).toFixed(1)} / ${p(n, 0.95).toFixed(1)}`.padStart(15)).join(" ")} ${`${ratio(0.5).toFixed(2)}x / ${ratio(0.95).toFixed(2)}x ${within}`.padStart(24)}`,
    );
  }
  console.log("\nOf each p50 search, the time waiting on the core (ms, Server-Timing db; the rest is the shards' answers and the worker):");
  for (const [label] of QUERIES)
    console.log(
      `  ${label.padEnd(62)} ${layouts.map((n) => `${at(results.get(n).get(label).core, 0.5).toFixed(1)} of ${at(results.get(n).get(label).taken, 0.5).toFixed(1)}`.padStart(15)).join(" ")}`,
    );
}

function localLimits() {
  console.log(`
What this local run cannot show:
  - Every database is a file in one workerd process on one 2-core machine with one disk: the shards a
    search asks "in parallel" share those 2 cores (and the worker's own), so their work adds up here,
    where on Cloudflare each D1 database runs on its own.
  - No network: the worker reaches each database in microseconds here; deployed, every query is a round
    trip from the worker to the database's location (often milliseconds, more across regions), which the
    parallel fan-out pays once per search but a database far from the worker pays every time.
  - D1 runs each database's queries one at a time: under concurrent load, a busy database queues its
    queries. These searches are sequential, one member, so that queue is never exercised (nor the
    3 s a shard is given before the answer says it is partial).
  - Sizes are of local SQLite files (pages in use, free pages of dropped bench tables included in
    size_after); D1 bills and limits what it measures itself.`);
}
