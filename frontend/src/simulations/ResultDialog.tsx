/**
 * Read: one run's result. The headline says plainly whether every flow finished (a run with stalled
 * flows is never shown as a success); charts of completion and slowdown by flow size and of link
 * utilisation over time; what the estimate does not cover.
 */
import { useEffect, useMemo, useState } from "react";
import { getJob, type JobDetail } from "./api";
import { hasLinkSeries, openHeatMap } from "./floor";
import { notify } from "../state/session";
import { Chart } from "./Chart";
import { Dialog } from "../widgets/Dialog";
import { FctCdf } from "./FctCdf";
import { FlowsTable } from "./FlowsTable";
import { bucketRows, decompositionOf, p99Bars } from "./decomposed";
import { DecomposedStats } from "./DecomposedStats";
import { CollectiveStats } from "./CollectiveStats";
import { hasQueueSeries } from "./packet";
import { openQueueMap } from "./packetFloor";
import { PacketStats } from "./PacketStats";
import {
  bySizeSeries,
  runPlan,
  runTitle,
  formatSeconds,
  headline,
  utilisationSeries,
  type EngineResult,
  type Headline,
} from "./results";

export const NOTE = "fluid estimate; tails, incast and latency bounds need packet mode";

const SIZE_SERIES = [
  { label: "mean", colour: "#4e9af1" },
  { label: "p99", colour: "#f17c4e", dash: [6, 4] },
];
const P99_COLOUR = "#f17c4e";
const SLOWDOWN_SERIES = [
  { label: "p50", colour: "#4e9af1" },
  { label: "p99", colour: P99_COLOUR, dash: [6, 4] },
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

interface Group {
  servers_a: string[];
  servers_b: string[];
  count_a?: number;
  count_b?: number;
  via_a: string[];
  via_b: string[];
  reaches_a: string[];
  reaches_b: string[];
}

/** Why flows did not finish, as the API works it out from the plan (servers with no path, elements down). */
function WhyIncomplete({ job }: { job: JobDetail }) {
  const r = (job.incomplete_reason ?? {}) as {
    summary?: string;
    unreachable_groups?: Group[];
    down_nodes?: string[];
    down_links?: string[];
  };
  const names = (xs: string[] | undefined) => (xs && xs.length ? xs.join(", ") : "nothing");
  return (
    <div className="sim-why" data-testid="sim-why">
      <p>{r.summary ?? `${job.stalled_flows ?? 0} flows stalled, ${job.unfinished_flows ?? 0} unfinished.`}</p>
      {r.unreachable_groups && r.unreachable_groups.length > 0 && (
        <ul className="small">
          {r.unreachable_groups.map((g, i) => (
            <li key={i}>
              {names(g.servers_a)} (via {names(g.via_a)}, up to {names(g.reaches_a)}) and {names(g.servers_b)} (via{" "}
              {names(g.via_b)}, up to {names(g.reaches_b)}) share no switch
            </li>
          ))}
        </ul>
      )}
      {(r.down_nodes?.length ?? 0) + (r.down_links?.length ?? 0) > 0 && (
        <p className="small">Down at the end: {names([...(r.down_nodes ?? []), ...(r.down_links ?? [])])}.</p>
      )}
    </div>
  );
}

const TABLES = [
  { table: "servers", label: "per server" },
  { table: "links", label: "per link" },
  { table: "size-buckets", label: "per flow size" },
] as const;

function Downloads({ jobId }: { jobId: number }) {
  return (
    <p className="sim-downloads small">
      Download:{" "}
      <a href={`/api/v1/simulations/${jobId}/result.json`} download data-testid="sim-download-json">
        result (JSON)
      </a>
      {TABLES.map((t) => (
        <span key={t.table}>
          {" · "}
          <a
            href={`/api/v1/simulations/${jobId}/results/${t.table}.csv`}
            download
            data-testid={`sim-download-${t.table}`}
          >
            {t.label} (CSV)
          </a>
        </span>
      ))}
    </p>
  );
}

/** A decomposed result's p99 error bars on the slowdown chart (its buckets with flows, as bySizeSeries). */
function accuracyBars(result: EngineResult): { lo: number[]; hi: number[]; colour: string } | null {
  const read = decompositionOf(result);
  if (!read?.ok || !read.value.accuracy) return null; // not calibrated: no bars to draw
  return { ...p99Bars(bucketRows(result.flows.by_size, read.value)), colour: P99_COLOUR };
}

export function ResultDialog({ jobId, onClose }: { jobId: number; onClose: () => void }) {
  const [job, setJob] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [heatOf, setHeatOf] = useState<"utilisation" | "queues">("utilisation");
  useEffect(() => {
    getJob(jobId).then(setJob, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [jobId]);
  const result = job?.result as EngineResult | null | undefined;
  const charts = useMemo(
    () =>
      result ? { size: bySizeSeries(result), util: utilisationSeries(result), p99Bars: accuracyBars(result) } : null,
    [result],
  );
  return (
    <Dialog
      className="sim-dialog"
      title={job ? `${runTitle(job)} · ${runPlan(job)}` : `Simulation #${jobId}`}
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
      {job && result && charts && (
        <>
          <HeadlineView h={headline(result)} testId="sim-headline" />
          {job.outcome === "partial" && <WhyIncomplete job={job} />}
          <CollectiveStats result={result} />
          <DecomposedStats result={result} />
          <PacketStats result={result} />
          <Downloads jobId={job.id} />
          {job.plan_id !== null && hasLinkSeries(result) && (
            <p className="button-row">
              <button
                type="button"
                onClick={() => {
                  const planId = job.plan_id;
                  if (planId === null) return;
                  // The hall comes into view: the dialog closes and the heat map's controls take its place.
                  onClose();
                  (heatOf === "queues" ? openQueueMap : openHeatMap)(job.id, planId, result).catch((e: unknown) =>
                    notify("error", `Heat map: ${e instanceof Error ? e.message : String(e)}`),
                  );
                }}
                data-testid="sim-heatmap"
              >
                Heat map on the hall
              </button>{" "}
              {hasQueueSeries(result) && (
                <select
                  value={heatOf}
                  onChange={(e) => setHeatOf(e.target.value as typeof heatOf)}
                  aria-label="Heat map of"
                  data-testid="sim-heatmap-metric"
                >
                  <option value="utilisation">utilisation</option>
                  <option value="queues">queue occupancy</option>
                </select>
              )}
            </p>
          )}
          <div className="sim-model-note">
            {job.model !== "fluid" && (
              <span className="badge" data-testid="sim-model">
                {job.model}
              </span>
            )}
            <p className="sim-note" data-testid="sim-note">
              {job.model === "fluid" ? NOTE : job.note}.
            </p>
          </div>
          <div className="sim-charts">
            <FctCdf jobId={job.id} result={result} records={job.flow_records ?? null} />
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
                title={
                  charts.p99Bars
                    ? "Slowdown by flow size (bars: where packet mode's p99 lies, by the error measured)"
                    : "Slowdown by flow size"
                }
                data={charts.size.slowdown}
                series={SLOWDOWN_SERIES}
                errorBars={charts.p99Bars ?? undefined}
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
          <FlowsTable jobId={job.id} records={job.flow_records ?? null} />
        </>
      )}
    </Dialog>
  );
}
