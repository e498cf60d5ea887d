import { env } from "~/.server/bindings";
import { statsDb } from "~/.server/databases";
import {
  addDays,
  bucketOf,
  bucketsOf,
  ITEM_SERIES,
  type Period,
  periodOf,
  STAT_SERIES,
  type StatSeries,
  type StatStep,
  type StatsQuery,
  stepOf,
} from "~/lib/stats-periods";
import { localDay, zonedToUtc } from "~/lib/time-zone";
import { localDaySql } from "./zone-days";

// What members read of their statistics (docs/decisions/0039-statistics.md): readings from the
// folded rows, likes, comments and followers from their own rows, all on the member's days. The
// folded rows are the statistics database's (decision 0045): a page asks it and the core at once.

type Counts = Partial<Record<StatSeries, number>>;
/** What chooses a period and its buckets. */
type PeriodQuery = Pick<StatsQuery, "range" | "per">;

export interface Overview {
  range: StatsQuery["range"];
  per: StatStep;
  /** The days are this zone's. */
  zone: string;
  from: string;
  to: string;
  /** Each bucket's first day. */
  buckets: string[];
  /** Per series, a count per bucket. */
  series: Partial<Record<StatSeries, number[]>>;
  totals: Counts;
  /** The same length just before; null over all time. */
  previous: Counts | null;
}

export interface ItemRow {
  id: number;
  title: string;
  kind: "document" | "video";
  counts: Record<(typeof ITEM_SERIES)[number], number>;
}

/** Readers by account type over the period: each member counted once a day. */
export interface ReaderSplit {
  researchers: number;
  supporters: number;
}

const READING_SERIES: Record<string, "views" | "downloads" | "exports"> = { view: "views", download: "downloads", export: "exports" };

interface Owner {
  zone: string;
  /** The member's first day (the start of "all time"). */
  since: string;
}

