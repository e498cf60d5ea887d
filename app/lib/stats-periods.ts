// The periods statistics are shown over (docs/decisions/0039-statistics.md): days are "YYYY-MM-DD"
// on the member's clocks, and these are plain date sums on them.

export const STAT_RANGES = ["30d", "12m", "all"] as const;
export type StatRange = (typeof STAT_RANGES)[number];
export const STAT_STEPS = ["day", "week", "month"] as const;
export type StatStep = (typeof STAT_STEPS)[number];
/** What is counted, in the order pages show it; followers are a member's, the rest an item's. */
export const STAT_SERIES = ["views", "downloads", "exports", "likes", "comments", "followers"] as const;
export type StatSeries = (typeof STAT_SERIES)[number];
export const ITEM_SERIES = STAT_SERIES.filter((series) => series !== "followers");
/** The item table's columns it sorts by (title alphabetically, the rest most first). */
export const STAT_SORTS = ["title", ...ITEM_SERIES] as const;
export type StatSort = (typeof STAT_SORTS)[number];
/** Items per page of the item table (the CSV has all). */
export const STAT_ITEMS_PAGE = 50;

const DEFAULT_STEP: Record<StatRange, StatStep> = { "30d": "day", "12m": "month", all: "month" };

/** What a statistics page or call asks (read by app/.server/stats/query.ts: zod stays out of the browser). */
export interface StatsQuery {
  range: StatRange;
  per?: StatStep;
  sort: StatSort;
  page: number;
}

/** The query's step: the member's, or the range's own (days over 30 days, months over longer). */
export const stepOf = (query: Pick<StatsQuery, "range" | "per">): StatStep => query.per ?? DEFAULT_STEP[query.range];

const DAY = 86_400_000;
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => dayOf(utc(day) + days * DAY);
const addMonths = (day: string, months: number) => {
  const date = new Date(utc(day));
  return dayOf(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
};

/** The first day of the bucket holding `day`: itself, its week's Monday, or its month's first. */
export function bucketOf(day: string, step: StatStep): string {
  if (step === "day") return day;
  if (step === "month") return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(utc(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

export interface Period {
  from: string;
  to: string;
  /** The same length just before, for the change shown beside each total; null over all time. */
  previousFrom: string | null;
}

/** The range ending `today`: 30 days, this month and the 11 before, or since `since` (the member's first day). */
export function periodOf(range: StatRange, today: string, since: string): Period {
  if (range === "30d") return { from: addDays(today, -29), to: today, previousFrom: addDays(today, -59) };
  if (range === "12m") return { from: addMonths(today, -11), to: today, previousFrom: addMonths(today, -23) };
  return { from: since < today ? since : today, to: today, previousFrom: null };
}

/** Every bucket's first day from `from` to `to`. */
export function bucketsOf(from: string, to: string, step: StatStep): string[] {
  const buckets: string[] = [];
  let day = bucketOf(from, step);
  while (day <= to) {
    buckets.push(day);
    day = step === "day" ? addDays(day, 1) : step === "week" ? addDays(day, 7) : addMonths(day, 1);
  }
  return buckets;
}

/** A bucket's label in `language`: "Nov 26" for a day or week, "Nov 2026" for a month. */
export function bucketLabel(day: string, step: StatStep, language: string): string {
  const options: Intl.DateTimeFormatOptions =
    step === "month" ? { year: "numeric", month: "short", timeZone: "UTC" } : { month: "short", day: "numeric", timeZone: "UTC" };
  return new Intl.DateTimeFormat(language, options).format(utc(day));
}
