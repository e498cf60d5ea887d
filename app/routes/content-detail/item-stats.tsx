import { useTranslation } from "react-i18next";
import type { ReaderSplit } from "~/.server/stats/stats";
import { StatsOverview } from "~/components/stats-overview";
import type { StatsView } from "~/lib/shapes";

/** The item's statistics, for its owner only: the same series as their own page, and readers by type (never who). */
export function ItemStats({ view, readers }: { view: StatsView; readers: ReaderSplit }) {
  const { t } = useTranslation();
  return (
    <section
      id="stats"
      aria-labelledby="item-stats"
      className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4"
      data-testid="item-stats"
    >
      <h3 id="item-stats" className="font-medium">
        {t("stats.itemStats")}
      </h3>
      <p className="mb-2 text-xs text-slate-600">{t("stats.itemStatsNote")}</p>
      <StatsOverview view={view} anchor="#stats" idPrefix="item" />
      <h4 className="mt-3 text-sm font-medium">{t("stats.readers")}</h4>
      <dl className="flex gap-6 text-sm" data-testid="readers">
        <div>
          <dt className="text-slate-600">{t("stats.researchers")}</dt>
          <dd className="text-xl font-semibold tabular-nums" data-readers="researchers">
            {readers.researchers}
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">{t("stats.supporters")}</dt>
          <dd className="text-xl font-semibold tabular-nums" data-readers="supporters">
            {readers.supporters}
          </dd>
        </div>
      </dl>
    </section>
  );
}
