// `npm run bench:data [-- stateDir [items] [members] [texts] [captions]]`: fills a local D1 state folder
// with a generated catalogue for the search and ranking benchmarks — by default 100,000 documents and
// videos from 10,000 members, with follows, interests, likes, views and points over the last month,
// 10,000 documents with 5,000 words of their own text each, and 10,000 videos with one hour of
// captions each. The rows are made by SQL inside D1 (recursive CTEs), so the script itself stays
// small and fast.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { indexForm } from "../app/lib/caption-words.ts";
import { seedState } from "./lib.mjs";

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

/**
 * Documents' own text, as the extraction job stores it: `texts` documents spread over the catalogue
 * get ten of the TEXT_PAGES pages each (5,000 words, about 45,000 characters), joined by page breaks.
 */
function documentTextSql(texts, now) {
  if (!texts) return [];
  // One statement per page: D1 refuses a statement over 100 KB.
  const pages = Array.from({ length: TEXT_PAGES }, (_, p) => `INSERT OR IGNORE INTO bench_pages VALUES (${p}, '${textPage(p)}')`);
  const picks = Array.from({ length: 10 }, (_, k) => `(c.id + ${k * 7}) % ${TEXT_PAGES}`).join(", ");
  return [
    "CREATE TABLE IF NOT EXISTS bench_pages (i INTEGER PRIMARY KEY, w TEXT NOT NULL)",
    ...pages,
    `INSERT INTO document_text (content_id, body, pages, page_count, extracted_at)
     SELECT c.id, (SELECT group_concat(w, char(12)) FROM bench_pages WHERE i IN (${picks})), 10, 10, ${now}
     FROM content c WHERE c.kind = 'document' AND c.file_key LIKE 'bench/%' AND c.id % 6 = 0 LIMIT ${texts}`,
    "UPDATE content SET text_state = 'done' WHERE id IN (SELECT content_id FROM document_text)",
    "DROP TABLE bench_pages",
  ];
}

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
/** Videos whose cues one statement inserts: 450,000 rows, each indexed by the triggers, about 5 s. */
const CAPTION_CHUNK = 500;

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

/**
 * Videos' captions, as an owner's WebVTT file leaves them: `videos` of the catalogue's videos,
 * spread over it, get one hour each (CAPTION_CUES cues of CUE_MS), in English, Japanese (every third)
 * or Chinese (every fifth). A cue's text is one of its language's templates, picked by video and cue
 * number; the cues go in through caption_cues, so its triggers index each one as a write does.
 */
