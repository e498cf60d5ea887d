// `npm run bench`: prints figures, asserts nothing. For each page: HTML size raw and compressed, the
// JavaScript it loads (pages of the layout signed in as the demo researcher); the time of a login
// request; the worker's requests per second on /login against a trivial route (/healthz); and
// first-visit LCP on emulated "Slow 4G"; then, on a generated catalogue, search latency, one full
// score recomputation and message delivery (scripts/bench-catalogue.mjs); the deployable bundle's
// size and startup time (scripts/bench-bundle.mjs); last, a bounded load run of members browsing,
// searching, messaging and uploading at once (scripts/bench-load.mjs): its one assertion is that no
// message is lost or doubled and no upload half-kept, else the script exits non-zero. Budgets:
// ../shared/DESIGN.md.
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { computeMedianRun, filterToValidRuns } from "lighthouse/core/lib/median-run.js";
import { rgbPng } from "../tests/fixtures/images.ts";
import { bundleBenchmarks } from "./bench-bundle.mjs";
import { catalogueBenchmarks } from "./bench-catalogue.mjs";
import { loadBenchmarks } from "./bench-load.mjs";
import { notificationBenchmarks } from "./bench-notifications.mjs";
import { pdfTextBenchmarks } from "./bench-pdf-text.mjs";
import { shardBenchmarks } from "./bench-shards.mjs";
import { statsBenchmarks } from "./bench-stats.mjs";
import { freePort, mustRun, prepareDatabase, serveBuilt, waitFor } from "./lib.mjs";

const PUBLIC = new Set(["/login", "/signup", "/forgetPassword"]);
const PAGES = [
  "/login",
  "/signup",
  "/forgetPassword",
  "/home",
  "/discovery",
  "/retrieval",
  "/retrieval/detail?id=1",
  "/retrieval/detail?id=2",
  "/liveStreaming",
  "/liveStreaming?schedule",
  "/message",
  "/message?conversation=1",
  "/upload",
  "/retrieval/detail/edit?id=1",
  "/retrieval/detail/stats?id=1",
  "/retrieval/detail/version?id=1",
  "/personal",
  "/personal/stats",
  "/personal/ranking",
  "/personal/notifications",
  "/personal/verification",
  "/personal/Setting",
  "/personal/Setting?section=avatar",
  "/personal/Setting?section=account",
  "/personal/Setting?section=notifications",
  "/no-such-page",
];
const LIGHTHOUSE_RUNS = 3;
const SLOW_RUNS = 3;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** Pages that read (budget: interactive within 1.5x of the one-request page), then pages that hydrate (2.0x). */
const LCP_PAGES = [
  "/login",
  "/home",
  "/discovery",
  "/retrieval",
  "/retrieval?q=climate",
  "/retrieval/detail?id=1",
  "/retrieval/detail?id=2",
  "/personal",
  "/personal/stats",
  "/personal/ranking",
  "/personal/notifications",
  "/message",
  "/message?conversation=1",
  "/upload",
];
const RPS_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 8;
/** Script budgets by kind of page (docs/decisions/0046): one that hydrates, one that does not. */
const JS_BUDGET_KB = { hydrated: 110, plain: 15 };
const kindOf = (html) => (/<html[^>]* data-hydrate=""/.test(html) ? "hydrated" : "plain");
/** BENCH_ONLY=pages: page sizes and the slow-network table alone; =moves: a returning member's moves alone; =d1: D1 round trips per page load alone; =stats: the statistics alone; =notifications: digests and new-item matching alone; =uploads: upload memory and speed alone; =text: PDF text extraction alone; =catalogue: the generated catalogues alone; =catalogue-large: the large one alone; =captions: the catalogue of today's figures alone (its videos' captions with it); =shards: search over 1, 4 and 8 text shards at a million items (scripts/bench-shards.mjs), which runs only so: about 10 minutes a layout, 7 GB of disk at a time. */
const ONLY = process.env.BENCH_ONLY;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const stateDir = ".wrangler/bench-state";
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf).length;

