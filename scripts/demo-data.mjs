// The demo catalogue, as SQL statements (idempotent). Each capability adds its own demo rows here.
import { createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { indexForm } from "../app/lib/caption-words.ts";

// Must match app/.server/config/parse.ts (LOCAL_PEPPER) and app/.server/accounts/passwords.ts.
const LOCAL_PEPPER = "local-development-pepper";
const ITERATIONS = 100_000;
export const DEMO_PASSWORD = "research-demo-2026";

export const DEMO_MEMBERS = [
  { email: "researcher@demo.test", type: 1, kind: "individual", nick: "Aiko Tanaka", organisation: null },
  { email: "investor@demo.test", type: 2, kind: "individual", nick: "Daniel Okafor", organisation: null },
  { email: "lab@demo.test", type: 1, kind: "facilitator", nick: "Clean Water Lab", organisation: "Clean Water Research Lab" },
  { email: "fund@demo.test", type: 2, kind: "facilitator", nick: "Green Future Fund", organisation: "Green Future Fund" },
  { email: "moderator@demo.test", type: 1, kind: "individual", nick: "Sam Rivera", organisation: null },
  { email: "reviewer@demo.test", type: 1, kind: "individual", nick: "Noor Haddad", organisation: null },
];
/** Locally the demo moderator and reviewer hold their roles; deployments grant roles with `npm run role`. */
const DEMO_ROLES = [
  ["moderator@demo.test", "moderator"],
  ["reviewer@demo.test", "reviewer"],
];

const b64url = (buf) => buf.toString("base64url");

function hashPassword(password) {
  const peppered = createHmac("sha256", LOCAL_PEPPER).update(password.normalize("NFKC")).digest();
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(peppered, salt, ITERATIONS, 32, "sha256");
  return `$pbkdf2-sha256$i=${ITERATIONS}$${b64url(salt)}$${b64url(hash)}`;
}

const q = (value) => (value === null ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

/** Demo documents and videos: files in demo/, stored in local R2 under these keys. */
export const DEMO_CONTENT = [
  {
    owner: "researcher@demo.test",
    kind: "document",
    sdg: 6,
    title: "Safe drinking water in small towns",
    summary: "What we measured in twelve small towns, and which filters worked.",
    content:
      "A field study of household water filters over one dry and one wet season. 家庭用浄水器による安全な飲み水の研究。家用净水器与清洁饮水研究。",
    keywords: "water, sanitation, filters",
    file: { key: "demo/sample-document.pdf", path: "demo/sample-document.pdf", type: "application/pdf" },
    thumbnail: { key: "demo/sample-document-thumbnail.png", path: "demo/sample-document-thumbnail.png", type: "image/png" },
  },
  {
    owner: "lab@demo.test",
    kind: "video",
    sdg: 13,
    title: "Measuring rainfall with low-cost sensors",
    summary: "A four-minute walk through our sensor network, shortened to four seconds for the demo.",
    content: "How the lab built and calibrated rainfall sensors for under ten dollars each.",
    keywords: "climate, sensors, rainfall",
    file: { key: "demo/sample-video.mp4", path: "demo/sample-video.mp4", type: "video/mp4" },
    thumbnail: { key: "demo/sample-video-thumbnail.png", path: "demo/sample-video-thumbnail.png", type: "image/png" },
  },
];

/** The text shard each demo item lives in: two of them, so the demo's search crosses shards too. */
const DEMO_SHARD = { document: 1, video: 2 };

/** The core database's demo rows. */
export async function demoStatements() {
  const now = Date.now();
  const { statSync } = await import("node:fs");
  const content = DEMO_CONTENT.map(
    (c) =>
      // A document's text is read by the queue job that the cron queues for what is pending (npm start runs it once).
      // Both under CC BY and opened by their owners: with OPEN_RECORDS=on, anyone may read their records.
      `INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, created_at, updated_at, text_state, text_queued_at, text_shard, license, open_record)
       SELECT id, ${q(c.kind)}, ${c.sdg}, ${q(c.title)}, ${q(c.summary)}, ${q(c.content)}, ${q(c.keywords)}, 1, ${q(c.file.key)}, ${statSync(c.file.path).size}, ${q(c.file.type)}, ${q(c.thumbnail.key)}, ${q(c.thumbnail.type)}, ${now}, ${now}, ${c.kind === "document" ? "'pending', 0" : "NULL, NULL"}, ${DEMO_SHARD[c.kind]}, 'CC-BY-4.0', 1
       FROM users WHERE email = ${q(c.owner)} AND NOT EXISTS (SELECT 1 FROM content WHERE file_key = ${q(c.file.key)})`,
  );
  return [...memberStatements(now), ...content, ...captionStatements(now), ...socialStatements(now)];
}

/** The demo items as the core made them, which the other databases' demo rows name. */
export const DEMO_ITEMS_SQL = "SELECT id, owner_id, kind, text_shard, file_key FROM content WHERE file_key LIKE 'demo/%' ORDER BY id";

/** The other databases' demo rows, by binding: the captions' cues in the video's shard, the readings. */
export function demoShardStatements(items) {
  const now = Date.now();
  const video = items.find((item) => item.kind === "video");
  const statements = { STATS_DB: [readingStatement(now, items)] };
  if (video) statements[`TEXT_${video.text_shard}`] = cueStatements(video);
  return statements;
}

/**
 * Six weeks of readings on the demo items, as the stats queue would have folded them (days in UTC,
 * the demo members' zone), so /personal/stats has something to chart; the view counts follow.
 */
function readingStatement(now, items) {
  const values = items.map((c) => `(${c.id}, ${c.owner_id}, ${q(c.kind)})`).join(", ");
  return `WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM d WHERE k < 41),
      kinds(kind, type, every) AS (SELECT 'view', 1, 6 UNION ALL SELECT 'view', 2, 4 UNION ALL SELECT 'download', 1, 3 UNION ALL SELECT 'export', 2, 2),
      c(id, owner_id, item_kind) AS (VALUES ${values})
    INSERT OR IGNORE INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers)
    SELECT c.owner_id, c.id, c.item_kind, date(${now} / 1000 - d.k * 86400, 'unixepoch'), kinds.kind, kinds.type, (d.k * 7 + c.id * 3) % kinds.every, (d.k * 7 + c.id * 3) % kinds.every
      FROM d, kinds, c WHERE (d.k * 7 + c.id * 3) % kinds.every > 0`;
}

/** The demo video's captions in English and Japanese (seconds, text), stored as the app stores an owner's file. */
const DEMO_CAPTIONS = {
  en: [
    [0.2, 1.8, "Each rainfall sensor costs under ten dollars."],
    [2.0, 3.8, "It reports every minute over the village network."],
  ],
  ja: [
    [0.2, 1.8, "雨量センサーは一台十ドル以下です。"],
    [2.0, 3.8, "村のネットワークで毎分報告します。"],
  ],
};

const captionKey = (lang) => `demo-captions-${lang}`;
const cueBody = (text) => indexForm(text);

/** The caption sets' rows in the core. */
function captionStatements(now) {
  const video = DEMO_CONTENT.find((c) => c.kind === "video");
  return Object.entries(DEMO_CAPTIONS).map(([lang, cues]) => {
    const bytes = cues.reduce((sum, [, , text]) => sum + Buffer.byteLength(cueBody(text)), 0);
    return `INSERT OR IGNORE INTO captions (content_id, lang, source, state, cue_count, duration_ms, write_key, text_bytes, updated_at)
       SELECT id, ${q(lang)}, 'owner', 'ready', ${cues.length}, ${(cues.at(-1)?.[1] ?? 0) * 1000}, ${q(captionKey(lang))}, ${bytes}, ${now}
       FROM content WHERE file_key = ${q(video.file.key)}`;
  });
}

/** Their cues, in the video's shard. */
function cueStatements(video) {
  return Object.entries(DEMO_CAPTIONS).map(([lang, cues]) => {
    const rows = cues.map(([start, end, text]) => `(${start * 1000}, ${end * 1000}, ${q(cueBody(text))})`).join(", ");
    return `INSERT INTO caption_cues (caption_key, content_id, lang, start_ms, end_ms, body, written_at)
       SELECT ${q(captionKey(lang))}, ${video.id}, ${q(lang)}, v.column1, v.column2, v.column3, 0 FROM (VALUES ${rows}) v
       WHERE NOT EXISTS (SELECT 1 FROM caption_cues WHERE caption_key = ${q(captionKey(lang))})`;
  });
}

const memberId = (email) => `(SELECT id FROM users WHERE email = ${q(email)})`;

/** A follow, two interests and a conversation (already read), so those pages are not empty. */
function socialStatements(now) {
  const researcher = memberId("researcher@demo.test");
  const investor = memberId("investor@demo.test");
  const pair = `(SELECT id FROM conversations WHERE member_low = min(${researcher}, ${investor}) AND member_high = max(${researcher}, ${investor}))`;
  const messages = [
    [investor, "demo-1", "Hello Aiko, I read your water filter study. Could we talk about a pilot in two more towns?"],
    [researcher, "demo-2", "Gladly! The field data is in the document; I can share the cost sheet next week."],
  ];
  return [
    `INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (${memberId("lab@demo.test")}, ${researcher}, ${now})`,
    `INSERT OR IGNORE INTO interests (user_id, sdg, created_at) VALUES (${investor}, 6, ${now}), (${investor}, 13, ${now})`,
    `INSERT OR IGNORE INTO conversations (member_low, member_high, created_at) VALUES (min(${researcher}, ${investor}), max(${researcher}, ${investor}), ${now})`,
    `INSERT OR IGNORE INTO conversation_members (conversation_id, user_id) VALUES (${pair}, ${researcher}), (${pair}, ${investor})`,
    ...messages.map(
      ([sender, clientId, body], i) =>
        `INSERT OR IGNORE INTO messages (conversation_id, sender_id, client_id, body, created_at) VALUES (${pair}, ${sender}, ${q(clientId)}, ${q(body)}, ${now + i})`,
    ),
    `UPDATE conversations SET last_message_id = (SELECT max(id) FROM messages WHERE conversation_id = ${pair}) WHERE id = ${pair}`,
    `UPDATE conversation_members SET last_read_id = (SELECT max(id) FROM messages WHERE conversation_id = ${pair}) WHERE conversation_id = ${pair}`,
  ];
}

function memberStatements(now) {
  return [
    ...DEMO_MEMBERS.map(
      (m) =>
        `INSERT OR IGNORE INTO users (email, password_hash, account_type, kind, nick_name, organisation, language, created_at) VALUES (${q(m.email)}, ${q(hashPassword(DEMO_PASSWORD))}, ${m.type}, ${q(m.kind)}, ${q(m.nick)}, ${q(m.organisation)}, 'en', ${now})`,
    ),
    ...DEMO_ROLES.map(
      ([email, role]) =>
        `INSERT OR IGNORE INTO member_roles (user_id, role, granted_at) SELECT id, ${q(role)}, ${now} FROM users WHERE email = ${q(email)}`,
    ),
  ];
}
