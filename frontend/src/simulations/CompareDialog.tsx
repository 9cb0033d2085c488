/**
 * Compare: runs of one workload on different plans. Speedups against a chosen baseline, the
 * completion-time distributions overlaid, and cost per unit of performance from each plan's summary
 * cost (priced by the project's price book); plans on the cost/time Pareto frontier are marked.
 */
import { useEffect, useMemo, useState } from "react";
import { useWiring } from "../state/wiring";
import { getJob, type JobDetail } from "./api";
import { Chart } from "./Chart";
import { Dialog } from "../widgets/Dialog";
import { NOTE } from "./ResultDialog";
import { compareRuns, fctQuantiles, formatSeconds, paretoFrontier, runOf, type Run } from "./results";
import { useFlowCurves } from "./FctCdf";
import { overlaySorted } from "./flows";

const CDF_RANGE: [number, number] = [0, 1];
const COLOURS = ["#4e9af1", "#f17c4e", "#5cc46a", "#c86fe0", "#e0b341", "#e05f7a"];
const ratio = (x: number | null) => (x === null ? "—" : `${x.toFixed(2)}×`);
const money = (x: number | null, cur: string) =>
  x === null ? "unpriced" : `${x.toLocaleString("en", { maximumFractionDigits: 2 })} ${cur}`;

export function CompareDialog({ jobIds, onClose }: { jobIds: number[]; onClose: () => void }) {
  const plans = useWiring((s) => s.plans);
  const [jobs, setJobs] = useState<JobDetail[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [baseline, setBaseline] = useState<number | null>(null);
  useEffect(() => {
    Promise.all(jobIds.map(getJob)).then(setJobs, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [jobIds]);

  const runs: Run[] = useMemo(
    () =>
      (jobs ?? []).map((j) => {
        const p = plans.find((x) => x.id === j.plan_id);
        return runOf(j, {
          name: p ? `#${p.id} ${p.name}` : `#${j.plan_id}`,
          cost: p?.summary.cost.total ?? 0,
          currency: p?.summary.cost.currency ?? "",
        });
      }),
    [jobs, plans],
  );
  const planIds = [...new Set(runs.map((r) => r.planId))].sort((a, b) => a - b);
  const base = baseline ?? planIds[0] ?? 0;
  const rows = compareRuns(runs, base);
  // training steps (issue 31): their step time beside the completion time
  const steps = runs.some((r) => r.result.training != null);
  const frontier = new Set(
    paretoFrontier(
      rows.flatMap((r) =>
        r.cost > 0 && r.jobCompletionS !== null ? [{ id: r.planId, cost: r.cost, time: r.jobCompletionS }] : [],
      ),
    ).map((p) => p.id),
  );
  // each plan's first run: its every finished flow when the run kept per-flow records, else p50/p99/max
  const exact = useFlowCurves(jobs);
  const cdf = useMemo(() => {
    const per = planIds.flatMap((id) => runs.filter((r) => r.planId === id).slice(0, 1));
    return {
      data: overlaySorted(per.map((r) => exact.get(r.id) ?? fctQuantiles(r.result))),
      series: per.map((r, i) => ({ label: r.planName, colour: COLOURS[i % COLOURS.length] ?? "#888", steps: true })),
      exact: per.length > 0 && per.every((r) => exact.has(r.id)),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runs, exact]);

  return (
    <Dialog
      className="sim-dialog"
      title={`Compare: ${runs[0]?.workload ?? "runs"}`}
      onClose={onClose}
      testId="sim-compare-dialog"
    >
      {error && <p className="field-error">{error}</p>}
      {!jobs && !error && <p className="muted">Loading…</p>}
      {jobs && (
        <>
          <label className="sim-param inline">
            <span>Baseline</span>
            <select value={base} onChange={(e) => setBaseline(Number(e.target.value))} data-testid="sim-baseline">
              {planIds.map((id) => (
                <option key={id} value={id}>
                  {runs.find((r) => r.planId === id)?.planName}
                </option>
              ))}
            </select>
          </label>
          <table className="plans-table" data-testid="speedup-table">
            <thead>
              <tr>
                <th>Plan</th>
                <th className="num">Runs</th>
                <th className="num">Job completion</th>
                {steps && <th className="num">Step time</th>}
                <th className="num">Speedup</th>
                <th className="num">Mean FCT</th>
                <th className="num">FCT speedup</th>
                <th className="num">p99 FCT</th>
                <th className="num">Throughput</th>
                <th className="num">Cost</th>
                <th className="num">Cost per Gb/s</th>
                <th className="num">Speedup per cost</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.planId}
                  data-plan={r.planId}
                  data-testid={`speedup-${r.planId}`}
                  className={r.baseline ? "baseline" : ""}
                >
                  <td>
                    {r.planName}
                    {r.baseline && <span className="muted"> (baseline)</span>}
                    {frontier.has(r.planId) && frontier.size < rows.length && (
                      <span className="sim-frontier" title="No other plan is both cheaper and faster">
                        {" "}
                        ◆ Pareto
                      </span>
                    )}
                  </td>
                  <td className="num">
                    {r.runs}
                    {r.incomplete > 0 && <span className="warn"> ({r.incomplete} did not finish)</span>}
                  </td>
                  <td className="num" data-testid="jct">
                    {r.jobCompletionS === null ? "none: flows did not finish" : formatSeconds(r.jobCompletionS)}
                    {r.jcSpread && r.runs > 1 && (
                      <span className="muted small">
                        {" "}
                        ({formatSeconds(r.jcSpread[0])}–{formatSeconds(r.jcSpread[1])})
                      </span>
                    )}
                  </td>
                  {steps && (
                    <td className="num" data-testid="step-time">
                      {r.stepTimeS === null ? "none: the step did not end" : formatSeconds(r.stepTimeS)}
                    </td>
                  )}
                  <td className="num" data-testid="speedup">
                    {ratio(r.speedup)}
                  </td>
                  <td className="num">{formatSeconds(r.meanFctS)}</td>
                  <td className="num">{ratio(r.fctSpeedup)}</td>
                  <td className="num">{formatSeconds(r.p99FctS)}</td>
                  <td className="num">{r.throughputGbps.toLocaleString("en", { maximumFractionDigits: 1 })} Gb/s</td>
                  <td className="num">{money(r.cost > 0 ? r.cost : null, r.currency)}</td>
                  <td className="num">{money(r.costPerGbps, r.currency)}</td>
                  <td className="num">{ratio(r.speedupPerCost)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Speedup: the baseline's time over the plan's (above 1 is faster). Speedup per cost: speedup × baseline cost
            ÷ plan cost. With several seeds, the mean and the spread (min–max).
          </p>
          <Chart
            title={
              cdf.exact
                ? "Flow completion CDF of each plan (every finished flow; share of all flows)"
                : "Flow completion times (p50, p99 and max of each plan; share of all flows)"
            }
            data={cdf.data}
            series={cdf.series}
            xLabel="flow completion, ms"
            yLabel="share of flows"
            yRange={CDF_RANGE}
            testId="chart-compare-cdf"
          />
          <p className="sim-note">{NOTE}.</p>
        </>
      )}
    </Dialog>
  );
}
