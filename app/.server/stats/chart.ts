import { scaleLinear, scalePoint } from "d3-scale";
import { line } from "d3-shape";
import type { Chart, ChartPoint } from "~/lib/shapes";

// A chart's geometry, drawn on the server (decision 0039): d3's scales and line give the numbers,
// the page renders them as SVG, and no chart code reaches the browser.

const WIDTH = 480;
const HEIGHT = 180;
const MARGIN = { top: 12, right: 12, bottom: 28, left: 40 };
/** Labels under the x axis at most (the data table has every one). */
const X_LABELS = 5;

/** A line over `values`, one per label (labels already in the reader's language). */
export function chartOf(labels: readonly string[], values: readonly number[], options: { decimals?: boolean } = {}): Chart {
  const x = scalePoint<number>()
    .domain(labels.map((_, i) => i))
    .range([MARGIN.left, WIDTH - MARGIN.right])
    .padding(0.5);
  const top = Math.max(1, ...values);
  const y = scaleLinear()
    .domain([Math.min(0, ...values), top])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const round = (n: number) => Math.round(n * 10) / 10;
  const points = values.map((value, i) => ({ x: round(x(i) ?? 0), y: round(y(value)), label: labels[i] ?? "", value }));
  const draw = line<ChartPoint>()
    .x((point) => point.x)
    .y((point) => point.y);
  const every = Math.max(1, Math.ceil(labels.length / X_LABELS));
  return {
    width: WIDTH,
    height: HEIGHT,
    path: draw(points) ?? "",
    points,
    // Counts are whole: their axis shows whole numbers only.
    yTicks: y
      .ticks(4)
      .filter((value) => options.decimals || Number.isInteger(value))
      .map((value) => ({ y: round(y(value)), value })),
    xTicks: points.filter((_, i) => i % every === 0).map((point) => ({ x: point.x, label: point.label })),
    left: MARGIN.left,
    right: WIDTH - MARGIN.right,
    bottom: HEIGHT - MARGIN.bottom,
  };
}
