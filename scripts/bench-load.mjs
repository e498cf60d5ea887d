// Part of `npm run bench`: a bounded load run on its own server and state (.wrangler/bench-load-state).
// BENCH_LOAD_MEMBERS members (default 20; made in D1 before the server starts, each signed in once
// from its own address) spend BENCH_LOAD_SECONDS (default 10) at once browsing pages and the feed,
// searching, messaging their two neighbours (over the API and over the conversation's WebSocket,
// one send in five repeated at once as a double click or a retry would) and uploading small PDFs (in
// one post, or as a parts upload). It prints requests/s and latency percentiles per kind, then reads
// everything back: a message acknowledged but not stored as sent is lost, a message or upload stored
// twice is doubled, and an upload answered with success whose item, file or thumbnail is missing, or
// any item without its file or thumbnail, is half-kept. Each of these is a correctness failure (the
// caller exits non-zero); timings are never asserted.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { freePort, mustRun, prepareDatabase, serveBuilt, waitFor, wrangler } from "./lib.mjs";

const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const MEMBERS = Math.max(2, Number(process.env.BENCH_LOAD_MEMBERS ?? 20));
const STATE_DIR = ".wrangler/bench-load-state";
// How often each kind of action is picked: members mostly read.
const MIX = { browse: 4, search: 3, message: 4, upload: 1 };
// The member page lists 50 uploads; staying under it lets the check see every item a member made.
const UPLOADS_PER_MEMBER = 40;
const WORDS = ["water", "rainfall", "sensors", "load", "study"];
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const pdf = (text) =>
  new TextEncoder().encode(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% ${text}\nxref\n0 3\ntrailer<</Size 3/Root 1 0 R>>\nstartxref\n9\n%%EOF\n`,
  );
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const sameBytes = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Runs the load and its checks; answers the counts that must be 0. */
export async function loadBenchmarks({ config = "build/server/wrangler.json" } = {}) {
  console.log(`\nLoad run: ${MEMBERS} members at once for ${SECONDS} s (browse, search, message, upload), then everything read back`);
  rmSync(STATE_DIR, { recursive: true, force: true });
  await prepareDatabase(STATE_DIR);
  await createMembers();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = serveBuilt(port, STATE_DIR, "ignore", [], config);
  try {
    await waitFor(`${base}/healthz`);
    return await loadRun(base);
  } finally {
    server.kill("SIGTERM");
    setTimeout(() => server.kill("SIGKILL"), 2000).unref();
    // One server at a time: the next section (or the process's exit) waits for this one.
    if (server.exitCode === null) await new Promise((resolve) => server.once("exit", resolve));
  }
}

/** load-N@bench.test, signing in with the demo password (written while no server holds the state). */
async function createMembers() {
  mkdirSync(".wrangler/tmp", { recursive: true });
  const file = ".wrangler/tmp/bench-load.sql";
  writeFileSync(
    file,
    `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${MEMBERS - 1})
     INSERT INTO users (email, password_hash, account_type, kind, nick_name, created_at)
     SELECT 'load-' || k || '@bench.test', (SELECT password_hash FROM users WHERE email = 'researcher@demo.test'),
       1 + k % 2, 'individual', 'Load member ' || k, ${Date.now()} FROM n;\n`,
  );
  await mustRun(wrangler, ["d1", "execute", "DB", "--local", "--config", "wrangler.toml", "--persist-to", STATE_DIR, "--file", file], {
    stdio: "ignore",
  });
}

async function loadRun(base) {
  const tally = newTally();
  const members = await Promise.all(Array.from({ length: MEMBERS }, (_, n) => signIn(base, n, tally)));
  const shared = { items: [], messages: [], uploads: [], relayed: new Set() };
  await connect(base, members, shared);
  const feed = await readJson(members[0], "/api/contents?sort=newest");
  shared.items.push(...feed.items.map((item) => item.id));

  const kinds = Object.entries(MIX).flatMap(([kind, weight]) => Array(weight).fill(kind));
  const actions = { browse, search, message, upload };
  const started = performance.now();
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    members.map(async (member) => {
      while (Date.now() < until) {
        let kind = pick(kinds);
        if (kind === "upload" && member.uploads >= UPLOADS_PER_MEMBER) kind = "browse";
        const begun = performance.now();
        await actions[kind](member, shared);
        tally.stats[kind].times.push(performance.now() - begun);
      }
    }),
  );
  printFigures(tally, (performance.now() - started) / 1000);

  const messages = await checkMessages(members, shared);
  const uploads = await checkUploads(members, shared);
  for (const member of members) for (const socket of member.sockets.values()) socket.close(1000);
  const result = { lost: messages.lost, doubled: messages.doubled + uploads.doubled, halfKept: uploads.halfKept };
  console.log(`load: lost ${result.lost}, doubled ${result.doubled}, half-kept ${result.halfKept}`);
  return result;
}

/** Per kind: each action's time, the requests made (a socket frame counts as one) and those that failed. */
function newTally() {
  const stats = Object.fromEntries(Object.keys(MIX).map((kind) => [kind, { times: [], requests: 0, failed: 0 }]));
  const failures = new Map();
  return {
    stats,
    failures,
    fail(kind, what) {
      stats[kind].failed++;
      const key = `${kind}: ${what.replace(/\/\d+|\/[\w-]{36}/g, "/…").replace(/\?.*/, "")}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    },
  };
}

