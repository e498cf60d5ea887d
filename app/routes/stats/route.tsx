import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { statsQuerySchema } from "~/.server/stats/query";
import { memberStats } from "~/.server/stats/stats";
import { overviewView } from "~/.server/stats/views";
import { requireUser } from "~/.server/web/auth/session";
import { languageOf } from "~/.server/web/i18n/request-language";
import { PageTitle } from "~/components/page-title";
import { StatsOverview, useQueryLink } from "~/components/stats-overview";
import { ITEM_SERIES, STAT_ITEMS_PAGE, STAT_SORTS } from "~/lib/stats-periods";
import type { Route } from "./+types/route";

/** /personal/stats: the member's own statistics over a period, their items in a table, the same as CSV. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const query = statsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { overview, items } = await memberStats(user.id, query, Date.now());
  const pages = Math.max(1, Math.ceil(items.length / STAT_ITEMS_PAGE));
  const page = Math.min(query.page, pages);
  return {
    view: overviewView(overview, languageOf(request)),
    items: items.slice((page - 1) * STAT_ITEMS_PAGE, page * STAT_ITEMS_PAGE),
    sort: query.sort,
    page,
    pages,
    csv: new URLSearchParams({ range: overview.range, per: overview.per, sort: query.sort }).toString(),
  };
}

export default function Statistics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { view, items, sort, page, pages, csv } = loaderData;
  const linkTo = useQueryLink();
  return (
    <>
      <PageTitle titleKey="stats" />
      <div className="flex max-w-5xl flex-col gap-4">
        <StatsOverview view={view} idPrefix="member" />
        <p className="flex flex-wrap gap-4 text-sm">
          <a href={`/personal/stats/csv?${csv}&table=series`} className="text-brand underline underline-offset-2" download>
            {t("stats.csvSeries")}
          </a>
          <a href={`/personal/stats/csv?${csv}&table=items`} className="text-brand underline underline-offset-2" download>
            {t("stats.csvItems")}
          </a>
        </p>
        <section aria-labelledby="stat-items" className="rounded-lg border border-slate-200 bg-white p-3">
          <h2 id="stat-items" className="mb-2 font-medium">
            {t("stats.items")}
          </h2>
          {items.length === 0 ? (
            <p className="text-sm text-slate-600">{t("stats.noItems")}</p>
          ) : (
            <div className="overflow-x-auto">
              <table
                className="w-full text-sm [&_td]:py-1 [&_td+td]:text-right [&_td+td]:tabular-nums [&_tbody_tr]:border-b [&_tbody_tr]:border-slate-100"
                data-testid="stat-items"
              >
                <thead>
                  <tr className="border-b border-slate-200 text-left text-slate-500">
                    {STAT_SORTS.map((column) => (
                      <th
                        key={column}
                        className={column === "title" ? "py-1 font-normal" : "py-1 text-right font-normal"}
                        aria-sort={sort === column ? (column === "title" ? "ascending" : "descending") : undefined}
                      >
                        {sort === column ? (
                          <span className="font-medium text-slate-800">
                            {t(column === "title" ? "stats.item" : `stats.series.${column}`)}
                          </span>
                        ) : (
                          <Link to={linkTo({ sort: column, page: null })} className="underline underline-offset-2">
                            {t(column === "title" ? "stats.item" : `stats.series.${column}`)}
                          </Link>
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {items.map((item) => (
                    <tr key={item.id} data-item={item.id}>
                      <td>
                        <Link to={`/retrieval/detail/stats?id=${item.id}`} className="text-brand underline underline-offset-2">
                          {item.title}
                        </Link>
                      </td>
                      {ITEM_SERIES.map((series) => (
                        <td key={series} data-count={series}>
                          {item.counts[series]}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {pages > 1 ? (
            <nav className="mt-2 flex items-center gap-3 text-sm" aria-label={t("stats.pages")}>
              {page > 1 ? (
                <Link to={linkTo({ page: String(page - 1) })} className="text-brand underline underline-offset-2">
                  {t("stats.previousPage")}
                </Link>
              ) : null}
              <span>{t("stats.pageOf", { page, pages })}</span>
              {page < pages ? (
                <Link to={linkTo({ page: String(page + 1) })} className="text-brand underline underline-offset-2">
                  {t("stats.nextPage")}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      </div>
    </>
  );
}