/** The member's zone and first day, read once before the statistics (their SQL depends on the zone). */
async function ownerOf(userId: number, now: number): Promise<Owner> {
  const row = await env.DB.prepare("SELECT time_zone, created_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ time_zone: string; created_at: number }>();
  const zone = row?.time_zone ?? "UTC";
  return { zone, since: localDay(row?.created_at ?? now, zone) };
}

/** The member's time zone (UTC until they choose one). */
export const memberZone = async (userId: number) => (await ownerOf(userId, Date.now())).zone;

/** Milliseconds of the period's first moment (the earlier period's, when there is one) and of its end. */
function instants(period: Period, zone: string) {
  const start = zonedToUtc(`${period.previousFrom ?? period.from}T00:00`, zone) ?? 0;
  const end = zonedToUtc(`${addDays(period.to, 1)}T00:00`, zone) ?? Date.now();
  return { start, end };
}

/** Folds (day, series, n) rows into buckets, totals and the earlier period's totals. */
function overviewOf(
  rows: { day: string; series: StatSeries; n: number }[],
  shown: readonly StatSeries[],
  query: PeriodQuery,
  zone: string,
  period: Period,
): Overview {
  const per = stepOf(query);
  const buckets = bucketsOf(period.from, period.to, per);
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const series = Object.fromEntries(shown.map((name) => [name, buckets.map(() => 0)])) as Record<StatSeries, number[]>;
  const totals = Object.fromEntries(shown.map((name) => [name, 0])) as Record<StatSeries, number>;
  const previous = period.previousFrom ? (Object.fromEntries(shown.map((name) => [name, 0])) as Record<StatSeries, number>) : null;
  for (const { day, series: name, n } of rows) {
    if (!(name in totals) || day > period.to) continue;
    if (day >= period.from) {
      totals[name] += n;
      const counts = series[name];
      const at = index.get(bucketOf(day, per));
      if (counts && at !== undefined) counts[at] = (counts[at] ?? 0) + n;
    } else if (previous && period.previousFrom && day >= period.previousFrom) previous[name] += n;
  }
  return { range: query.range, per, zone, from: period.from, to: period.to, buckets, series, totals, previous };
}

const rowsOf = (result: D1Result | undefined) => (result?.results ?? []) as Record<string, unknown>[];

/** Statements for likes and comments received (on `items`, a SQL condition on c) by day, and the member's new followers. */
function socialByDay(ownerId: number, zone: string, start: number, end: number, item: number | null) {
  const db = env.DB;
  const day = (column: string) => localDaySql(column, zone, start, end);
  // An item's own (its id is a number), or all of the member's.
  const items = item === null ? "c.owner_id = ?1" : `c.id = ${Number(item)} AND c.owner_id = ?1`;
  const on = (table: string, alias: string) =>
    `SELECT ${day(`${alias}.created_at`)} AS day, count(*) AS n FROM content c JOIN ${table} ${alias} ON ${alias}.content_id = c.id
       WHERE ${items} AND ${alias}.user_id <> ?1 AND ${alias}.created_at >= ?2 AND ${alias}.created_at < ?3 GROUP BY day`;
  return [
    db.prepare(on("likes", "l")).bind(ownerId, start, end),
    db.prepare(on("comments", "m")).bind(ownerId, start, end),
    item === null
      ? db
          .prepare(
            `SELECT ${day("created_at")} AS day, count(*) AS n FROM follows WHERE followee_id = ? AND created_at >= ? AND created_at < ? GROUP BY day`,
          )
          .bind(ownerId, start, end)
      : null,
  ].filter((statement) => statement !== null);
}

const socialRows = (results: D1Result[], names: StatSeries[]) =>
  names.flatMap((series, i) => rowsOf(results[i]).map((row) => ({ day: String(row.day), series, n: Number(row.n) })));

/**
 * The item table's counts over the period: the member's items, likes and comments by time from the
 * core, readings from days or months from the statistics database.
 */
function itemCounts(ownerId: number, period: Period, zone: string) {
  const db = env.DB;
  const stats = statsDb();
  const { end } = instants(period, zone);
  const start = zonedToUtc(`${period.from}T00:00`, zone) ?? 0;
  // Whole months from each item's months, the days before the first whole month from its days: 12
  // months and all time are whole months (a member's first month has nothing before their first
  // day), 30 days are this month so far and the days before it. A month's rows hold no day after today.
  const firstWhole = period.from.endsWith("-01") ? period.from : `${addDays(`${period.from.slice(0, 7)}-01`, 40).slice(0, 7)}-01`;
  const [dayFrom, dayTo] = period.from < firstWhole ? [period.from, addDays(firstWhole, -1)] : ["9", "0"];
  // One month is read through its index, more in key order (grouped as they are read).
  const months = firstWhole.slice(0, 7) >= period.to.slice(0, 7) ? "INDEXED BY stat_months_recent" : "NOT INDEXED";
  const byKind = Object.entries(READING_SERIES)
    .map(([kind, series]) => `sum(CASE kind WHEN '${kind}' THEN n ELSE 0 END) AS ${series}`)
    .join(", ");
  const days = `SELECT content_id AS id, ${byKind} FROM stat_days INDEXED BY stat_days_recent WHERE owner_id = ? AND day BETWEEN ? AND ? GROUP BY content_id`;
  const wholeMonths = `SELECT content_id AS id, ${byKind} FROM stat_months ${months} WHERE owner_id = ? AND month BETWEEN ? AND ? GROUP BY content_id`;
  const received = (table: string) =>
    `SELECT x.content_id AS id, count(*) AS n FROM content c JOIN ${table} x ON x.content_id = c.id
       WHERE c.owner_id = ?1 AND x.user_id <> ?1 AND x.created_at >= ?2 AND x.created_at < ?3 GROUP BY x.content_id`;
  return {
    core: [
      db.prepare("SELECT id, title, kind FROM content WHERE owner_id = ?").bind(ownerId),
      db.prepare(received("likes")).bind(ownerId, start, end),
      db.prepare(received("comments")).bind(ownerId, start, end),
    ],
    stats: [
      stats.prepare(days).bind(ownerId, dayFrom, dayTo),
      stats.prepare(wholeMonths).bind(ownerId, firstWhole.slice(0, 7), period.to.slice(0, 7)),
    ],
  };
}

/** The item table from itemCounts' results: the core's items, with their readings (a deleted item's rows are not shown). */
function itemRowsOf([items, likes, comments]: D1Result[], [days, months]: D1Result[]): ItemRow[] {
  const rows = new Map<number, ItemRow>();
  for (const row of rowsOf(items)) {
    const counts = Object.fromEntries(ITEM_SERIES.map((name) => [name, 0])) as ItemRow["counts"];
    rows.set(Number(row.id), { id: Number(row.id), title: String(row.title), kind: row.kind as ItemRow["kind"], counts });
  }
  for (const row of [...rowsOf(days), ...rowsOf(months)]) {
    const item = rows.get(Number(row.id));
    if (item) for (const series of Object.values(READING_SERIES)) item.counts[series] += Number(row[series]);
  }
  for (const [result, series] of [
    [likes, "likes"],
    [comments, "comments"],
  ] as const) {
    for (const row of rowsOf(result)) {
      const item = rows.get(Number(row.id));
      if (item) item.counts[series] += Number(row.n);
    }
  }
  return [...rows.values()];
}

/** Sorted as asked (title A to Z, else most first, then title). */
export function sortItems(rows: ItemRow[], sort: StatsQuery["sort"]): ItemRow[] {
  const byTitle = (a: ItemRow, b: ItemRow) => a.title.localeCompare(b.title) || a.id - b.id;
  return [...rows].sort(sort === "title" ? byTitle : (a, b) => b.counts[sort] - a.counts[sort] || byTitle(a, b));
}

export interface MemberStats {
  overview: Overview;
  /** Every item of the member, sorted as asked (pages show one page of them, the CSV all). */
  items: ItemRow[];
}

/** A member's own statistics over the query's period. */
export async function memberStats(userId: number, query: StatsQuery, now: number): Promise<MemberStats> {
  const owner = await ownerOf(userId, now);
  const period = periodOf(query.range, localDay(now, owner.zone), owner.since);
  const { start, end } = instants(period, owner.zone);
  const stats = statsDb();
  const social = socialByDay(userId, owner.zone, start, end, null);
  const items = itemCounts(userId, period, owner.zone);
  const days = stats
    .prepare("SELECT day, kind, n FROM stat_owner_days WHERE owner_id = ? AND day BETWEEN ? AND ?")
    .bind(userId, period.previousFrom ?? period.from, period.to);
  const [core, counted] = await Promise.all([env.DB.batch([...social, ...items.core]), stats.batch([days, ...items.stats])]);
  const readings = rowsOf(counted[0]).map((row) => ({
    day: String(row.day),
    series: READING_SERIES[String(row.kind)] as StatSeries,
    n: Number(row.n),
  }));
  const socials = socialRows(core.slice(0, 3), ["likes", "comments", "followers"]);
  return {
    overview: overviewOf([...readings, ...socials], STAT_SERIES, query, owner.zone, period),
    items: sortItems(itemRowsOf(core.slice(3), counted.slice(1)), query.sort),
  };
}

export interface ItemStats {
  overview: Overview;
  readers: ReaderSplit;
}

/** One item's statistics, for its owner (the caller has checked that `ownerId` owns it). */
export async function itemStats(itemId: number, ownerId: number, query: PeriodQuery, now: number): Promise<ItemStats> {
  const owner = await ownerOf(ownerId, now);
  const period = periodOf(query.range, localDay(now, owner.zone), owner.since);
  const { start, end } = instants(period, owner.zone);
  const days = statsDb()
    .prepare(
      "SELECT day, kind, reader_type, sum(n) AS n, sum(readers) AS readers FROM stat_days WHERE owner_id = ? AND content_id = ? AND day BETWEEN ? AND ? GROUP BY day, kind, reader_type",
    )
    .bind(ownerId, itemId, period.previousFrom ?? period.from, period.to);
  const [counted, social] = await Promise.all([days.all(), env.DB.batch(socialByDay(ownerId, owner.zone, start, end, itemId))]);
  const readers: ReaderSplit = { researchers: 0, supporters: 0 };
  const readings = rowsOf(counted).map((row) => {
    if (row.kind === "view" && String(row.day) >= period.from)
      readers[row.reader_type === 2 ? "supporters" : "researchers"] += Number(row.readers);
    return { day: String(row.day), series: READING_SERIES[String(row.kind)] as StatSeries, n: Number(row.n) };
  });
  return {
    overview: overviewOf([...readings, ...socialRows(social, ["likes", "comments"])], ITEM_SERIES, query, owner.zone, period),
    readers,
  };
}

export interface ScorePoint {
  as_of: number;
  score: number;
  rank: number;
}

/** The member's score and rank at each published recomputation, oldest first. */
export async function scoreHistory(userId: number): Promise<ScorePoint[]> {
  const { results } = await env.DB.prepare("SELECT as_of, score, rank FROM score_history WHERE user_id = ? ORDER BY as_of")
    .bind(userId)
    .all<ScorePoint>();
  return results;
}