/** A member's client: its own address, its token, and a request helper that counts into the tally. */
async function signIn(base, n, tally) {
  const ip = `10.3.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  const res = await fetch(`${base}/api/users/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
    body: JSON.stringify({ email: `load-${n}@bench.test`, pwd: "research-demo-2026" }),
  });
  if (!res.ok) throw new Error(`load-${n}@bench.test could not sign in: ${res.status}`);
  const { data } = await res.json();
  const token = data.access_token;
  const headersFor = (path) => ({
    "CF-Connecting-IP": ip,
    ...(path.startsWith("/api/") ? { Authorization: `Bearer ${token}` } : { Cookie: `token=Bearer%20${token}` }),
  });
  /** One request; a network error or timeout answers status 0. Without a kind it is not counted (set-up and checks). */
  const request = async (kind, path, init = {}) => {
    if (kind) tally.stats[kind].requests++;
    const what = `${init.method ?? "GET"} ${path}`;
    try {
      const res = await fetch(base + path, {
        ...init,
        headers: { ...headersFor(path), ...init.headers },
        signal: AbortSignal.timeout(30_000),
      });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const json = res.headers.get("Content-Type")?.includes("json") ? JSON.parse(new TextDecoder().decode(bytes)) : null;
      if (!res.ok && kind) tally.fail(kind, `${res.status} ${what}`);
      return { status: res.status, bytes, json };
    } catch (error) {
      if (kind) tally.fail(kind, `${error.name} ${what}`);
      return { status: 0, bytes: null, json: null };
    }
  };
  return { n, ip, id: data.user.id, token, tally, request, sockets: new Map(), sent: 0, uploads: 0 };
}

/** The data of an API answer that must succeed (set-up and checks). */
async function readJson(member, path, init) {
  const { status, json } = await member.request(null, path, init);
  if (status < 200 || status > 201) throw new Error(`${init?.method ?? "GET"} ${path} answered ${status}`);
  return json.data;
}

/** Each member starts a conversation with the next (a ring), and every member opens a socket on each of its own. */
async function connect(base, members, shared) {
  for (const [i, member] of members.entries()) {
    const next = members[(i + 1) % members.length];
    const { conversation } = await readJson(member, "/api/conversations", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user_id: next.id }),
    });
    for (const who of [member, next])
      if (!who.sockets.has(conversation.id)) who.sockets.set(conversation.id, await openSocket(base, who, conversation.id, shared));
  }
}

function openSocket(base, member, conversationId, shared) {
  const socket = new WebSocket(`${base.replace(/^http/, "ws")}/live/conversations/${conversationId}`, {
    headers: { Authorization: `Bearer ${member.token}`, "CF-Connecting-IP": member.ip },
  });
  // What reaches the other member's open page live (reported, not asserted: a page also syncs when it reconnects).
  socket.addEventListener("message", (event) => {
    const { type, message } = JSON.parse(String(event.data));
    if (type === "message" && message.sender_id !== member.id) shared.relayed.add(`${message.sender_id}:${message.client_id}`);
  });
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () => resolve(socket), { once: true });
    socket.addEventListener("error", () => reject(new Error(`socket for conversation ${conversationId} failed`)), { once: true });
  });
}

