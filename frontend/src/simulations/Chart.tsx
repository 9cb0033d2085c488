/** A uPlot chart (canvas: fast with 100,000 points) sized to its box, redrawn when its data change. */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Series } from "./results";

export interface ChartSeries {
  label: string;
  colour: string;
  /** Draw as steps (CDFs) instead of straight lines. */
  steps?: boolean;
  dash?: number[];
  /** Points only, no line (a scatter: x sorted, as uPlot needs). */
  points?: boolean;
}

export function Chart({
  title,
  data,
  series,
  xLabel,
  yLabel,
  xTicks,
  logX = false,
  xFormat,
  xRange,
  yRange,
  testId,
  height = 220,
  errorBars,
}: {
  title: string;
  data: Series;
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  /** Category names for x = 0, 1, 2, … (size buckets). */
  xTicks?: string[];
  logX?: boolean;
  /** The x axis' tick labels from their values (log2 of a message size -> `1 MiB`). */
  xFormat?: (v: number) => string;
  /** Fixed x range (a message-size sweep: 1 MiB .. 4 GiB); default: fitted to the data. */
  xRange?: [number, number];
  /** Fixed y range (a CDF: 0..1); default: fitted to the data. */
  yRange?: [number, number];
  testId: string;
  height?: number;
  /** Vertical bars from `lo[i]` to `hi[i]` at x[i] (a spread, e.g. over seeds), in `colour`; NaN: none at x[i]. */
  errorBars?: { lo: readonly number[]; hi: readonly number[]; colour: string };
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const css = getComputedStyle(document.documentElement);
    const text = css.getPropertyValue("--text").trim() || "#ddd";
    const grid = css.getPropertyValue("--border").trim() || "#444";
    const axis = (label: string): uPlot.Axis => ({
      label,
      stroke: text,
      grid: { stroke: grid, width: 1 },
      ticks: { stroke: grid },
    });
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height,
      scales: {
        x: xTicks
          ? { time: false, range: [-0.5, xTicks.length - 0.5] }
          : { time: false, distr: logX ? 3 : 1, ...(xRange ? { range: xRange } : {}) },
        ...(yRange ? { y: { range: yRange } } : {}),
      },
      axes: [
        {
          ...axis(xLabel),
          ...(xTicks
            ? { values: (_u: uPlot, vals: number[]) => vals.map((v) => (Number.isInteger(v) ? (xTicks[v] ?? "") : "")) }
            : xFormat
              ? { values: (_u: uPlot, vals: number[]) => vals.map(xFormat), incrs: [1, 2, 4] }
              : {}),
        },
        axis(yLabel),
      ],
      series: [
        { label: xLabel },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.colour,
          width: 2,
          dash: s.dash,
          spanGaps: true,
          points: { show: xTicks !== undefined || data[0].length < 50 },
          ...(s.steps && uPlot.paths.stepped ? { paths: uPlot.paths.stepped({ align: 1 }) } : {}),
          ...(s.points ? { paths: () => null, points: { show: true, size: 8 } } : {}),
        })),
      ],
    };
    if (errorBars) {
      const bars = errorBars;
      opts.hooks = {
        draw: [
          (u: uPlot) => {
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = bars.colour;
            ctx.lineWidth = 1.5;
            data[0].forEach((x, i) => {
              const lo = bars.lo[i];
              const hi = bars.hi[i];
              // NaN: no bar at this x (a bucket with no measured spread)
              if (lo === undefined || hi === undefined || !Number.isFinite(lo) || !Number.isFinite(hi)) return;
              const cx = u.valToPos(x, "x", true);
              const [y0, y1] = [u.valToPos(lo, "y", true), u.valToPos(hi, "y", true)];
              ctx.beginPath();
              for (const [a, b, c, d] of [
                [cx, y0, cx, y1],
                [cx - 4, y0, cx + 4, y0],
                [cx - 4, y1, cx + 4, y1],
              ] as const) {
                ctx.moveTo(a, b);
                ctx.lineTo(c, d);
              }
              ctx.stroke();
            });
            ctx.restore();
          },
        ],
      };
    }
    const plot = new uPlot(opts, data as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, series, xLabel, yLabel, xTicks, logX, xFormat, xRange, yRange, height, errorBars]);
  return (
    <figure className="sim-chart" data-testid={testId} data-points={data[0].length}>
      <figcaption>{title}</figcaption>
      <div ref={box} />
    </figure>
  );
}
