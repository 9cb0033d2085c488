/**
 * The flow-completion CDF of one run, drawn from every finished flow's own completion time (the
 * API's per-flow records, as one typed array). A run that kept no records (over 1,000,000 flows)
 * shows the result's p50 / p99 / max instead, and says so.
 */
import { useEffect, useMemo, useState } from "react";
import { Chart } from "./Chart";
import { cdfCurve, fetchFlowValues, type FlowValues } from "./flows";
import { fctQuantiles, type EngineResult, type Series } from "./results";

const CDF_RANGE: [number, number] = [0, 1];
const STEPS = [{ label: "share of flows", colour: "#4e9af1", steps: true }];
// Past a few thousand flows a step is under a pixel: straight segments look the same, and uPlot then
// draws one segment per pixel column instead of two per flow (100,000 flows in the benchmark: from the
// last response to the drawn chart 0.88 s with steps, 0.07 s without).
const LINES = [{ label: "share of flows", colour: "#4e9af1" }];
const STEPS_UP_TO = 2000;

export function FctCdf({ jobId, result, records }: { jobId: number; result: EngineResult; records: number | null }) {
  const [flows, setFlows] = useState<FlowValues | null | undefined>(records === null ? null : undefined);
  const [error, setError] = useState<string | null>(null);
  const [logX, setLogX] = useState(false);
  useEffect(() => {
    if (records === null) return;
    let live = true;
    fetchFlowValues(jobId).then(
      (v) => live && setFlows(v),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [jobId, records]);
  const data: Series | null = useMemo(() => {
    if (flows === undefined) return null;
    const c = flows ? cdfCurve(flows) : fctQuantiles(result);
    return [c.x, c.y];
  }, [flows, result]);
  const exact = Boolean(flows);
  return (
    <div className="sim-fct-cdf" data-testid="fct-cdf" data-exact={exact} data-finished={flows?.values.length}>
      {error && <p className="field-error">{error}</p>}
      {!data && !error && <p className="muted small">Loading the completion times of every flow…</p>}
      {data && (
        <Chart
          title={
            exact
              ? `Flow completion CDF (all ${(flows?.values.length ?? 0).toLocaleString("en")} finished flows)`
              : "Flow completion CDF (p50, p99, max only: this run kept no per-flow records)"
          }
          data={data}
          series={data[0].length > STEPS_UP_TO ? LINES : STEPS}
          xLabel={logX ? "flow completion, ms (log)" : "flow completion, ms"}
          yLabel="share of flows"
          yRange={CDF_RANGE}
          logX={logX}
          testId="chart-fct-cdf"
        />
      )}
      {exact && (
        <label className="small">
          <input type="checkbox" checked={logX} onChange={(e) => setLogX(e.target.checked)} data-testid="fct-cdf-log" />{" "}
          log scale
        </label>
      )}
    </div>
  );
}

/** Each run's exact CDF curve (ms, share of all flows) by job id, for the runs that kept records. */
export function useFlowCurves(jobs: readonly { id: number; flow_records?: number | null }[] | null) {
  const [curves, setCurves] = useState<ReadonlyMap<number, { x: number[]; y: number[] }>>(new Map());
  const key = (jobs ?? [])
    .filter((j) => j.flow_records != null)
    .map((j) => j.id)
    .join(",");
  useEffect(() => {
    if (!key) return;
    let live = true;
    const ids = key.split(",").map(Number);
    Promise.all(ids.map((id) => fetchFlowValues(id).then((v) => [id, v] as const))).then(
      (got) => {
        if (!live) return;
        const m = new Map<number, { x: number[]; y: number[] }>();
        for (const [id, v] of got) if (v) m.set(id, cdfCurve(v));
        setCurves(m);
      },
      () => undefined, // the quantile curves stay: the comparison is still readable
    );
    return () => {
      live = false;
    };
  }, [key]);
  return curves;
}
