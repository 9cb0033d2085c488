/**
 * Read: one run's result. The headline says plainly whether every flow finished (a run with stalled
 * flows is never shown as a success); charts of completion and slowdown by flow size and of link
 * utilisation over time; what the estimate does not cover.
 */
import { useEffect, useMemo, useState } from "react";
import { getJob, type JobDetail } from "./api";
import { Chart } from "./Chart";
import { Dialog } from "./Dialog";
import { bySizeSeries, formatSeconds, headline, utilisationSeries, type EngineResult, type Headline } from "./results";

export const NOTE = "fluid estimate; tails, incast and latency bounds need packet mode";

const SIZE_SERIES = [
  { label: "mean", colour: "#4e9af1" },
  { label: "p99", colour: "#f17c4e", dash: [6, 4] },
];
const SLOWDOWN_SERIES = [
  { label: "p50", colour: "#4e9af1" },
  { label: "p99", colour: "#f17c4e", dash: [6, 4] },
];
const UTIL_SERIES = [
  { label: "mean of links", colour: "#4e9af1" },
  { label: "busiest link", colour: "#e0b341" },
];

export function HeadlineView({ h, testId }: { h: Headline; testId: string }) {
  return (
    <div className={`sim-headline ${h.verdict}`} data-testid={testId} data-verdict={h.verdict}>
      <p className="sim-verdict" data-testid={`${testId}-sentence`}>
        {h.verdict === "complete" ? "✓ " : "⚠ "}
        {h.sentence}
      </p>
      <dl className="sim-figures">
        <div>
          <dt>Job completion</dt>
          <dd data-testid={`${testId}-jct`}>
            {h.jobCompletionS === null ? "none (not every flow finished)" : formatSeconds(h.jobCompletionS)}
          </dd>
        </div>
        <div>
          <dt>Mean flow completion</dt>
          <dd data-testid={`${testId}-mean`}>{formatSeconds(h.meanFctS)}</dd>
        </div>
        <div>
          <dt>p99 flow completion</dt>
          <dd data-testid={`${testId}-p99`}>{formatSeconds(h.p99FctS)}</dd>
        </div>
        <div>
          <dt>p99 slowdown</dt>
          <dd>{h.p99Slowdown === null ? "—" : `${h.p99Slowdown.toFixed(2)}×`}</dd>
        </div>
        <div>
          <dt>Throughput (servers sending)</dt>
          <dd data-testid={`${testId}-throughput`}>
            {h.throughputGbps.toLocaleString("en", { maximumFractionDigits: 1 })} Gb/s
          </dd>
        </div>
        <div>
          <dt>Flows</dt>
          <dd>
            {h.flows.finished.toLocaleString("en")} of {h.flows.total.toLocaleString("en")} finished
            {h.flows.stalled > 0 && `, ${h.flows.stalled.toLocaleString("en")} stalled`}
          </dd>
        </div>
      </dl>
    </div>
  );
}

export function ResultDialog({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  const [job, setJob] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJob(jobId).then(setJob, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [jobId]);
  const result = job?.result as EngineResult | null | undefined;
  const charts = useMemo(
    () => (result ? { size: bySizeSeries(result), util: utilisationSeries(result) } : null),
    [result],
  );
  return (
    <Dialog
      title={job ? `Simulation ${job.id}: ${job.name}` : `Simulation ${jobId}`}
      onClose={onClose}
      testId="sim-result"
    >
      {error && <p className="field-error">{error}</p>}
      {!job && !error && <p className="muted">Loading…</p>}
      {job && !result && (
        <p className="muted">
          No result: this run{" "}
          {job.status === "failed" ? `failed (${job.error ?? "no reason given"})` : `is ${job.status}`}.
        </p>
      )}
      {result && charts && (
        <>
          <HeadlineView h={headline(result)} testId="sim-headline" />
          <p className="sim-note" data-testid="sim-note">
            {NOTE}.
          </p>
          <div className="sim-charts">
            {charts.size.labels.length > 0 && (
              <Chart
                title="Flow completion by flow size"
                data={charts.size.fct}
                series={SIZE_SERIES}
                xTicks={charts.size.labels}
                xLabel="flow size"
                yLabel="seconds"
                testId="chart-fct-size"
              />
            )}
            {charts.size.labels.length > 0 && (
              <Chart
                title="Slowdown by flow size"
                data={charts.size.slowdown}
                series={SLOWDOWN_SERIES}
                xTicks={charts.size.labels}
                xLabel="flow size"
                yLabel="× ideal"
                testId="chart-slowdown"
              />
            )}
            {charts.util && (
              <Chart
                title="Link utilisation over time"
                data={charts.util}
                series={UTIL_SERIES}
                xLabel="simulated ms"
                yLabel="utilisation"
                testId="chart-util"
              />
            )}
          </div>
        </>
      )}
    </Dialog>
  );
}