export function captionsSql(videos, now) {
  if (!videos) return [];
  let base = 0;
  const langs = CAPTION_LANGS.map((spec, l) => {
    const templates = Array.from({ length: spec.count }, (_, t) => cueTemplate(spec, (l + 1) * 1_000_000, t));
    const at = base;
    base += spec.count;
    return { ...spec, base: at, templates };
  });
  const rows = langs.flatMap(({ base, templates }) => templates.map((body, t) => `(${base + t}, '${body.replaceAll("'", "''")}')`));
  // A hundred templates a statement: D1 refuses a statement over 100 KB.
  const templates = Array.from(
    { length: Math.ceil(rows.length / 100) },
    (_, i) => `INSERT INTO bench_cues VALUES ${rows.slice(i * 100, i * 100 + 100).join(", ")}`,
  );
  const video = "kind = 'video' AND file_key LIKE 'bench/%'";
  const byLang = (column) => `CASE lang ${langs.map((l) => `WHEN '${l.lang}' THEN ${l[column]}`).join(" ")} END`;
  const cues = Array.from(
    { length: Math.ceil(videos / CAPTION_CHUNK) },
    (_, i) => `INSERT INTO caption_cues (caption_id, start_ms, end_ms, body)
     SELECT v.caption_id, q.k * ${CUE_MS}, (q.k + 1) * ${CUE_MS}, (SELECT body FROM bench_cues WHERE i = v.base + (v.n * 7919 + q.k * 104729) % v.size)
     FROM bench_videos v CROSS JOIN bench_cue_numbers q WHERE v.n > ${i * CAPTION_CHUNK} AND v.n <= ${(i + 1) * CAPTION_CHUNK} ORDER BY v.n, q.k`,
  );
  return [
    "CREATE TABLE IF NOT EXISTS bench_cues (i INTEGER PRIMARY KEY, body TEXT NOT NULL)",
    ...templates,
    "CREATE TABLE IF NOT EXISTS bench_cue_numbers (k INTEGER PRIMARY KEY)",
    `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${CAPTION_CUES - 1})
     INSERT OR IGNORE INTO bench_cue_numbers SELECT k FROM n`,
    // The captioned videos, numbered 1.. in the catalogue's order: every (videos ÷ captioned)th one.
    "CREATE TABLE IF NOT EXISTS bench_videos (n INTEGER PRIMARY KEY, id INTEGER NOT NULL, lang TEXT, base INTEGER, size INTEGER, caption_id INTEGER)",
    "DELETE FROM bench_videos",
    `INSERT INTO bench_videos (id)
     SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS r FROM content WHERE ${video})
     WHERE r % max(1, (SELECT count(*) FROM content WHERE ${video}) / ${videos}) = 0 ORDER BY id LIMIT ${videos}`,
    "UPDATE bench_videos SET lang = CASE WHEN n % 5 = 0 THEN 'zh' WHEN n % 3 = 0 THEN 'ja' ELSE 'en' END",
    `UPDATE bench_videos SET base = ${byLang("base")}, size = ${byLang("count")}`,
    `INSERT INTO captions (content_id, lang, source, cue_count, duration_ms, write_key, updated_at)
     SELECT id, lang, 'owner', ${CAPTION_CUES}, ${CAPTION_CUES * CUE_MS}, 'bench-captions-' || id, ${now} FROM bench_videos ORDER BY n`,
    "UPDATE bench_videos SET caption_id = (SELECT id FROM captions WHERE content_id = bench_videos.id)",
    ...cues,
    "DROP TABLE bench_cues",
    "DROP TABLE bench_cue_numbers",
    "DROP TABLE bench_videos",
  ];
}

/**
 * Captions' share of a generated state's D1 database, from SQLite's own page counts (dbstat): D1
 * answers neither dbstat nor PRAGMA page_count, so the database file is read here once generated,
 * with Node's SQLite (Node 22). Cues: the captions rows, the cues and the cues' index by caption;
 * index: caption_fts's tables. Answers hours of captions and MB.
 */
export async function captionsSize(stateDir) {
  const { DatabaseSync } = await import("node:sqlite");
  const dir = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
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
    return {
      hours: Number(db.prepare("SELECT coalesce(sum(duration_ms), 0) / 3600000.0 AS h FROM captions").get().h),
      cuesMB: bytes((t) => !t.startsWith("caption_fts")) / 1e6,
      indexMB: bytes((t) => t.startsWith("caption_fts")) / 1e6,
    };
  } finally {
    db.close();
  }
}

