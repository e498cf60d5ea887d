// `npm run bench:data [-- stateDir [items] [members] [texts] [captions]]`: fills a local state folder
// with a generated catalogue for the search and ranking benchmarks — by default 100,000 documents and
// videos from 10,000 members, with follows, interests, likes, views and points over the last month,
// 10,000 documents with 5,000 words of their own text each, and 10,000 videos with one hour of
// captions each. Laid out as the app keeps it (docs/decisions/0045-databases.md): items, members and
// the captions' rows in the core (DB), documents' text and captions' cues in each item's text shard
// (TEXT_1, TEXT_2, ...), the readings in the statistics database (STATS_DB). The rows are made by SQL
// inside D1 (recursive CTEs), one database after the other in one local runtime: a row that names
// another database's row is computed from the bench item's number k, whose id is clo + k - 1 in a
// fresh core (one INSERT numbers them in order).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { indexForm } from "../app/lib/caption-words.ts";
import { databaseBindings } from "./databases.mjs";
import { DEMO_CONTENT, DEMO_ITEMS_SQL, demoShardStatements, demoStatements } from "./demo-data.mjs";
import { prepareLocalState, withoutClassWarnings } from "./local-state.mjs";

// Words the text is drawn from: English, Japanese and Chinese, so every query path is exercised.
export const BENCH_WORDS = [
  "water",
  "soil",
  "health",
  "climate",
  "energy",
  "solar",
  "rainfall",
  "sensor",
  "river",
  "forest",
  "education",
  "poverty",
  "hunger",
  "nutrition",
  "vaccine",
  "clinic",
  "gender",
  "equality",
  "sanitation",
  "filter",
  "urban",
  "housing",
  "transport",
  "ocean",
  "coral",
  "fishery",
  "biodiversity",
  "wetland",
  "drought",
  "flood",
  "finance",
  "market",
  "supply",
  "recycling",
  "plastic",
  "battery",
  "wind",
  "grid",
  "school",
  "teacher",
  "飲み水",
  "気候変動",
  "再生可能エネルギー",
  "教育",
  "森林",
  "海洋",
  "貧困",
  "健康",
  "清洁饮水",
  "气候变化",
  "可再生能源",
  "教育公平",
  "森林保护",
  "海洋生态",
  "减贫",
  "公共卫生",
];
const NAMES = [
  "Aiko",
  "Daniel",
  "Mei",
  "Lucas",
  "Amara",
  "Kenji",
  "Sofia",
  "Wei",
  "Noah",
  "Priya",
  "Omar",
  "Yuki",
  "Lina",
  "Mateo",
  "Hana",
  "Chen",
];
const FAMILY = [
  "Tanaka",
  "Okafor",
  "Li",
  "Silva",
  "Mensah",
  "Sato",
  "Garcia",
  "Wang",
  "Kim",
  "Patel",
  "Haddad",
  "Suzuki",
  "Rossi",
  "Lopez",
  "Ito",
  "Zhang",
];

const list = (values) => values.map((v, i) => `(${i}, '${v}')`).join(", ");
const word = (expr) => `(SELECT w FROM bench_words WHERE i = (${expr}) % ${BENCH_WORDS.length})`;

/** Made-up words for documents' text, from syllables, so the text has the variety of a real vocabulary. */
const SYLLABLES = ["ka", "ro", "mi", "tel", "van", "sor", "qui", "dex", "lum", "bra", "ten", "oph", "zul", "nar", "pel", "gri"];
const TEXT_WORDS = Array.from(
  { length: 600 },
  (_, i) => SYLLABLES[i % 16] + SYLLABLES[Math.floor(i / 16) % 16] + SYLLABLES[(i * 7 + 3) % 16],
);
/** A word found only in documents' text (never in a form field): the bench searches for it. */
export const TEXT_ONLY_WORD = TEXT_WORDS[123];
const TEXT_PAGES = 100;
const PAGE_WORDS = 500;
/** One of TEXT_PAGES pages of text: PAGE_WORDS words, one in ten from the catalogue's words. */
const textPage = (p) =>
  Array.from({ length: PAGE_WORDS }, (_, w) =>
    w % 10 === 0 ? BENCH_WORDS[(p * 13 + w) % BENCH_WORDS.length] : TEXT_WORDS[(p * 101 + w * 37) % TEXT_WORDS.length],
  ).join(" ");

