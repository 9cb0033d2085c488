/**
 * A message-size sweep of a collective (issue 31) read like nccl-tests: bus bandwidth against message
 * size on a log2 axis from 1 MiB to 4 GiB, with the table of sizes, times and bandwidths beside it.
 */
import { useMemo } from "react";
import { Chart } from "./Chart";
import {
  busBwRows,
  busBwSeries,
  formatBandwidth,
  formatBytes,
  log2SizeLabel,
  SWEEP_LOG2_RANGE,
  type SweepPointLike,
} from "./collective";
import { formatSeconds } from "./results";

const SERIES = [
  { label: "busbw", colour: "#4e9af1" },
  { label: "algbw", colour: "#8fa3bf", dash: [6, 4] },
];

export function BusBwSweep({ points }: { points: readonly SweepPointLike[] }) {
  const rows = useMemo(() => busBwRows(points), [points]);
  const data = useMemo(() => busBwSeries(rows), [rows]);
  const range = useMemo((): [number, number] => {
    // 1 MiB .. 4 GiB, widened if a point lies outside
    const xs = data[0];
    return [Math.min(SWEEP_LOG2_RANGE[0], ...xs), Math.max(SWEEP_LOG2_RANGE[1], ...xs)];
  }, [data]);
  return (
    <section className="sim-busbw" data-testid="busbw-sweep" aria-label="Bus bandwidth by message size">
      <Chart
        title="Bus bandwidth against message size (nccl-tests' busbw)"
        data={data}
        series={SERIES}
        xLabel="message size"
        yLabel="Gb/s"
        xFormat={log2SizeLabel}
        xRange={range}
        testId="busbw-chart"
      />
      <table className="plans-table" data-testid="busbw-table">
        <thead>
          <tr>
            <th className="num">Size</th>
            <th className="num">Bytes</th>
            <th>State</th>
            <th className="num">Time</th>
            <th className="num">algbw</th>
            <th className="num">busbw</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.index}
              data-testid={`busbw-row-${r.index}`}
              data-bytes={r.bytes}
              data-busbw-gbps={r.busbwGbps ?? ""}
            >
              <td className="num">{formatBytes(r.bytes)}</td>
              <td className="num">{r.bytes.toLocaleString("en")}</td>
              <td>
                {r.status}
                {r.error && <span className="field-error small"> {r.error}</span>}
              </td>
              <td className="num">{formatSeconds(r.timeS)}</td>
              <td className="num">{formatBandwidth(r.algbwGbps)}</td>
              <td className="num" data-testid="busbw-value">
                {formatBandwidth(r.busbwGbps)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
