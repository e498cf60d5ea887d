import { stringify } from "csv-stringify/sync";
import { statsQuerySchema } from "~/.server/stats/query";
import { memberStats } from "~/.server/stats/stats";
import { requireUser } from "~/.server/web/auth/session";
import { ITEM_SERIES } from "~/lib/stats-periods";
import type { Route } from "./+types/csv";

/**
 * /personal/stats/csv?range=&per=&table=series|items: the page's numbers as CSV (the series per
 * bucket, or every item), headed by plain column names; a title starting like a formula is escaped.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const params = new URL(request.url).searchParams;
  const query = statsQuerySchema.parse(Object.fromEntries(params));
  const { overview, items } = await memberStats(user.id, query, Date.now());
  const table = params.get("table") === "items" ? "items" : "series";
  const rows =
    table === "series"
      ? overview.buckets.map((bucket, i) => ({
          [overview.per]: bucket,
          ...Object.fromEntries(Object.entries(overview.series).map(([name, values]) => [name, values[i] ?? 0])),
        }))
      : items.map((item) => ({
          id: item.id,
          title: item.title,
          kind: item.kind,
          ...Object.fromEntries(ITEM_SERIES.map((name) => [name, item.counts[name]])),
        }));
  const columns = table === "series" ? [overview.per, ...Object.keys(overview.series)] : ["id", "title", "kind", ...ITEM_SERIES];
  return new Response(stringify(rows, { header: true, columns, escape_formulas: true }), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="statistics-${table}-${overview.range}-${overview.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
