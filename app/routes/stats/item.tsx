import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { statsQuerySchema } from "~/.server/stats/query";
import { itemStats } from "~/.server/stats/stats";
import { overviewView } from "~/.server/stats/views";
import { requireOwnItem } from "~/.server/web/auth/roles";
import { languageOf } from "~/.server/web/i18n/request-language";
import { RouteError } from "~/components/route-error";
import { StatsOverview } from "~/components/stats-overview";
import type { Route } from "./+types/item";

// /retrieval/detail/stats?id=N: an item's statistics for its owner (decision 0039), on a page of
// their own (decision 0047): the item's page, which every member loads, carries no charts.

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user, item } = await requireOwnItem(request, context);
  const query = statsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { overview, readers } = await itemStats(item.id, user.id, query, Date.now());
  return { item: { id: item.id, title: item.title }, view: overviewView(overview, languageOf(request)), readers };
}

/** The same series as the member's own page, and readers by account type (never who). */
export default function ItemStatistics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { item, view, readers } = loaderData;
  return (
    <section className="flex max-w-5xl flex-col gap-4" data-testid="item-stats">
      <title>{`${t("stats.itemStatsOf", { title: item.title })} - ${t("product.title")}`}</title>
      <h2 className="text-2xl font-semibold">{t("stats.itemStatsOf", { title: item.title })}</h2>
      <p className="text-sm text-slate-600">
        {t("stats.itemStatsNote")}{" "}
        <Link to={`/retrieval/detail?id=${item.id}`} className="text-brand underline underline-offset-2">
          {t("content.backToItem")}
        </Link>
      </p>
      <StatsOverview view={view} idPrefix="item" />
      <h3 className="text-sm font-medium">{t("stats.readers")}</h3>
      <dl className="flex gap-6 text-sm" data-testid="readers">
        {(["researchers", "supporters"] as const).map((kind) => (
          <div key={kind}>
            <dt className="text-slate-600">{t(`stats.${kind}`)}</dt>
            <dd className="text-xl font-semibold tabular-nums" data-readers={kind}>
              {readers[kind]}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