/** Words of spoken English in captions beside the catalogue's: none is ever in a form field or documents' text. */
const SPOKEN_WORDS = [
  "people",
  "farmers",
  "village",
  "children",
  "families",
  "morning",
  "season",
  "together",
  "community",
  "project",
  "question",
  "support",
  "money",
  "work",
  "year",
  "days",
  "local",
  "small",
  "new",
  "good",
  "important",
  "problem",
  "change",
  "help",
  "government",
  "women",
  "home",
  "land",
  "food",
  "life",
];
const FUNCTION_WORDS =
  "the and we is to of in that it this so you they have with for on are was what can here there when now very just really a our";
/** Japanese and Chinese said beside the catalogue's words (地域 and 河 only ever in captions), then their particles. */
const JA_WORDS = "地域 農家 子ども 学校 毎日 川 村 私たち 今日 大切 問題 家族 仕事 水道 雨 畑 お米 先生 みんな 話";
const JA_PARTICLES = "は が の を に で と も です ます そして でも とても";
const ZH_WORDS = "水 河流 我们 社区 农民 孩子 学校 每天 村子 今天 重要 问题 家庭 工作 雨水 土地 粮食 老师 大家 生活";
const ZH_PARTICLES = "的 是 在 了 和 也 都 很 这 有 就 所以 但是";
/** A word said only in captions (one cue in CAPTION_ONLY_EVERY): the bench searches for it. */
export const CAPTION_ONLY_WORD = "quorvendel";
const CAPTION_ONLY_EVERY = 500;
/** One hour of captions: CAPTION_CUES cues of CUE_MS each. */
const CAPTION_CUES = 900;
const CUE_MS = 4000;
/** Videos whose cues one statement inserts: 90,000 rows, each indexed by the triggers, about a second. */
const CAPTION_CHUNK = 100;

/** A number in [0, 1) from `n`, the same on every run (a 32-bit mix, as murmur3's finalizer). */
const unit = (n) => {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return ((x ^ (x >>> 16)) >>> 0) / 2 ** 32;
};
const CJK_BENCH_WORDS = BENCH_WORDS.filter((w) => /\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}/u.test(w));
const ENGLISH_BENCH_WORDS = BENCH_WORDS.filter((w) => /^[a-z]+$/.test(w));
/**
 * Each language's cue texts: `count` templates of 10-14 words, each from the first pool whose bound
 * passes a draw (its little words most often), one in CAPTION_ONLY_EVERY with CAPTION_ONLY_WORD.
 * Japanese and Chinese are written unspaced, as they are spoken.
 */
const CAPTION_LANGS = [
  {
    lang: "en",
    count: 1000,
    space: " ",
    end: ".",
    pools: [
      [0.45, FUNCTION_WORDS.split(" ")],
      [0.6, SPOKEN_WORDS],
      [0.75, ENGLISH_BENCH_WORDS],
      [1, TEXT_WORDS],
    ],
  },
  {
    lang: "ja",
    count: 500,
    space: "",
    end: "。",
    pools: [
      [0.45, JA_PARTICLES.split(" ")],
      [0.75, JA_WORDS.split(" ")],
      [1, CJK_BENCH_WORDS.slice(0, 8)],
    ],
  },
  {
    lang: "zh",
    count: 500,
    space: "",
    end: "。",
    pools: [
      [0.45, ZH_PARTICLES.split(" ")],
      [0.75, ZH_WORDS.split(" ")],
      [1, CJK_BENCH_WORDS.slice(8)],
    ],
  },
];

/** The template's words: the pool by one draw, the word by another. */
function cueTemplate({ space, end, pools }, seed, t) {
  const words = Array.from({ length: 10 + (t % 5) }, (_, w) => {
    const draw = unit(seed + t * 32 + w * 2);
    const [, pool] = pools.find(([upTo]) => draw < upTo) ?? pools[pools.length - 1];
    return pool[Math.floor(unit(seed + t * 32 + w * 2 + 1) * pool.length)];
  });
  if (t % CAPTION_ONLY_EVERY === CAPTION_ONLY_EVERY - 1) words[t % words.length] = ` ${CAPTION_ONLY_WORD} `;
  const text = words.join(space).replace(/ {2,}/g, " ").trim();
  return indexForm(text[0].toUpperCase() + text.slice(1) + end);
}

