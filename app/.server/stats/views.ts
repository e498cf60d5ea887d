import type { StatsView } from "~/lib/shapes";
import { bucketLabel, type StatSeries } from "~/lib/stats-periods";
import { chartOf } from "./chart";
import type { Overview } from "./stats";

/** What a page shows of an overview: totals, the period in the reader's language, and a chart per series. */
export function overviewView(overview: Overview, language: string): StatsView {
  const labels = overview.buckets.map((bucket) => bucketLabel(bucket, overview.per, language));
  return {
    range: overview.range,
    per: overview.per,
    zone: overview.zone,
    fromLabel: bucketLabel(overview.from, "day", language),
    toLabel: bucketLabel(overview.to, "day", language),
    totals: overview.totals,
    previous: overview.previous,
    charts: Object.entries(overview.series).map(([series, values]) => ({ series: series as StatSeries, chart: chartOf(labels, values) })),
  };
}