await mustRun("node_modules/.bin/react-router", ["build"], { stdio: "ignore" });
let cookie = "";
/** The worker under test (its workerd's memory is sampled). */
let server;
if (ONLY === "stats" || ONLY === "notifications" || ONLY === "shards") {
  await (ONLY === "stats" ? statsBenchmarks() : ONLY === "shards" ? shardBenchmarks() : notificationBenchmarks());
  process.exit();
}
if (!ONLY?.startsWith("catalogue") && ONLY !== "captions") {
  rmSync(stateDir, { recursive: true, force: true });
  await prepareDatabase(stateDir);
  server = serveBuilt(port, stateDir, "ignore");
  try {
    await waitFor(`${base}/healthz`);
    cookie = await loginTimings();
    if (ONLY === "uploads") await uploadMemory();
    else if (ONLY === "text") pdfTextBenchmarks();
    else if (ONLY === "d1") await d1PerPage();
    else if (ONLY === "moves") await returningMoves();
    else {
      await pageSizes();
      await d1PerPage();
      if (ONLY !== "pages") {
        await throughput();
        await oversizeBodyMemory();
        await uploadMemory();
        await avatarTimings();
        pdfTextBenchmarks();
      }
      await slowNetwork();
      await lighthouseScores();
    }
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
  }
  // One server at a time on this 2-core machine.
  await new Promise((resolve) => server.once("exit", resolve));
}
if (ONLY === "pages" || ONLY === "moves" || ONLY === "uploads" || ONLY === "text" || ONLY === "d1") process.exit();
// The catalogue of today's figures (BENCH_ITEMS / BENCH_MEMBERS / BENCH_TEXTS / BENCH_CAPTIONS change it), then
// ten times as much: search at a million items and the recomputation at 100,000 members (BENCH_LARGE=0 skips it).
const items = Number(process.env.BENCH_ITEMS ?? 100_000);
const members = Number(process.env.BENCH_MEMBERS ?? 10_000);
/** Documents with 5,000 words of their own text, beside the catalogue's items (issue 17). */
const TEXTS = Number(process.env.BENCH_TEXTS ?? 10_000);
/** Videos with an hour of captions each, 900 cues (issue 36): two in five items are videos, so at most items × 2 / 5. */
const CAPTIONS = Number(process.env.BENCH_CAPTIONS ?? 10_000);
if (ONLY !== "catalogue-large")
  await catalogueBenchmarks({
    items,
    members,
    texts: TEXTS,
    captions: CAPTIONS,
    stateDir: ".wrangler/bench-catalogue",
    withMessaging: ONLY !== "captions",
  });
if (process.env.BENCH_LARGE !== "0" && ONLY !== "captions") {
  await catalogueBenchmarks({
    items: items * 10,
    members: members * 10,
    texts: 0,
    captions: 0,
    stateDir: ".wrangler/bench-large",
    withMessaging: false,
  });
}
if (ONLY?.startsWith("catalogue") || ONLY === "captions") process.exit();
await bundleBenchmarks();
await statsBenchmarks();
await notificationBenchmarks();
const load = await loadBenchmarks();
// Speed is only reported, but a lost, doubled or half-kept record is a correctness failure.
if (load.lost + load.doubled + load.halfKept > 0) process.exitCode = 1;

/** Times demo logins through the API (each from its own address, so limits do not interfere). */
async function loginTimings(count = 20) {
  const times = [];
  let token = "";
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/api/users/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": `10.0.0.${i + 1}` },
      body: JSON.stringify({ email: "researcher@demo.test", pwd: "research-demo-2026" }),
    });
    const body = await res.json();
    times.push(performance.now() - started);
    token = body.data.access_token;
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(
    `\nLogin request (POST /api/users/login, PBKDF2-SHA256 100,000 iterations, ${count} runs): median ${at(0.5)} ms, p95 ${at(0.95)} ms`,
  );
  return `token=Bearer%20${token}`;
}