/** The text shard of bench item k among `shards`: spread as the app's random pick spreads them, the same here and in SQL. */
const shardOf = (k, shards) => 1 + (Math.floor(((k * 2654435761) % 4294967296) / 65536) % shards);
const shardSql = (k, shards) => `(1 + ((${k}) * 2654435761 % 4294967296 / 65536) % ${shards})`;
/** Two items in five are videos. */
const isVideo = (k) => k % 5 < 2;
/** One item in ten is a document with its own text (while there are texts to give). */
const mayHaveText = (k) => !isVideo(k) && k % 6 === 0;
/**
 * Rows one statement makes, each a second or two here: the local runtime drops a request that runs
 * past about 10 s. Items (each indexed by content_fts's trigger), likes, readings (each folded by the
 * statistics' triggers), and the bench items whose text one statement stores (a multiple of 6: those
 * are the items that may have text; about 1,200 documents).
 */
const ITEM_CHUNK = 25_000;
const LIKE_CHUNK = 250_000;
const READING_CHUNK = 50_000;
const TEXT_CHUNK = 12_000;
/** [first, last] of each `size` numbers from 1 to `total`. */
const chunks = (total, size) => Array.from({ length: Math.ceil(total / size) }, (_, i) => [i * size + 1, Math.min(total, (i + 1) * size)]);

/** The last bench item with text: the first `texts` items that may have it do. */
function lastTextItem(items, texts) {
  let given = 0;
  for (let k = 6; k <= items && texts > 0; k += 6) if (mayHaveText(k) && ++given === texts) return k;
  return texts > 0 ? items : 0;
}

/** The captioned videos, numbered 1..: every (videos ÷ captioned)th video in the catalogue's order, in English, Japanese (every third) or Chinese (every fifth). */
function captionedVideos(items, captions) {
  if (!captions) return [];
  const videos = [];
  for (let k = 1; k <= items; k++) if (isVideo(k)) videos.push(k);
  const step = Math.max(1, Math.floor(videos.length / captions));
  return videos
    .filter((_, r) => r % step === 0)
    .slice(0, captions)
    .map((k, i) => ({ n: i + 1, k, lang: (i + 1) % 5 === 0 ? "zh" : (i + 1) % 3 === 0 ? "ja" : "en" }));
}

let cueLanguages;
/** Each language's cue templates and where they start among all of them. */
function languages() {
  let base = 0;
  cueLanguages ??= CAPTION_LANGS.map((spec, l) => {
    const templates = Array.from({ length: spec.count }, (_, t) => cueTemplate(spec, (l + 1) * 1_000_000, t));
    const at = base;
    base += spec.count;
    return { ...spec, base: at, templates };
  });
  return cueLanguages;
}
/** Cue q of captioned video n: one of its language's templates, picked by video and cue number (the same formula in the shard's SQL). */
const cueIndex = (n, q, size) => (n * 7919 + q * 104729) % size;
/** Captioned video n's hour of cues in `lang`, as its shard stores them: [start_ms, end_ms, body]. */
export function videoCues(n, lang) {
  const { templates } = languages().find((l) => l.lang === lang);
  return Array.from({ length: CAPTION_CUES }, (_, q) => [q * CUE_MS, (q + 1) * CUE_MS, templates[cueIndex(n, q, templates.length)]]);
}
const encoder = new TextEncoder();
/** The bytes of a video's cues as stored, which the core's row counts against its owner's budget. */
const captionBytes = ({ n, lang }) => videoCues(n, lang).reduce((sum, [, , body]) => sum + encoder.encode(body).length, 0);
/** Bench item k's text as its shard stores it: the pages the shard's SQL picks, in the order it joins them. */
export const documentBody = (k, pages = 10) =>
  Array.from({ length: pages }, (_, j) => (k + j * 7) % TEXT_PAGES)
    .sort((a, b) => a - b)
    .map(textPage)
    .join("\f");
/** Rows of VALUES, `per` a statement (D1 refuses a statement over 100 KB). */
const valueChunks = (rows, per, statement) =>
  Array.from({ length: Math.ceil(rows.length / per) }, (_, i) => statement(rows.slice(i * per, i * per + per).join(", ")));

