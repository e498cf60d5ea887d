import { env } from "~/.server/bindings";
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
// folded rows, likes, comments and followers from their own rows, all on the member's days.

type Counts = Partial<Record<StatSeries, number>>;

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

const READING_SERIES: Record<string, StatSeries> = { view: "views", download: "downloads", export: "exports" };

interface Owner {
  zone: string;
  /** The member's first day (the start of "all time"). */
  since: string;
}

/** The member's time zone (UTC until they choose one). */
export async function memberZone(userId: number): Promise<string> {
  return (await env.DB.prepare("SELECT time_zone FROM users WHERE id = ?").bind(userId).first<string>("time_zone")) ?? "UTC";
}

/** The member's zone and first day, read once before the statistics (their SQL depends on the zone). */
async function ownerOf(userId: number, now: number): Promise<Owner> {
  const row = await env.DB.prepare("SELECT time_zone, created_at FROM users WHERE id = ?")
    .bind(userId)
    .first<{ time_zone: string; created_at: number }>();
  const zone = row?.time_zone ?? "UTC";
  return { zone, since: localDay(row?.created_at ?? now, zone) };
}

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
  query: StatsQuery,
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

/** The item table's counts over the period (readings from days or months, likes and comments by time). */
function itemCounts(ownerId: number, period: Period, query: StatsQuery, zone: string) {
  const db = env.DB;
  const { end } = instants(period, zone);
  const start = zonedToUtc(`${period.from}T00:00`, zone) ?? 0;
  // 12 months and all time start on a month's first day (or the member's first): months hold them.
  const [table, column, from, to] =
    query.range === "30d"
      ? ["stat_days", "day", period.from, period.to]
      : ["stat_months", "month", period.from.slice(0, 7), period.to.slice(0, 7)];
  const received = (table: string) =>
    `SELECT x.content_id AS id, count(*) AS n FROM content c JOIN ${table} x ON x.content_id = c.id
       WHERE c.owner_id = ?1 AND x.user_id <> ?1 AND x.created_at >= ?2 AND x.created_at < ?3 GROUP BY x.content_id`;
  return [
    db.prepare("SELECT id, title, kind FROM content WHERE owner_id = ?").bind(ownerId),
    db
      .prepare(
        `SELECT content_id AS id, kind, sum(n) AS n FROM ${table} WHERE owner_id = ? AND ${column} BETWEEN ? AND ? GROUP BY content_id, kind`,
      )
      .bind(ownerId, from, to),
    db.prepare(received("likes")).bind(ownerId, start, end),
    db.prepare(received("comments")).bind(ownerId, start, end),
  ];
}

function itemRowsOf([items, readings, likes, comments]: D1Result[]): ItemRow[] {
  const rows = new Map<number, ItemRow>();
  for (const row of rowsOf(items)) {
    const counts = Object.fromEntries(ITEM_SERIES.map((name) => [name, 0])) as ItemRow["counts"];
    rows.set(Number(row.id), { id: Number(row.id), title: String(row.title), kind: row.kind as ItemRow["kind"], counts });
  }
  const add = (result: D1Result | undefined, name: (row: Record<string, unknown>) => StatSeries | undefined) => {
    for (const row of rowsOf(result)) {
      const item = rows.get(Number(row.id));
      const series = name(row);
      if (item && series && series !== "followers") item.counts[series] += Number(row.n);
    }
  };
  add(readings, (row) => READING_SERIES[String(row.kind)]);
  add(likes, () => "likes");
  add(comments, () => "comments");
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
  const db = env.DB;
  const social = socialByDay(userId, owner.zone, start, end, null);
  const items = itemCounts(userId, period, query, owner.zone);
  const days = db
    .prepare("SELECT day, kind, n FROM stat_owner_days WHERE owner_id = ? AND day BETWEEN ? AND ?")
    .bind(userId, period.previousFrom ?? period.from, period.to);
  const results = await db.batch([days, ...social, ...items]);
  const readings = rowsOf(results[0]).map((row) => ({
    day: String(row.day),
    series: READING_SERIES[String(row.kind)] as StatSeries,
    n: Number(row.n),
  }));
  const socials = socialRows(results.slice(1, 4), ["likes", "comments", "followers"]);
  return {
    overview: overviewOf([...readings, ...socials], STAT_SERIES, query, owner.zone, period),
    items: sortItems(itemRowsOf(results.slice(4)), query.sort),
  };
}

export interface ItemStats {
  overview: Overview;
  readers: ReaderSplit;
}

/** One item's statistics, for its owner (the caller has checked that `ownerId` owns it). */
export async function itemStats(itemId: number, ownerId: number, query: StatsQuery, now: number): Promise<ItemStats> {
  const owner = await ownerOf(ownerId, now);
  const period = periodOf(query.range, localDay(now, owner.zone), owner.since);
  const { start, end } = instants(period, owner.zone);
  const db = env.DB;
  const days = db
    .prepare(
      "SELECT day, kind, reader_type, sum(n) AS n, sum(readers) AS readers FROM stat_days WHERE owner_id = ? AND content_id = ? AND day BETWEEN ? AND ? GROUP BY day, kind, reader_type",
    )
    .bind(ownerId, itemId, period.previousFrom ?? period.from, period.to);
  const results = await db.batch([days, ...socialByDay(ownerId, owner.zone, start, end, itemId)]);
  const readers: ReaderSplit = { researchers: 0, supporters: 0 };
  const readings = rowsOf(results[0]).map((row) => {
    if (row.kind === "view" && String(row.day) >= period.from)
      readers[row.reader_type === 2 ? "supporters" : "researchers"] += Number(row.readers);
    return { day: String(row.day), series: READING_SERIES[String(row.kind)] as StatSeries, n: Number(row.n) };
  });
  return {
    overview: overviewOf([...readings, ...socialRows(results.slice(1), ["likes", "comments"])], ITEM_SERIES, query, owner.zone, period),
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