/** The statements that generate the catalogue (the demo members and items stay as they are). */
export function catalogueSql(items, members, now = Date.now(), texts = 0, captions = 0) {
  const month = 30 * 86_400_000;
  const since = now - month;
  const day = (expr) => `strftime('%Y-%m-%d', (${expr}) / 1000, 'unixepoch')`;
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
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${items})
     INSERT INTO content (owner_id, kind, sdg, title, summary, content, keywords, publicize, file_key, file_size, file_type, thumbnail_key, thumbnail_type, views, likes, created_at, updated_at)
     SELECT (SELECT lo FROM bench_range) + (k * 7919) % ${members},
       CASE WHEN k % 5 < 2 THEN 'video' ELSE 'document' END, 1 + k % 17,
       ${word("k * 3")} || ' ' || ${word("k * 7 + 1")} || ' study ' || k,
       ${word("k * 11 + 2")} || ' and ' || ${word("k * 13 + 3")} || ' in practice',
       ${word("k * 17 + 4")} || ' ' || ${word("k * 19 + 5")} || ' ' || ${word("k * 23 + 6")} || ' ' || ${word("k * 29 + 7")} || ' ' || ${word("k * 31 + 8")} || ' field notes number ' || k,
       ${word("k * 37 + 9")} || ', ' || ${word("k * 41 + 10")},
       CASE WHEN k % 10 = 0 THEN 0 ELSE 1 END, 'bench/' || k, 1000, 'application/pdf', 'bench/' || k || '/t', 'image/png',
       (k * 31) % 500, (k * 17) % 50, ${since} + (k * 25919) % ${month}, ${since} + (k * 25919) % ${month}
     FROM n`,
    "UPDATE bench_range SET clo = (SELECT min(id) FROM content WHERE file_key LIKE 'bench/%')",
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${members * 3})
     INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at)
     SELECT (SELECT lo FROM bench_range) + k % ${members}, (SELECT lo FROM bench_range) + (k * 7 + 1 + k / ${members}) % ${members}, ${since} + (k * 997) % ${month}
     FROM n WHERE k % ${members} <> (k * 7 + 1 + k / ${members}) % ${members}`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${items})
     INSERT OR IGNORE INTO likes (user_id, content_id, created_at)
     SELECT (SELECT lo FROM bench_range) + (k * 13) % ${members}, (SELECT clo FROM bench_range) + (k * 7) % ${items}, ${since} + (k * 1009) % ${month}
     FROM n`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${items * 2})
     INSERT INTO stat_days (owner_id, content_id, day, kind, reader_type, n, readers)
     SELECT c.owner_id, c.id, v.day, 'view', 1, count(*), count(*) FROM (
       SELECT DISTINCT (SELECT clo FROM bench_range) + (k * 11) % ${items} AS content_id, (SELECT lo FROM bench_range) + (k * 29) % ${members} AS user_id,
         ${day(`${since} + (k * 1013) % ${month}`)} AS day FROM n
     ) v JOIN content c ON c.id = v.content_id GROUP BY c.id, v.day
     ON CONFLICT DO UPDATE SET n = n + excluded.n, readers = readers + excluded.readers`,
    // Two interests each (goals), so the recommended list has both of its reasons to weigh.
    `WITH RECURSIVE n(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM n WHERE k < ${members - 1})
     INSERT OR IGNORE INTO interests (user_id, sdg, created_at)
     SELECT (SELECT lo FROM bench_range) + k, 1 + k % 17, ${since} FROM n
     UNION ALL SELECT (SELECT lo FROM bench_range) + k, 1 + (k * 7 + 3) % 17, ${since} FROM n`,
    `WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < ${members * 2})
     INSERT INTO points (user_id, reason, amount, day, created_at)
     SELECT (SELECT lo FROM bench_range) + k % ${members}, 'comment', 1, ${day(`${since} + (k * 1019) % ${month}`)}, ${since} + (k * 1019) % ${month}
     FROM n`,
    ...documentTextSql(texts, now),
    ...captionsSql(captions, now),
    "DROP TABLE bench_words",
    "DROP TABLE bench_names",
    "DROP TABLE bench_family",
    "DROP TABLE bench_range",
  ];
}

/** Migrations, demo data, then the generated catalogue, into a fresh state folder. */
export async function generateCatalogue(stateDir, items = 100_000, members = 10_000, texts = 0, captions = 0) {
  return seedState(stateDir, "catalogue", catalogueSql(items, members, Date.now(), texts, captions));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [stateDir = ".wrangler/bench-catalogue", items = "100000", members = "10000", texts = "10000", captions = "10000"] =
    process.argv.slice(2);
  const seconds = await generateCatalogue(stateDir, Number(items), Number(members), Number(texts), Number(captions));
  console.log(
    `Generated ${items} items (${texts} with documents' text, ${captions} videos with an hour of captions) and ${members} members into ${stateDir} in ${seconds.toFixed(1)} s`,
  );
}
