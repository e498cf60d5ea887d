// `npm run bench:data [-- stateDir [items] [members] [texts] [captions]]`: fills a local D1 state folder
// with a generated catalogue for the search and ranking benchmarks — by default 100,000 documents and
// videos from 10,000 members, with follows, interests, likes, views and points over the last month,
// 10,000 documents with 5,000 words of their own text each, and 10,000 videos with one hour of
// captions each. The rows are made by SQL inside D1 (recursive CTEs), so the script itself stays
// small and fast.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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

@@CAPTIONS@@
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
    "DROP TABLE bench_words",
    "DROP TABLE bench_names",
    "DROP TABLE bench_family",
    "DROP TABLE bench_range",
  ];
}

/** Migrations, demo data, then the generated catalogue, into a fresh state folder. */
export async function generateCatalogue(stateDir, items = 100_000, members = 10_000, texts = 0) {
  return seedState(stateDir, "catalogue", catalogueSql(items, members, Date.now(), texts));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [stateDir = ".wrangler/bench-catalogue", items = "100000", members = "10000", texts = "10000"] = process.argv.slice(2);
  const seconds = await generateCatalogue(stateDir, Number(items), Number(members), Number(texts));
  console.log(
    `Generated ${items} items (${texts} with documents' text) and ${members} members into ${stateDir} in ${seconds.toFixed(1)} s`,
  );
}
