import { useTranslation } from "react-i18next";
import type { Chart } from "~/lib/shapes";

interface StatChartProps {
  /** Unique on the page: the chart's title and description are referred to by it. */
  id: string;
  title: string;
  description: string;
  chart: Chart;
  /** The value column's heading in the data table. */
  valueHeading: string;
  /** Another column of the data table, one value per point (a score's rank). */
  extra?: { heading: string; values: readonly (string | number)[] };
}

/**
 * A line chart drawn on the server (decision 0039): an SVG with its title and description, each
 * point's value on hover (its own title), and the data it shows as a table screen readers read.
 */
export function StatChart({ id, title, description, chart, valueHeading, extra }: StatChartProps) {
  const { t } = useTranslation();
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3" data-chart={id}>
      <figcaption className="mb-1 text-sm font-medium">{title}</figcaption>
      <svg
        viewBox={`0 0 ${chart.width} ${chart.height}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className="h-auto w-full text-brand [&_circle]:fill-current [&_circle:hover]:r-[6px]"
        data-testid={`chart-${id}`}
      >
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <g className="text-slate-500" fontSize="11" fill="currentColor">
          {chart.yTicks.map((tick) => (
            <g key={tick.value} data-tick={tick.value}>
              <line x1={chart.left} x2={chart.right} y1={tick.y} y2={tick.y} stroke="currentColor" strokeOpacity="0.2" />
              <text x={chart.left - 6} y={tick.y} dy="0.32em" textAnchor="end">
                {tick.value}
              </text>
            </g>
          ))}
          {chart.xTicks.map((tick) => (
            <text key={tick.x} x={tick.x} y={chart.bottom + 18} textAnchor="middle">
              {tick.label}
            </text>
          ))}
        </g>
        <path d={chart.path} fill="none" stroke="currentColor" strokeWidth="2" data-line />
        {chart.points.map((point) => (
          <circle key={point.x} cx={point.x} cy={point.y} r="3.5">
            <title>{`${point.label}: ${point.value}`}</title>
          </circle>
        ))}
      </svg>
      <details className="mt-1 text-sm">
        <summary className="cursor-pointer text-slate-600">{t("stats.showData")}</summary>
        <table
          className="mt-1 w-full [&_td]:py-0.5 [&_td+td]:text-right [&_td+td]:tabular-nums [&_tbody_tr]:border-b [&_tbody_tr]:border-slate-100"
          data-table={id}
        >
          <thead>
            <tr className="border-b border-slate-200 text-left text-slate-500">
              <th className="py-1 font-normal">{t("stats.bucket")}</th>
              <th className="py-1 text-right font-normal">{valueHeading}</th>
              {extra ? <th className="py-1 text-right font-normal">{extra.heading}</th> : null}
            </tr>
          </thead>
          <tbody>
            {chart.points.map((point, i) => (
              <tr key={point.x}>
                <td>{point.label}</td>
                <td>{point.value}</td>
                {extra ? <td>{extra.values[i]}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