async function browse(member, shared) {
  const id = pick(shared.items);
  await member.request(
    "browse",
    pick(["/home", "/discovery", `/retrieval/detail?id=${id}`, "/api/contents?sort=newest", `/api/contents/${id}`]),
  );
}

async function search(member) {
  const q = pick(WORDS);
  await member.request(
    "search",
    pick([`/api/search?tab=documents&q=${q}`, `/retrieval?tab=documents&q=${q}`, "/api/search?tab=members&q=Load"]),
  );
}

/** One message, over the API and the socket in turn; every fifth is sent twice at once. */
async function message(member, shared) {
  const seq = member.sent++;
  const [conversationId, socket] = pick([...member.sockets]);
  const copies = seq % 5 === 4 ? 2 : 1;
  const sent = {
    conversationId,
    sender: member.id,
    client_id: `load-${member.n}-${seq}`,
    body: `message ${seq} from member ${member.n}`,
    copies,
    acks: [],
  };
  shared.messages.push(sent);
  if (seq % 2 === 0) {
    const post = () =>
      member.request("message", `/api/conversations/${conversationId}/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client_id: sent.client_id, body: sent.body }),
      });
    let answers = await Promise.all(Array.from({ length: copies }, () => post()));
    // A send that failed is sent again with the same client id, as the page does.
    for (let retry = 0; retry < 2 && answers.every((a) => a.status === 0 || a.status >= 500); retry++) answers = [await post()];
    sent.acks = answers.filter((a) => a.status === 200 || a.status === 201).map((a) => a.json.data.message.id);
  } else {
    const ack = acknowledged(socket, sent.client_id);
    for (let i = 0; i < copies; i++) {
      member.tally.stats.message.requests++;
      socket.send(JSON.stringify({ type: "send", client_id: sent.client_id, body: sent.body }));
    }
    const id = await ack;
    if (id === null) member.tally.fail("message", "no ack on the socket");
    else sent.acks = [id];
  }
}

/** The stored message's id from the socket's ack of this client id; null on an error or after 10 s. */
function acknowledged(socket, clientId) {
  return new Promise((resolve) => {
    const done = (id) => {
      clearTimeout(timer);
      socket.removeEventListener("message", listener);
      resolve(id);
    };
    const listener = (event) => {
      const data = JSON.parse(String(event.data));
      if (data.type === "ack" && data.message.client_id === clientId) done(data.message.id);
      else if (data.type === "error" && data.client_id === clientId) done(null);
    };
    const timer = setTimeout(() => done(null), 10_000);
    socket.addEventListener("message", listener);
  });
}

/** A small PDF with a thumbnail, posted with the file or after a parts upload in turn; a failed post is posted again. */
async function upload(member, shared) {
  const seq = member.uploads++;
  const title = `Load study ${member.n}-${seq} ${pick(WORDS)}`;
  const file = pdf(title);
  const fields = {
    kind: "document",
    sdg: String(1 + (seq % 17)),
    title,
    summary: "An upload of the load run",
    content: `Uploaded by load member ${member.n}`,
    keywords: "load, bench",
    publicize: "1",
    client_key: `load-${member.n}-${seq}`,
  };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("thumbnail", new Blob([PNG], { type: "image/png" }), "thumbnail.png");
  if (seq % 2 === 0) form.set("file", new Blob([file], { type: "application/pdf" }), "load.pdf");
  else {
    const started = await member.request("upload", "/api/uploads", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ size: file.length }),
    });
    if (started.status !== 201) return;
    const { id } = started.json.data;
    if ((await member.request("upload", `/api/uploads/${id}/parts/1`, { method: "PUT", body: file })).status !== 200) return;
    if ((await member.request("upload", `/api/uploads/${id}/complete`, { method: "POST" })).status !== 200) return;
    form.set("upload_id", id);
  }
  const post = () => member.request("upload", "/api/contents", { method: "POST", body: form });
  let answer = await post();
  // The page posts the same form (the same client key) again when the answer did not come.
  if (answer.status === 0 || answer.status >= 500) answer = await post();
  if (answer.status !== 201) return;
  shared.uploads.push({ owner: member, id: answer.json.data.id, file });
  shared.items.push(answer.json.data.id);
}

function printFigures({ stats, failures }, seconds) {
  const ms = (times, q) => {
    const sorted = [...times].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1) : "-";
  };
  const row = (label, times, requests, failed) =>
    console.log(
      `  ${label.padEnd(8)} ${String(times.length).padStart(7)} ${String(requests).padStart(9)} ${(requests / seconds).toFixed(1).padStart(8)}`,
      `${ms(times, 0.5).padStart(8)} ${ms(times, 0.95).padStart(8)} ${ms(times, 0.99).padStart(8)} ${String(failed).padStart(7)}`,
    );
  console.log(`  ${seconds.toFixed(1)} s; latency per action (a parts upload is 4 requests; a socket send is timed to its ack)`);
  console.log(
    `  ${"kind".padEnd(8)} ${"actions".padStart(7)} ${"requests".padStart(9)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"failed".padStart(7)}`,
  );
  for (const [kind, { times, requests, failed }] of Object.entries(stats)) row(kind, times, requests, failed);
  const all = Object.values(stats);
  row(
    "total",
    all.flatMap((s) => s.times),
    all.reduce((sum, s) => sum + s.requests, 0),
    all.reduce((sum, s) => sum + s.failed, 0),
  );
  for (const [what, count] of failures) console.log(`  failed: ${what} (${count}×)`);
}

/** Reads every conversation back: each acknowledged id must be stored as sent, and each client id stored once. */
async function checkMessages(members, shared) {
  const readers = new Map(members.flatMap((member) => [...member.sockets.keys()].map((id) => [id, member])));
  const stored = new Map();
  for (const [id, reader] of readers) {
    for (let after = 0, more = true; more; ) {
      const page = await readJson(reader, `/api/conversations/${id}/messages?after=${after}&limit=100`);
      for (const row of page.messages) {
        const key = `${row.sender_id}:${row.client_id}`;
        stored.set(key, [...(stored.get(key) ?? []), row]);
      }
      more = page.has_more;
      after = page.messages.at(-1)?.id ?? after;
    }
  }
  let [lost, doubled, acknowledgedCount, relayed] = [0, 0, 0, 0];
  for (const sent of shared.messages) {
    const key = `${sent.sender}:${sent.client_id}`;
    const rows = stored.get(key) ?? [];
    if (sent.acks.length) acknowledgedCount++;
    if (sent.acks.some((id) => !rows.some((r) => r.id === id && r.body === sent.body && r.conversation_id === sent.conversationId))) lost++;
    doubled += Math.max(0, rows.length - 1);
    if (rows.length && shared.relayed.has(key)) relayed++;
  }
  const twice = shared.messages.filter((sent) => sent.copies === 2).length;
  const rows = [...stored.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(
    `  messages: ${shared.messages.length} sent (${twice} of them twice at once), ${acknowledgedCount} acknowledged, ${rows} stored; ${relayed} reached the other member's open socket live`,
  );
  return { lost, doubled };
}

/**
 * Reads every member's items back (the member page lists them all, being under 50): each item must
 * answer with its file and thumbnail, an acknowledged upload's file must be the bytes sent, and no
 * upload (its title) may be stored twice.
 */
async function checkUploads(members, shared) {
  let [halfKept, doubled, checked] = [0, 0, 0];
  for (const member of members) {
    const page = await readJson(member, `/api/members/${member.id}`);
    const titles = page.uploads.map((item) => item.title);
    doubled += titles.length - new Set(titles).size;
    const acked = new Map(shared.uploads.filter((u) => u.owner === member).map((u) => [u.id, u.file]));
    for (const id of new Set([...acked.keys(), ...page.uploads.map((item) => item.id)])) {
      const [item, file, thumbnail] = await Promise.all(
        ["", "/file", "/thumbnail"].map((suffix) => member.request(null, `/api/contents/${id}${suffix}`)),
      );
      const whole =
        item.status === 200 && file.status === 200 && thumbnail.status === 200 && (!acked.has(id) || sameBytes(file.bytes, acked.get(id)));
      if (!whole) halfKept++;
      checked++;
    }
  }
  const tried = members.reduce((sum, member) => sum + member.uploads, 0);
  console.log(`  uploads: ${tried} tried, ${shared.uploads.length} acknowledged; ${checked} items read back (item, file and thumbnail)`);
  return { halfKept, doubled };
}
