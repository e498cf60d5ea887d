// `npm run bench`: prints figures, asserts nothing. For each page: HTML size raw and compressed, the
// JavaScript it loads (pages of the layout signed in as the demo researcher); the time of a login
// request; the worker's requests per second on /login against a trivial route (/healthz); and
// first-visit LCP on emulated "Slow 4G". Budgets are in ../shared/DESIGN.md.
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { mustRun, prepareDatabase, serveBuilt, waitFor } from "./lib.mjs";

const PUBLIC = new Set(["/login", "/signup", "/forgetPassword", "/no-such-page"]);
const PAGES = [
  "/login",
  "/signup",
  "/forgetPassword",
  "/home",
  "/discovery",
  "/retrieval",
  "/retrieval/detail",
  "/liveStreaming",
  "/message",
  "/upload",
  "/personal",
  "/no-such-page",
];
const LCP_PAGES = ["/login", "/home", "/discovery", "/retrieval"];
const RPS_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = 8;

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${port}`;
const stateDir = ".wrangler/bench-state";
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const br = (buf) => brotliCompressSync(buf).length;

await mustRun("node_modules/.bin/react-router", ["build"], { stdio: "ignore" });
rmSync(stateDir, { recursive: true, force: true });
await prepareDatabase(stateDir);
const server = serveBuilt(port, stateDir, "ignore");
let cookie = "";
try {
  await waitFor(`${base}/healthz`);
  cookie = await loginTimings();
  await pageSizes();
  await throughput();
  await slow4gLcp();
} finally {
  server.kill("SIGTERM");
  setTimeout(() => server.kill("SIGKILL"), 2000).unref();
}

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
  console.log("\nPage HTML (budget: HTML + critical CSS <= 14 KB compressed) and the JavaScript it loads");
  console.log(
    "page".padEnd(20),
    "status",
    "html raw".padStart(10),
    "gzip".padStart(9),
    "brotli".padStart(9),
    "  js files",
    "js raw".padStart(10),
    "js gzip".padStart(10),
  );
  for (const path of PAGES) {
    const res = await fetch(base + path, { redirect: "manual", headers: PUBLIC.has(path) ? {} : { Cookie: cookie } });
    const html = Buffer.from(await res.arrayBuffer());
    const text = html.toString("utf8");
    const scripts = new Set([...text.matchAll(/(?:modulepreload" href=|from )"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    let jsRaw = 0;
    let jsGz = 0;
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
      String(scripts.size).padStart(10),
      kb(jsRaw).padStart(10),
      kb(jsGz).padStart(10),
    );
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
  console.log(`\nLocal worker throughput (${CONCURRENCY} concurrent clients, ${RPS_SECONDS} s each, one 2-core machine)`);
  console.log(`/healthz (trivial route): ${trivial.toFixed(0)} req/s`);
  console.log(`/login (rendered page):   ${login.toFixed(0)} req/s`);
  console.log(`ratio /login : /healthz = ${(login / trivial).toFixed(2)}`);
}

async function slow4gLcp() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
  console.log('\nFirst visit on emulated "Slow 4G" (562.5 ms latency, 180 KB/s down, CPU 4x slower, no cache); budget 1.0 s');
  try {
    for (const path of LCP_PAGES) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      if (!PUBLIC.has(path)) await context.addCookies([{ name: "token", value: cookie.slice("token=".length), url: base }]);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 562.5,
        downloadThroughput: 180000,
        uploadThroughput: 84375,
      });
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      let requests = 0;
      page.on("request", () => requests++);
      await page.goto(base + path, { waitUntil: "load" });
      const { lcp, fcp } = await page.evaluate(
        () =>
          new Promise((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              const fcpEntry = performance.getEntriesByName("first-contentful-paint")[0];
              resolve({ lcp: entries.at(-1).startTime, fcp: fcpEntry?.startTime ?? Number.NaN });
            }).observe({ type: "largest-contentful-paint", buffered: true });
          }),
      );
      console.log(
        `${path.padEnd(12)} FCP ${(fcp / 1000).toFixed(2)} s   LCP ${(lcp / 1000).toFixed(2)} s   (${requests} requests by load)`,
      );
      await context.close();
    }
  } finally {
    await browser.close();
  }
}