/** The core: members, items (each with its text shard), follows, likes, interests, points; which documents have text; the caption sets' rows. */
function coreStatements({ items, members, now, shards, lastText, pages, videos }) {
  const month = 30 * 86_400_000;
  const since = now - month;
  const day = (expr) => `strftime('%Y-%m-%d', (${expr}) / 1000, 'unixepoch')`;
  const clo = "(SELECT clo FROM bench_range)";
  return [
    "CREATE TABLE IF NOT EXISTS bench_words (i INTEGER PRIMARY KEY, w TEXT NOT NULL)",
    `INSERT OR IGNORE INTO bench_words VALUES ${list(BENCH_WORDS)}`,
    "CREATE TABLE IF NOT EXISTS bench_names (i INTEGER PRIMARY KEY, w TEXT NOT NULL)",
    `INSERT OR IGNORE INTO bench_names VALUES ${list(NAMES)}`,
    "CREATE TABLE IF NOT EXISTS bench_family (i INTEGER PRIMARY KEY, w TEXT NOT NULL)",
    `INSERT OR IGNORE INTO bench_family VALUES ${list(FAMILY)}`,
    // Members: every one can sign in with the demo password (copied from the demo researcher).
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${members})
     INSERT INTO users (email, password_hash, account_type, kind, nick_name, organisation, created_at)
     SELECT 'bench-' || k || '@bench.test', (SELECT password_hash FROM users WHERE email = 'researcher@demo.test'),
       1 + k % 2, CASE WHEN k % 5 = 0 THEN 'facilitator' ELSE 'individual' END,
       (SELECT w FROM bench_names WHERE i = k % ${NAMES.length}) || ' ' || (SELECT w FROM bench_family WHERE i = (k / ${NAMES.length}) % ${FAMILY.length}) || ' ' || k,
       CASE WHEN k % 5 = 0 THEN ${word("k")} || ' institute' END, ${since} + k
     FROM n`,
    "CREATE TABLE IF NOT EXISTS bench_range (lo INTEGER, hi INTEGER, clo INTEGER)",
    "DELETE FROM bench_range",
    "INSERT INTO bench_range SELECT min(id), max(id), NULL FROM users WHERE email LIKE 'bench-%'",
    // Items: one in ten private, two in five videos, texts of 6-10 words, spread over the month.
    ...chunks(items, ITEM_CHUNK).map(
      ([from, to]) => `WITH RECURSIVE n(k) AS (SELECT ${from} UNION ALL SELECT k + 1 FROM n WHERE k < ${to})
     INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, views, likes, created_at, updated_at, text_shard)
     SELECT (SELECT lo FROM bench_range) + (k * 7919) % ${members},
       CASE WHEN k % 5 < 2 THEN 'video' ELSE 'document' END, 1 + k % 17,
       ${word("k * 3")} || ' ' || ${word("k * 7 + 1")} || ' study ' || k,
       ${word("k * 11 + 2")} || ' and ' || ${word("k * 13 + 3")} || ' in practice',
       ${word("k * 17 + 4")} || ' ' || ${word("k * 19 + 5")} || ' ' || ${word("k * 23 + 6")} || ' ' || ${word("k * 29 + 7")} || ' ' || ${word("k * 31 + 8")} || ' field notes number ' || k,
       ${word("k * 37 + 9")} || ', ' || ${word("k * 41 + 10")},
       CASE WHEN k % 10 = 0 THEN 0 ELSE 1 END, 'bench/' || k, 1000, 'application/pdf', 'bench/' || k || '/t', 'image/png',
       (k * 31) % 500, (k * 17) % 50, ${since} + (k * 25919) % ${month}, ${since} + (k * 25919) % ${month}, ${shardSql("k", shards)}
     FROM n ORDER BY k`,
    ),
    `UPDATE bench_range SET clo = (SELECT min(id) FROM content WHERE file_key LIKE 'bench/%')`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${members * 3})
     INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at)
     SELECT (SELECT lo FROM bench_range) + k % ${members}, (SELECT lo FROM bench_range) + (k * 7 + 1 + k / ${members}) % ${members}, ${since} + (k * 997) % ${month}
     FROM n WHERE k % ${members} <> (k * 7 + 1 + k / ${members}) % ${members}`,
    ...chunks(items, LIKE_CHUNK).map(
      ([from, to]) => `WITH RECURSIVE n(k) AS (SELECT ${from} UNION ALL SELECT k + 1 FROM n WHERE k < ${to})
     INSERT OR IGNORE INTO likes (user_id, content_id, created_at)
     SELECT (SELECT lo FROM bench_range) + (k * 13) % ${members}, ${clo} + (k * 7) % ${items}, ${since} + (k * 1009) % ${month}
     FROM n`,
    ),
    // Two interests each (goals), so the recommended list has both of its reasons to weigh.
    `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${members - 1})
     INSERT OR IGNORE INTO interests (user_id, sdg, created_at)
     SELECT (SELECT lo FROM bench_range) + k, 1 + k % 17, ${since} FROM n
     UNION ALL SELECT (SELECT lo FROM bench_range) + k, 1 + (k * 7 + 3) % 17, ${since} FROM n`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${members * 2})
     INSERT INTO points (user_id, reason, amount, day, created_at)
     SELECT (SELECT lo FROM bench_range) + k % ${members}, 'comment', 1, ${day(`${since} + (k * 1019) % ${month}`)}, ${since} + (k * 1019) % ${month}
     FROM n`,
    // What the extraction job's core half leaves for a document whose text its shard holds.
    ...(lastText
      ? [
          `UPDATE content SET text_state = 'done', text_pages = ${pages}, text_page_count = ${pages}
           WHERE id BETWEEN ${clo} AND ${clo} + ${lastText} - 1 AND (id - ${clo} + 1) % 6 = 0 AND kind = 'document'`,
        ]
      : []),
    // Each captioned video's ready set (its cues are in the video's shard under the write key).
    ...valueChunks(
      videos.map((v) => `(${v.k}, '${v.lang}', ${captionBytes(v)})`),
      1000,
      (rows) => `INSERT INTO captions (content_id, lang, source, state, cue_count, duration_ms, write_key, text_bytes, updated_at)
       SELECT ${clo} + v.column1 - 1, v.column2, 'owner', 'ready', ${CAPTION_CUES}, ${CAPTION_CUES * CUE_MS}, 'bench-captions-' || (${clo} + v.column1 - 1), v.column3, ${now}
       FROM (VALUES ${rows}) v`,
    ),
    "DROP TABLE bench_words",
    "DROP TABLE bench_names",
    "DROP TABLE bench_family",
  ];
}

/**
 * The statistics: two views an item over the last month (reading k of bench item 1 + 11k mod items),
 * folded as the stats queue folds a batch of them, an item-day's row added to; the triggers fill the rest.
 */
function statsStatements({ items, members, now, lo, clo }) {
  const month = 30 * 86_400_000;
  const since = now - month;
  const day = (expr) => `strftime('%Y-%m-%d', (${expr}) / 1000, 'unixepoch')`;
  return chunks(items * 2, READING_CHUNK).map(
    ([from, to]) => `WITH RECURSIVE n(k) AS (SELECT ${from} UNION ALL SELECT k + 1 FROM n WHERE k < ${to})
     INSERT INTO stat_days (owner_id, content_id, item_kind, day, kind, reader_type, n, readers)
     SELECT ${lo} + (v.ck * 7919) % ${members}, ${clo} + v.ck - 1, CASE WHEN v.ck % 5 < 2 THEN 'video' ELSE 'document' END, v.day, 'view', 1, count(*), count(*)
     FROM (SELECT DISTINCT 1 + (k * 11) % ${items} AS ck, (k * 29) % ${members} AS reader, ${day(`${since} + (k * 1013) % ${month}`)} AS day FROM n) v
     GROUP BY v.ck, v.day
     ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers`,
  );
}

/**
 * Text shard `shard`: its documents' text, as the extraction job stores it (`pages` of the TEXT_PAGES
 * pages each, 500 words a page, joined by page breaks), and its captioned videos' cues, as an owner's
 * WebVTT file leaves them (an hour each: CAPTION_CUES cues of CUE_MS), through the tables' triggers
 * so each is indexed as a write does.
 */
function shardStatements({ shard, shards, now, clo, lastText, pages, videos }) {
  const statements = [];
  if (lastText) {
    const picks = Array.from({ length: pages }, (_, j) => `(k + ${j * 7}) % ${TEXT_PAGES}`).join(", ");
    statements.push(
      "CREATE TABLE bench_pages (i INTEGER PRIMARY KEY, w TEXT NOT NULL)",
      // One statement per page: D1 refuses a statement over 100 KB.
      ...Array.from({ length: TEXT_PAGES }, (_, p) => `INSERT INTO bench_pages VALUES (${p}, '${textPage(p)}')`),
    );
    for (let from = 6; from <= lastText; from += TEXT_CHUNK) {
      const to = Math.min(lastText, from + TEXT_CHUNK - 6);
      statements.push(`WITH RECURSIVE n(k) AS (SELECT ${from} UNION ALL SELECT k + 6 FROM n WHERE k + 6 <= ${to})
        INSERT INTO document_text (content_id, file_key, body, pages, page_count, extracted_at)
        SELECT ${clo} + k - 1, 'bench/' || k, (SELECT group_concat(w, char(12)) FROM bench_pages WHERE i IN (${picks})), ${pages}, ${pages}, ${now}
        FROM n WHERE k % 5 >= 2 AND ${shardSql("k", shards)} = ${shard} ORDER BY k`);
    }
    statements.push("DROP TABLE bench_pages");
  }
  const mine = videos.filter((v) => shardOf(v.k, shards) === shard);
  if (mine.length) {
    const langs = languages();
    const templates = langs.flatMap(({ base, templates }) => templates.map((body, t) => `(${base + t}, '${body.replaceAll("'", "''")}')`));
    const spec = Object.fromEntries(langs.map((l) => [l.lang, l]));
    statements.push(
      "CREATE TABLE bench_cues (i INTEGER PRIMARY KEY, body TEXT NOT NULL)",
      ...valueChunks(templates, 100, (rows) => `INSERT INTO bench_cues VALUES ${rows}`),
      "CREATE TABLE bench_cue_numbers (k INTEGER PRIMARY KEY)",
      `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CAPTION_CUES - 1}) INSERT INTO bench_cue_numbers SELECT k FROM n`,
      // This shard's captioned videos, in order (r), each with its number n and its language's templates.
      "CREATE TABLE bench_videos (r INTEGER PRIMARY KEY, n INTEGER, id INTEGER, lang TEXT, base INTEGER, size INTEGER)",
      ...valueChunks(
        mine.map((v, r) => `(${r}, ${v.n}, ${clo + v.k - 1}, '${v.lang}', ${spec[v.lang].base}, ${spec[v.lang].count})`),
        1000,
        (rows) => `INSERT INTO bench_videos VALUES ${rows}`,
      ),
      ...Array.from(
        { length: Math.ceil(mine.length / CAPTION_CHUNK) },
        (_, i) => `INSERT INTO caption_cues (caption_key, content_id, lang, start_ms, end_ms, body, written_at)
         SELECT 'bench-captions-' || v.id, v.id, v.lang, q.k * ${CUE_MS}, (q.k + 1) * ${CUE_MS}, (SELECT body FROM bench_cues WHERE i = v.base + (v.n * 7919 + q.k * 104729) % v.size), ${now}
         FROM bench_videos v CROSS JOIN bench_cue_numbers q WHERE v.r >= ${i * CAPTION_CHUNK} AND v.r < ${(i + 1) * CAPTION_CHUNK} ORDER BY v.r, q.k`,
      ),
      "DROP TABLE bench_cues",
      "DROP TABLE bench_cue_numbers",
      "DROP TABLE bench_videos",
    );
  }
  return statements;
}