async function pageSizes() {
  const assetCache = new Map();
  const asset = async (path) => {
    if (!assetCache.has(path)) assetCache.set(path, Buffer.from(await (await fetch(base + path)).arrayBuffer()));
    return assetCache.get(path);
  };
  console.log(
    `\nPage HTML (budget: HTML + critical CSS <= 14 KB compressed) and the JavaScript it loads (budget: <= ${JS_BUDGET_KB.plain} KB gzip where the page does not hydrate, ${JS_BUDGET_KB.hydrated} KB where it does; docs/decisions/0046)`,
  );
  console.log(
    "page".padEnd(20),
    "status",
    "html raw".padStart(10),
    "gzip".padStart(9),
    "brotli".padStart(9),
    "  js files",
    "js raw".padStart(10),
    "js gzip".padStart(10),
    "kind".padStart(9),
    "ja gzip".padStart(9),
    "zh gzip".padStart(9),
  );
  // Japanese and Chinese pages carry more bytes for the same words (three a character in UTF-8): the
  // budget holds for each language.
  const inLanguage = async (path, language) => {
    const cookies = [`language=${language}`, ...(PUBLIC.has(path) ? [] : [cookie])].join("; ");
    return Buffer.from(await (await fetch(base + path, { redirect: "manual", headers: { Cookie: cookies } })).arrayBuffer());
  };
  for (const path of PAGES) {
    const res = await fetch(base + path, { redirect: "manual", headers: PUBLIC.has(path) ? {} : { Cookie: cookie } });
    const html = Buffer.from(await res.arrayBuffer());
    const [ja, zh] = [gz(await inLanguage(path, "ja")), gz(await inLanguage(path, "zh"))];
    const text = html.toString("utf8");
    const scripts = new Set([...text.matchAll(/(?:modulepreload" href=|from )"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const kind = kindOf(text);
    // The small modules written into the page (decision 0046), counted as script as well as in the HTML.
    const inline = [...text.matchAll(/<script type="module" id="module-[a-z-]+"[^>]*>([\s\S]*?)<\/script>/g)].map((m) => Buffer.from(m[1]));
    let jsRaw = inline.reduce((sum, code) => sum + code.length, 0);
    let jsGz = inline.reduce((sum, code) => sum + gz(code), 0);
    for (const src of scripts) {
      const body = await asset(src);
      jsRaw += body.length;
      jsGz += gz(body);
    }
    console.log(
      path.padEnd(20),
      String(res.status).padEnd(6),
      kb(html.length).padStart(10),
      kb(gz(html)).padStart(9),
      kb(br(html)).padStart(9),
      String(scripts.size + inline.length).padStart(10),
      kb(jsRaw).padStart(10),
      kb(jsGz).padStart(10),
      kind.padStart(9),
      kb(ja).padStart(9),
      kb(zh).padStart(9),
      Math.max(gz(html), ja, zh) <= 14 * 1024 && jsGz <= JS_BUDGET_KB[kind] * 1024 ? "  within budget" : "  OVER BUDGET",
    );
  }
}

/** D1 round trips and statements of a signed-in page load, from the answer's Server-Timing (db-session.ts). */
async function d1PerPage() {
  console.log("\nD1 per page load, signed in (round trips, a batch counting once / statements; the second load of each):");
  for (const path of [
    "/home",
    "/discovery",
    "/retrieval",
    "/retrieval?q=climate",
    "/retrieval/detail?id=1",
    "/message",
    "/personal",
    "/personal/Setting",
  ]) {
    let timing = "";
    for (let load = 0; load < 2; load++) {
      const res = await fetch(base + path, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      timing = res.headers.get("Server-Timing") ?? "";
    }
    const [, trips = "?", statements = "?"] = /desc="D1 (\d+) trips (\d+) statements"/.exec(timing) ?? [];
    console.log(`  ${path.padEnd(24)} ${trips.padStart(3)} round trips  ${statements.padStart(3)} statements`);
  }
}

async function rps(path) {
  let count = 0;
  const until = Date.now() + RPS_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < until) {
        const res = await fetch(base + path);
        await res.arrayBuffer();
        count++;
      }
    }),
  );
  return count / RPS_SECONDS;
}

async function throughput() {
  await rps("/login"); // warm up
  const trivial = await rps("/healthz");
  const login = await rps("/login");
  // An API call without a token: the API's router, one session lookup and the envelope, no page.
  const api = await rps("/api/auth/info");
  console.log(`\nLocal worker throughput (${CONCURRENCY} concurrent clients, ${RPS_SECONDS} s each, one 2-core machine)`);
  console.log(`/healthz (trivial route): ${trivial.toFixed(0)} req/s`);
  console.log(`/login (rendered page):   ${login.toFixed(0)} req/s`);
  console.log(`/api/auth/info (401):     ${api.toFixed(0)} req/s`);
  console.log(`ratio /login : /healthz = ${(login / trivial).toFixed(2)}; /api/auth/info : /healthz = ${(api / trivial).toFixed(2)}`);
}

/** Resident memory (KB) of the workerd processes under our server. */
function workerdRss() {
  const out = execSync("ps -eo pid,ppid,rss,args", { encoding: "utf8" });
  const rows = out
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/, 4));
  const children = new Map();
  for (const [pid, ppid] of rows) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const mine = new Set();
  const walk = (pid) => {
    for (const child of children.get(pid) ?? []) {
      mine.add(child);
      walk(child);
    }
  };
  walk(String(server.pid));
  return rows.filter(([pid, , , args]) => mine.has(pid) && args.includes("workerd")).reduce((sum, [, , rss]) => sum + Number(rss), 0);
}

