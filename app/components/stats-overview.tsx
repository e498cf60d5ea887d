import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import type { StatsView } from "~/lib/shapes";
import { STAT_RANGES, STAT_STEPS } from "~/lib/stats-periods";
import { StatChart } from "./stat-chart";

/** A link to this page with some of its query changed (the range, the step), kept at `anchor`. */
export function useQueryLink() {
  const location = useLocation();
  return (changes: Record<string, string | null>, anchor = "") => {
    const query = new URLSearchParams(location.search);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) query.delete(name);
      else query.set(name, value);
    }
    return `${location.pathname}?${query}${anchor}`;
  };
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0");

/**
 * A period's statistics: its range and step as links (no script needed), each total with its
 * change against the period before, and a chart per series.
 */
export function StatsOverview({ view, anchor = "", idPrefix }: { view: StatsView; anchor?: string; idPrefix: string }) {
  const { t } = useTranslation();
  const linkTo = useQueryLink();
  const choice = (active: boolean) =>
    active ? "rounded bg-brand px-2 py-0.5 text-white" : "rounded px-2 py-0.5 text-brand underline underline-offset-2";
  return (
    <div className="flex flex-col gap-3">
      <nav className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" aria-label={t("stats.periodChoice")}>
        <span className="flex gap-1">
          {STAT_RANGES.map((range) => (
            <Link
              key={range}
              to={linkTo({ range, per: null, page: null }, anchor)}
              className={choice(view.range === range)}
              aria-current={view.range === range ? "page" : undefined}
            >
              {t(`stats.range.${range}`)}
            </Link>
          ))}
        </span>
        <span className="flex gap-1">
          {STAT_STEPS.map((per) => (
            <Link
              key={per}
              to={linkTo({ per, page: null }, anchor)}
              className={choice(view.per === per)}
              aria-current={view.per === per ? "page" : undefined}
            >
              {t(`stats.per.${per}`)}
            </Link>
          ))}
        </span>
      </nav>
      <p className="text-xs text-slate-600">
        {t("stats.period", { from: view.fromLabel, to: view.toLabel })} · {t("stats.zone", { zone: view.zone })} · {t("stats.late")}
      </p>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3" data-testid="stat-totals">
        {view.charts.map(({ series }) => (
          <div key={series} className="rounded-lg border border-slate-200 bg-white p-3" data-total={series}>
            <dt className="text-sm text-slate-600">{t(`stats.series.${series}`)}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{view.totals[series] ?? 0}</dd>
            {view.previous ? (
              <dd className="text-xs text-slate-600">
                {t("stats.change", {
                  change: signed((view.totals[series] ?? 0) - (view.previous[series] ?? 0)),
                  before: view.previous[series] ?? 0,
                })}
              </dd>
            ) : null}
          </div>
        ))}
      </dl>
      <div className="grid gap-3 xl:grid-cols-2">
        {view.charts.map(({ series, chart }) => (
          <StatChart
            key={series}
            id={`${idPrefix}-${series}`}
            title={t(`stats.series.${series}`)}
            description={t("stats.chartDescription", {
              series: t(`stats.series.${series}`),
              step: t(`stats.per.${view.per}`),
              from: view.fromLabel,
              to: view.toLabel,
              total: view.totals[series] ?? 0,
            })}
            chart={chart}
            valueHeading={t(`stats.series.${series}`)}
          />
        ))}
      </div>
    </div>
  );
}