/**
 * The demo members and items with their rows in every database, as `prepareLocalState` makes them
 * (their views not copied to the cards), the demo video in the last shard when fewer than its two are bound.
 */
async function demoRows(env, shards) {
  const { DB, FILES } = env;
  await DB.batch((await demoStatements()).map((sql) => DB.prepare(sql)));
  await DB.prepare("UPDATE content SET text_shard = ?1 WHERE text_shard > ?1").bind(shards).run();
  for (const [binding, statements] of Object.entries(demoShardStatements((await DB.prepare(DEMO_ITEMS_SQL).all()).results)))
    await env[binding].batch(statements.map((sql) => env[binding].prepare(sql)));
  for (const object of DEMO_CONTENT.flatMap((c) => [c.file, c.thumbnail]))
    await FILES.put(object.key, readFileSync(object.path), { httpMetadata: { contentType: object.type } });
}

/**
 * A fresh state folder for `config`'s databases (migrated, the demo rows), then the generated
 * catalogue: the core first, then the statistics and each text shard (TEXT_1..TEXT_n, however many
 * `config` binds), whose rows name the core's by number. Documents with text get `pages` pages of 500
 * words. Answers the seconds each database's rows took, by binding, and each database's size after
 * (D1's own `size_after`), in bytes.
 */