/**
 * A streamed no-JavaScript upload of `mb` MB: the form's multipart body, made as it is sent; with
 * `version`, the detail page's "Add a version" form instead (a note, the file, no thumbnail).
 */
function multipartUpload(mb, version = false) {
  const boundary = `----bench${Date.now()}`;
  const enc = new TextEncoder();
  const pdfHead = enc.encode("%PDF-1.4\n");
  const pdfTail = enc.encode("\nstartxref\n9\n%%EOF\n");
  const total = mb * 1024 * 1024;
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
  const fields = version
    ? { note: `Bench version of ${mb} MB` }
    : { kind: "document", sdg: "6", title: `Bench ${mb} MB`, summary: "s", content: "c", keywords: "k", publicize: "0" };
  async function* parts() {
    for (const [name, value] of Object.entries(fields))
      yield enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    if (!version) {
      yield enc.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="thumbnail"; filename="t.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      yield png;
      yield enc.encode("\r\n");
    }
    yield enc.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    yield pdfHead;
    const chunk = new Uint8Array(1024 * 1024);
    let sent = pdfHead.length + pdfTail.length;
    while (sent < total) {
      const size = Math.min(chunk.length, total - sent);
      sent += size;
      yield chunk.subarray(0, size);
    }
    yield pdfTail;
    yield enc.encode(`\r\n--${boundary}--\r\n`);
  }
  return { body: ReadableStream.from(parts()), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Runs `work` while sampling workerd's memory; prints time, throughput and the peak growth. */
async function measured(label, mb, work, baseline = 0) {
  const before = workerdRss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, workerdRss());
  }, 50);
  const started = performance.now();
  const status = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const rss = `workerd RSS ${(before / 1024).toFixed(0)} MB before, peak +${((peak - before) / 1024).toFixed(0)} MB`;
  const rate = mb / seconds;
  const ratio = baseline ? ` = ${(rate / baseline).toFixed(2)}× the plain put` : "";
  console.log(
    `${label} ${String(mb).padStart(3)} MB: status ${status} in ${seconds.toFixed(2)} s (${rate.toFixed(1)} MB/s${ratio}); ${rss}`,
  );
  return rate;
}

/**
 * Avatars re-encoded in the worker's WebAssembly codecs (decode, crop, scale, JPEG): the crop a
 * browser sends with JavaScript (512 px PNG), and a photo at the no-JavaScript limit (4 MP PNG).
 */
async function avatarTimings(count = 10) {
  console.log("\nAvatar re-encoding (PUT /api/settings/avatar; workerd resident memory sampled every 50 ms)");
  const authorization = decodeURIComponent(cookie.slice("token=".length));
  const put = (body) =>
    fetch(`${base}/api/settings/avatar`, { method: "PUT", headers: { Authorization: authorization, "Content-Type": "image/png" }, body });
  const noise = (x, y) => [(x * 7 + y) % 256, (x * y) % 256, (y * 13) % 256];
  for (const [label, png] of [
    ["512×512 crop (with JavaScript)", rgbPng(512, 512, noise)],
    // The largest photo taken without JavaScript (DECODE_MAX_MEGAPIXELS = 4), 4:3.
    ["2309×1732 photo (4 MP, without)", rgbPng(2309, 1732, noise)],
  ]) {
    const before = workerdRss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, workerdRss());
    }, 50);
    const times = [];
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      const res = await put(png);
      if (res.status !== 200) throw new Error(`avatar answered ${res.status}`);
      await res.arrayBuffer();
      times.push(performance.now() - started);
    }
    clearInterval(sampler);
    times.sort((a, b) => a - b);
    console.log(
      `${label}, ${kb(png.length)}: median ${times[Math.floor(count / 2)].toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms (${count} runs); workerd peak +${((peak - before) / 1024).toFixed(0)} MB`,
    );
  }
}