export async function loadCatalogue(
  stateDir,
  { items, members, texts = 0, captions = 0, pages = 10, config = "wrangler.toml", now = Date.now() },
) {
  rmSync(stateDir, { recursive: true, force: true });
  await prepareLocalState(stateDir, { demo: false, config });
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await withoutClassWarnings(() => getPlatformProxy({ configPath: config, persist: { path: join(stateDir, "v3") } }));
  const seconds = {};
  const sizes = {};
  try {
    const { env } = proxy;
    const bindings = databaseBindings(env);
    const shards = bindings.filter((binding) => binding.startsWith("TEXT_")).length;
    await demoRows(env, shards);
    const run = async (binding, statements) => {
      const started = performance.now();
      for (const sql of statements) await env[binding].prepare(sql).run();
      seconds[binding] = (performance.now() - started) / 1000;
    };
    const lastText = lastTextItem(items, texts);
    const videos = captionedVideos(items, captions);
    await run("DB", coreStatements({ items, members, now, shards, lastText, pages, videos }));
    const { lo, clo } = await env.DB.prepare("SELECT lo, clo FROM bench_range").first();
    await env.DB.prepare("DROP TABLE bench_range").run();
    await run("STATS_DB", statsStatements({ items, members, now, lo, clo }));
    for (let shard = 1; shard <= shards; shard++)
      await run(`TEXT_${shard}`, shardStatements({ shard, shards, now, clo, lastText, pages, videos }));
    for (const binding of bindings) sizes[binding] = (await env[binding].prepare("SELECT 1").run()).meta.size_after;
  } finally {
    await proxy.dispose();
  }
  return { seconds, sizes };
}

/**
 * Captions' share of a generated state's databases, from SQLite's own page counts (dbstat): D1
 * answers neither dbstat nor PRAGMA page_count, so each database file is read here once generated,
 * with Node's SQLite (Node 22). Cues: the captions' rows (core), the cues and their indexes (shards);
 * index: caption_fts's tables. Answers hours of captions and MB.
 */
export async function captionsSize(stateDir) {
  const { DatabaseSync } = await import("node:sqlite");
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const total = { hours: 0, cuesMB: 0, indexMB: 0 };
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite")) {
    const db = new DatabaseSync(join(dir, file), { readOnly: true });
    try {
      const objects = db
        .prepare(
          "SELECT name, tbl_name FROM sqlite_schema WHERE rootpage > 0 AND (tbl_name IN ('captions', 'caption_cues') OR tbl_name GLOB 'caption_fts_*')",
        )
        .all();
      // One object at a time, so dbstat walks that b-tree only.
      const bytes = (table) =>
        objects
          .filter((o) => table(o.tbl_name))
          .reduce((sum, o) => sum + Number(db.prepare("SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name = ?").get(o.name).b), 0);
      total.cuesMB += bytes((t) => !t.startsWith("caption_fts")) / 1e6;
      total.indexMB += bytes((t) => t.startsWith("caption_fts")) / 1e6;
      if (objects.some((o) => o.tbl_name === "captions"))
        total.hours += Number(
          db.prepare("SELECT coalesce(sum(duration_ms), 0) / 3600000.0 AS h FROM captions WHERE state = 'ready'").get().h,
        );
    } finally {
      db.close();
    }
  }
  return total;
}

/** Migrations, demo data, then the generated catalogue, into a fresh state folder; answers the seconds the catalogue's rows took. */
export async function generateCatalogue(stateDir, items = 100_000, members = 10_000, texts = 0, captions = 0, options = {}) {
  const { seconds } = await loadCatalogue(stateDir, { items, members, texts, captions, ...options });
  return Object.values(seconds).reduce((sum, s) => sum + s, 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [stateDir = ".wrangler/bench-catalogue", items = "100000", members = "10000", texts = "10000", captions = "10000"] =
    process.argv.slice(2);
  const seconds = await generateCatalogue(stateDir, Number(items), Number(members), Number(texts), Number(captions));
  console.log(
    `Generated ${items} items (${texts} with documents' text, ${captions} videos with an hour of captions) and ${members} members into ${stateDir} in ${seconds.toFixed(1)} s`,
  );
}