/**
 * Unauthenticated oversize JSON bodies to the API login (80 MB once grew workerd by about 500 MB):
 * refused while they arrive, the rest drained and dropped. Growth that does not follow the size, and
 * stops growing on a repeat, is the allocator's high-water mark, not a kept body.
 */
async function oversizeBodyMemory() {
  console.log("\nOversize JSON bodies, refused while they arrive (workerd resident memory sampled every 50 ms)");
  for (const mb of [10, 100, 100]) {
    await measured("pwd to /api/users/login     ", mb, async () => {
      async function* body() {
        yield new TextEncoder().encode('{"email":"a@b.example","pwd":"');
        const chunk = new Uint8Array(1024 * 1024).fill(97);
        for (let i = 0; i < mb; i++) yield chunk;
        yield new TextEncoder().encode('"}');
      }
      const res = await fetch(`${base}/api/users/login`, {
        method: "POST",
        body: ReadableStream.from(body()),
        duplex: "half",
        headers: { "Content-Type": "application/json" },
      });
      await res.arrayBuffer();
      return res.status;
    });
  }
}

async function uploadMemory() {
  console.log(
    "\nUploads into R2 (workerd resident memory sampled every 50 ms; budget: growth within 48 MB at 100 MB, at least half the plain put's rate)",
  );
  const headers = { Cookie: cookie };
  const plain = {};
  for (const mb of [10, 100]) {
    plain[mb] = await measured("plain R2 put (the baseline)", mb, async () => {
      const res = await fetch(`${base}/dev/r2-put`, { method: "PUT", body: new Uint8Array(mb * 1024 * 1024) });
      await res.arrayBuffer();
      return res.status;
    });
  }
  // A multipart body posted as it is made, as a browser without JavaScript sends a form with a file.
  const postStreamed = async (path, { body, contentType }) => {
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      body,
      duplex: "half",
      redirect: "manual",
      headers: { ...headers, "Content-Type": contentType },
    });
    await res.arrayBuffer();
    return res;
  };
  const firstUpload = {};
  let item = null;
  for (const mb of [10, 100]) {
    firstUpload[mb] = await measured(
      "streamed form post (no JS)  ",
      mb,
      async () => {
        const res = await postStreamed("/upload", multipartUpload(mb));
        item = res.headers.get("Location");
        return res.status;
      },
      plain[mb],
    );
  }
  // A new version of the 100 MB item, as big: the same streamed path (decision 0042), beside its first upload.
  const versionRate = await measured(
    "a new version (no JS)       ",
    100,
    async () => (await postStreamed(item, multipartUpload(100, true))).status,
    plain[100],
  );
  console.log(
    `a new 100 MB version beside the first upload of 100 MB: ${(firstUpload[100] / versionRate).toFixed(2)}× its time (budget: within 1.10×)`,
  );
  const enc = new TextEncoder();
  for (const mb of [10, 100]) {
    await measured(
      "8 MiB parts (JS, resumable)",
      mb,
      async () => {
        const size = mb * 1024 * 1024;
        const start = await fetch(`${base}/uploads`, {
          method: "POST",
          body: JSON.stringify({ size }),
          headers: { ...headers, "Content-Type": "application/json" },
        });
        const { id, part_size } = await start.json();
        for (let n = 1; (n - 1) * part_size < size; n++) {
          const length = Math.min(part_size, size - (n - 1) * part_size);
          const body = new Uint8Array(length);
          if (n === 1) body.set(enc.encode("%PDF-1.4\n"));
          const tail = enc.encode("\nstartxref\n9\n%%EOF\n");
          if (n * part_size >= size) body.set(tail, length - tail.length);
          const res = await fetch(`${base}/uploads/${id}/parts/${n}`, { method: "PUT", body, headers });
          await res.arrayBuffer();
        }
        const done = await fetch(`${base}/uploads/${id}/complete`, { method: "POST", headers });
        await done.arrayBuffer();
        return done.status;
      },
      plain[mb],
    );
  }
}

/**
 * One Lighthouse run of `path` in a browser of its own, as Lighthouse's own command line runs it: in
 * a browser that ran audits before, the previous page's teardown landed in the next page's trace as a
 * 400 ms task. A persistent context is the browser's default one, where Lighthouse opens its pages:
 * the session cookie set there reaches the live socket too (extra headers reach only HTTP requests).
 */
async function lighthouseRun(path) {
  const port = await freePort();
  const profile = mkdtempSync(join(tmpdir(), "bench-lighthouse-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", `--remote-debugging-port=${port}`],
  });
  try {
    if (!PUBLIC.has(path)) await browser.addCookies([{ name: "token", value: cookie.slice("token=".length), url: base }]);
    const result = await lighthouse(base + path, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
      ...(PUBLIC.has(path) ? {} : { extraHeaders: { Cookie: cookie } }),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    return result.lhr;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Lighthouse's own mobile audit (simulated Slow 4G, a mid-range phone) of each page: its four scores. */
async function lighthouseScores() {
  console.log(
    `\nLighthouse (mobile) scores, the median of ${LIGHTHOUSE_RUNS} runs per page, each in a fresh browser; budgets: performance >= 95, accessibility 100, best practices 100`,
  );
  console.log(
    "page".padEnd(24),
    "performance".padStart(12),
    "accessibility".padStart(14),
    "best practices".padStart(15),
    "SEO".padStart(5),
    // The performance score's inputs (simulated), so a score below budget says which one cost it.
    "FCP".padStart(7),
    "LCP".padStart(7),
    "TBT".padStart(7),
    "SI".padStart(7),
    "CLS".padStart(6),
  );
  for (const path of LCP_PAGES) {
    // Lighthouse's own advice for a score that varies from run to run: the median of several runs.
    const runs = [];
    for (let run = 0; run < LIGHTHOUSE_RUNS; run++) runs.push(await lighthouseRun(path));
    // A run Lighthouse itself could not finish is left out, and said.
    const valid = filterToValidRuns(runs);
    for (const failed of runs.filter((run) => !valid.includes(run)))
      console.log(
        path.padEnd(24),
        "run left out:",
        failed.runtimeError?.code ?? "no first paint",
        failed.runtimeError?.message?.slice(0, 120) ?? "",
      );
    if (valid.length === 0) {
      console.log(path.padEnd(24), "no run finished");
      continue;
    }
    const lhr = computeMedianRun(valid);
    const score = (id) => String(Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100));
    console.log(
      path.padEnd(24),
      score("performance").padStart(12),
      score("accessibility").padStart(14),
      score("best-practices").padStart(15),
      score("seo").padStart(5),
      ...["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index"].map((id) =>
        `${Math.round(lhr.audits[id]?.numericValue ?? Number.NaN)} ms`.padStart(7),
      ),
      (lhr.audits["cumulative-layout-shift"]?.numericValue ?? Number.NaN).toFixed(3).padStart(6),
    );
    // What cost points, so a score below budget says why.
    const failing = Object.values(lhr.categories)
      .filter((category) => category.id !== "performance")
      .flatMap((category) => category.auditRefs)
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
    if (failing.length) console.log(" ".repeat(24), "failing:", [...new Set(failing)].join(", "));
    for (const item of lhr.audits["errors-in-console"]?.details?.items ?? [])
      console.log(" ".repeat(24), "console:", String(item.description ?? "").slice(0, 160), item.sourceLocation?.url ?? "");
  }
}

/** One first visit of `path` on emulated "Slow 4G" in a fresh context: what the table prints. */
/** Chrome DevTools' "Slow 4G" and a CPU four times slower, on the page's DevTools session. */
async function slow4g(cdp) {
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 562.5,
    downloadThroughput: 180000,
    uploadThroughput: 84375,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

async function slowVisit(browser, path) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  if (!PUBLIC.has(path)) await context.addCookies([{ name: "token", value: cookie.slice("token=".length), url: base }]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await slow4g(cdp);
  const types = new Map();
  const visit = { bytes: 0, js: 0, requests: 0 };
  cdp.on("Network.responseReceived", (event) => types.set(event.requestId, event.type));
  cdp.on("Network.requestWillBeSent", () => visit.requests++);
  cdp.on("Network.loadingFinished", (event) => {
    visit.bytes += event.encodedDataLength;
    if (types.get(event.requestId) === "Script") visit.js += event.encodedDataLength;
  });
  await page.goto(base + path, { waitUntil: "load" });
  const interactive = await interactiveAt(page);
  const kind = kindOf(await page.evaluate(() => document.documentElement.outerHTML.slice(0, 2000)));
  await page.waitForTimeout(500);
  const { lcp, cls } = await page.evaluate(
    () =>
      new Promise((resolve) => {
        let shifted = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (!entry.hadRecentInput) shifted += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
        new PerformanceObserver((list) => resolve({ lcp: list.getEntries().at(-1).startTime, cls: shifted })).observe({
          type: "largest-contentful-paint",
          buffered: true,
        });
      }),
  );
  await context.close();
  return { ...visit, interactive, kind, lcp, cls };
}

/**
 * When everything a member can do on the page worked (docs/decisions/0046): the shell module's
 * "interactive" mark, or, on a page without script, when its HTML was parsed. Code from before the
 * mark (a whole-app page) is read by its `data-hydrated`, for a before/after comparison.
 */
async function interactiveAt(page) {
  await page.waitForFunction(
    () =>
      document.documentElement.hasAttribute("data-interactive") ||
      document.documentElement.dataset.hydrated === "true" ||
      !document.querySelector("script"),
    null,
    { timeout: 60_000, polling: 50 },
  );
  return page.evaluate(() => {
    const mark = performance.getEntriesByName("interactive")[0];
    if (mark) return mark.startTime;
    // Interactive in the HTML itself (no script): when it was parsed.
    if (!document.querySelector("script")) return performance.getEntriesByType("navigation")[0].domInteractive;
    return performance.now();
  });
}

/**
 * First visit on emulated "Slow 4G" (Chrome DevTools' preset), fresh browser, per page: content
 * (LCP) and its ratio to a one-request page served by the same machine in the same run (the 404
 * page: HTML with inline CSS, no script), interactive (`html[data-interactive]`, decision 0046), bytes on the wire,
 * JavaScript, requests and layout shift (CLS). Timings are the median of SLOW_RUNS visits (a busy
 * machine moves one visit by a tenth of a second), CLS the largest. Budgets: issue 15,
 * docs/decisions/0011.
 */
async function slowNetwork() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
  console.log(
    `\nFirst visit on emulated "Slow 4G" (562.5 ms latency, 180 KB/s down, CPU 4x slower, no cache), median of ${SLOW_RUNS} visits; budgets (ratios to the one-request page of this run): content within 1.3x; interactive within 1.5x on a page that does not hydrate, 2.0x on one that does; JS ${JS_BUDGET_KB.plain} / ${JS_BUDGET_KB.hydrated} KB`,
  );
  console.log(
    "page".padEnd(24),
    "content".padStart(8),
    "ratio".padStart(6),
    "interactive".padStart(12),
    "ratio".padStart(6),
    "kind".padStart(9),
    "bytes".padStart(10),
    "JS".padStart(10),
    "requests".padStart(9),
    "CLS".padStart(6),
  );
  let baseline = Number.NaN;
  const seconds = (ms) => (Number.isNaN(ms) ? "-" : `${(ms / 1000).toFixed(2)} s`);
  try {
    for (const path of ["/no-such-page", ...LCP_PAGES]) {
      const visits = [];
      for (let run = 0; run < SLOW_RUNS; run++) visits.push(await slowVisit(browser, path));
      const lcp = median(visits.map((v) => v.lcp));
      const interactive = median(visits.map((v) => v.interactive));
      if (path === "/no-such-page") baseline = lcp;
      const kind = visits[0]?.kind ?? "plain";
      const within = lcp / baseline <= 1.3 && interactive / baseline <= (kind === "hydrated" ? 2 : 1.5);
      console.log(
        (path === "/no-such-page" ? "one-request page (404)" : path).padEnd(24),
        seconds(lcp).padStart(8),
        (lcp / baseline).toFixed(2).padStart(6),
        seconds(interactive).padStart(12),
        (interactive / baseline).toFixed(2).padStart(6),
        kind.padStart(9),
        kb(median(visits.map((v) => v.bytes))).padStart(10),
        kb(median(visits.map((v) => v.js))).padStart(10),
        String(median(visits.map((v) => v.requests))).padStart(9),
        Math.max(...visits.map((v) => v.cls))
          .toFixed(3)
          .padStart(6),
        within ? "" : "  OVER BUDGET",
      );
    }
  } finally {
    await browser.close();
  }
  await returningMoves();
}

/**
 * A returning member (scripts and styles cached by an earlier visit) moving Home -> an item ->
 * Retrieval on the same emulated network: from the click to the next page being interactive, the
 * median of SLOW_RUNS walks. Each link is hovered for 300 ms first, as a hand does; one walk without
 * the pages' Speculation Rules (prefetch on hover, "moderate"), one with them.
 */
async function returningMoves() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
  const RULES = { prefetch: [{ where: { href_matches: "/*" }, eagerness: "moderate" }] };
  const walk = async (prefetch) => {
    // A wide screen: the sidebar is open without a tap.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await context.addCookies([{ name: "token", value: cookie.slice("token=".length), url: base }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    // The first visit fills the cache (and the service worker's); the walk starts from a second one.
    await page.goto(`${base}/home`, { waitUntil: "load" });
    await interactiveAt(page);
    await page.goto(`${base}/home`, { waitUntil: "load" });
    await interactiveAt(page);
    await slow4g(cdp);
    const moves = [];
    // Each move: the link, and what says its page is there (an item's article, Retrieval's search field).
    const steps = [
      { link: "main a[href^='/retrieval/detail']", path: "/retrieval/detail", shown: "[data-testid=content-detail]" },
      { link: "[data-testid=sidebar] a[href='/retrieval']", path: "/retrieval", shown: "main input[name=q]" },
    ];
    for (const step of steps) {
      // The page's own rules (decision 0046), taken away for the walk without; code from before them gets these.
      await page.evaluate(
        ({ prefetch, rules }) => {
          const shipped = document.querySelector("script[type=speculationrules]");
          if (!prefetch) return shipped?.remove();
          if (shipped) return;
          const script = document.createElement("script");
          script.type = "speculationrules";
          script.textContent = JSON.stringify(rules);
          document.head.append(script);
        },
        { prefetch, rules: RULES },
      );
      const target = page.locator(step.link).first();
      await target.hover();
      await page.waitForTimeout(300);
      // From the click (kept in the tab, which a document load keeps) to the next page shown and
      // interactive: a move in the browser (before decision 0046) and a document load alike.
      await page.evaluate(() => sessionStorage.setItem("benchClick", String(Date.now())));
      await target.click();
      await page.waitForFunction(
        ({ path, shown }) =>
          location.pathname === path &&
          document.querySelector(shown) !== null &&
          (document.documentElement.hasAttribute("data-interactive") || document.documentElement.dataset.hydrated === "true"),
        step,
        { timeout: 60_000, polling: 50 },
      );
      moves.push(await page.evaluate(() => Date.now() - Number(sessionStorage.getItem("benchClick"))));
    }
    await context.close();
    return moves;
  };
  console.log(`\nA returning member's moves on the same network (cache warm), click to interactive, median of ${SLOW_RUNS} walks:`);
  for (const prefetch of [false, true]) {
    const walks = [];
    for (let run = 0; run < SLOW_RUNS; run++) walks.push(await walk(prefetch));
    const label = prefetch ? "prefetch on hover" : "no prefetch";
    const at = (i) => `${(median(walks.map((w) => w[i])) / 1000).toFixed(2)} s`;
    console.log(`  ${label.padEnd(24)} Home -> item ${at(0).padStart(8)}   item -> Retrieval ${at(1).padStart(8)}`);
  }
  await browser.close();
}
