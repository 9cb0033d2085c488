/**
 * Reading an engine result (sim-engine/schema/result.schema.json) and comparing runs: the headline,
 * the chart series, the speedup table against a baseline, and the cost/performance Pareto frontier.
 * Pure: tested in results.test.ts.
 */
import type { Report, SizeBucket, Stats } from "../api/engineResult";
import { splitName } from "./presets";

/** What names a run: the job as the API reads it. */
export interface RunNaming {
  id: number;
  name: string;
  plan_id: number | null;
  model?: "fluid" | "packet" | "decomposed";
}

/**
 * The one name of a run, the same in the list, its result and comparisons: the job's number (the
 * plan's number is said apart, "on plan #3", so the two are never confused) and what it ran; packet
 * and decomposed runs say so.
 */
export function runTitle(job: RunNaming): string {
  const model = job.model === "packet" || job.model === "decomposed" ? ` (${job.model})` : "";
  return `Simulation #${job.id}: ${job.name}${model}`;
}

/** The plan a run simulated, in words: "on plan #3 paired-row". */
export function runPlan(job: RunNaming, planName?: string): string {
  return job.plan_id === null ? "no plan" : `on plan #${job.plan_id}${planName ? ` ${planName}` : ""}`;
}

/** The engine's result and its parts: generated from its JSON Schema (`make result-types`). */
export type EngineResult = Report;
export type { SizeBucket, Stats };

export type Verdict = "complete" | "incomplete";

export interface Headline {
  verdict: Verdict;
  /** One sentence: all flows finished, or how many did not and why. */
  sentence: string;
  jobCompletionS: number | null;
  meanFctS: number | null;
  p99FctS: number | null;
  p99Slowdown: number | null;
  /** Sum of the servers' mean send rates over the simulated time, Gb/s. */
  throughputGbps: number;
  flows: EngineResult["flows"];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

export function headline(r: EngineResult): Headline {
  const f = r.flows;
  const missing = f.total - f.finished;
  let sentence: string;
  if (missing === 0) sentence = `All ${plural(f.total, "flow")} finished.`;
  else {
    const why: string[] = [];
    if (f.stalled > 0) why.push(`${plural(f.stalled, "flow")} stalled with no path between their servers`);
    if (f.unfinished > 0) why.push(`${plural(f.unfinished, "flow")} still running at the stop time`);
    if (f.not_started > 0)
      why.push(
        `${plural(f.not_started, "flow")} never started (due after the stop time, or waiting on flows that did not finish)`,
      );
    const other = missing - f.stalled - f.unfinished - f.not_started;
    if (other > 0) why.push(`${plural(other, "flow")} otherwise unfinished`);
    sentence = `Did not finish: ${missing.toLocaleString("en")} of ${plural(f.total, "flow")} never completed (${why.join("; ")}); there is no job completion time.`;
  }
  const throughputGbps = (r.servers ?? []).reduce((s, x) => s + x.tx_gbps, 0);
  return {
    verdict: missing === 0 ? "complete" : "incomplete",
    sentence,
    jobCompletionS: missing === 0 ? (r.job_completion_s ?? null) : null,
    meanFctS: f.fct_s.mean ?? null,
    p99FctS: f.fct_s.p99 ?? null,
    p99Slowdown: f.slowdown.p99 ?? null,
    throughputGbps,
    flows: f,
  };
}

/** uPlot's data: x then one array per series (null = no point). */
export type Series = [number[], ...(number | null)[][]];

/** Flow completion (mean, p99) and slowdown (p50, p99) per size bucket that has flows; x = bucket index. */
export function bySizeSeries(r: EngineResult): { labels: string[]; fct: Series; slowdown: Series } {
  const buckets = r.flows.by_size.filter((b) => b.fct_s.count > 0);
  const x = buckets.map((_, i) => i);
  const v = (s: Stats, k: "mean" | "p50" | "p99") => s[k] ?? null;
  return {
    labels: buckets.map((b) => b.bucket),
    fct: [x, buckets.map((b) => v(b.fct_s, "mean")), buckets.map((b) => v(b.fct_s, "p99"))],
    slowdown: [x, buckets.map((b) => v(b.slowdown, "p50")), buckets.map((b) => v(b.slowdown, "p99"))],
  };
}

/**
 * Link utilisation over time: per time bucket, the mean over every directed link and the busiest
 * link's; x in milliseconds (bucket starts). One pass over the links' series (100,000 links x 128
 * buckets is 12.8 M additions: no per-bucket arrays of links).
 */
export function utilisationSeries(r: EngineResult): Series | null {
  if (!r.links) return null;
  const series: number[][] = [];
  let n = 0;
  for (const l of r.links.links) {
    if (l.util && l.util.length > 0) {
      series.push(l.util);
      n = Math.max(n, l.util.length);
    }
  }
  if (series.length === 0) return null;
  const sum = new Float64Array(n);
  const peak = new Float64Array(n);
  for (const u of series) {
    u.forEach((x, k) => {
      sum[k] = (sum[k] ?? 0) + x;
      if (x > (peak[k] ?? 0)) peak[k] = x;
    });
  }
  const dt = r.links.interval_s * 1000;
  return [Array.from({ length: n }, (_, k) => k * dt), Array.from(sum, (s) => s / series.length), Array.from(peak)];
}

/**
 * The flow-completion distribution at the points the result gives (the engine keeps no per-flow
 * list): 50% by p50, 99% by p99, 100% by max. A step CDF through those points, x in ms.
 */
export function fctQuantiles(r: EngineResult): { x: number[]; y: number[] } {
  const s = r.flows.fct_s;
  const pts: [number | null | undefined, number][] = [
    [s.p50, 0.5],
    [s.p99, 0.99],
    [s.max, 1],
  ];
  const x: number[] = [];
  const y: number[] = [];
  for (const [v, q] of pts) {
    if (v == null) continue;
    x.push(v * 1000);
    y.push(q * (r.flows.finished / Math.max(1, r.flows.total)));
  }
  return { x, y };
}

/** Several CDFs on one x axis (the union of their x), each stepping at its own points. */
export function overlay(curves: readonly { x: number[]; y: number[] }[]): Series {
  const xs = [...new Set(curves.flatMap((c) => c.x))].sort((a, b) => a - b);
  const ys = curves.map((c) =>
    xs.map((x) => {
      let y: number | null = null;
      c.x.forEach((cx, i) => {
        if (cx <= x) y = c.y[i] ?? y;
      });
      return y ?? 0;
    }),
  );
  return [xs, ...ys];
}

/** One finished run, with what compare needs of its plan. */
export interface Run {
  id: number;
  planId: number;
  planName: string;
  /** The name without its seed: runs with the same one are the same workload and routing. */
  workload: string;
  seed: number | null;
  result: EngineResult;
  /** The plan's summary cost total (0 or less: unpriced). */
  cost: number;
  currency: string;
}

export function runOf(
  job: { id: number; name: string; plan_id: number | null; result?: unknown },
  plan: { name: string; cost: number; currency: string },
): Run {
  const { workload, seed } = splitName(job.name);
  return {
    id: job.id,
    planId: job.plan_id ?? 0,
    planName: plan.name,
    workload,
    seed,
    result: job.result as EngineResult,
    cost: plan.cost,
    currency: plan.currency,
  };
}

export interface CompareRow {
  planId: number;
  planName: string;
  runs: number;
  /** Runs whose flows did not all finish (no completion time): never counted as a result. */
  incomplete: number;
  /** Mean over the seeds that completed; null if none did. */
  jobCompletionS: number | null;
  /** Spread over seeds (min, max); equal to the mean with one seed. */
  jcSpread: [number, number] | null;
  meanFctS: number | null;
  p99FctS: number | null;
  /** Training steps (issue 31): the mean step time over the seeds; null when a run is not one or its step never ended. */
  stepTimeS: number | null;
  throughputGbps: number;
  /** Baseline job completion / this one (> 1: faster); null without both. */
  speedup: number | null;
  /** Baseline mean FCT / this one. */
  fctSpeedup: number | null;
  cost: number;
  currency: string;
  /** Cost per Gb/s of throughput; null when unpriced or nothing delivered. */
  costPerGbps: number | null;
  /** Speedup per unit of cost relative to the baseline (speedup x baseline cost / cost). */
  speedupPerCost: number | null;
  baseline: boolean;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The speedup table: one row per plan (its seeds averaged), against the baseline plan's row. */
export function compareRuns(runs: readonly Run[], baselinePlanId: number): CompareRow[] {
  const byPlan = new Map<number, [Run, ...Run[]]>();
  for (const r of runs) {
    const rs = byPlan.get(r.planId);
    if (rs) rs.push(r);
    else byPlan.set(r.planId, [r]);
  }
  const rows = [...byPlan].map(([planId, rs]): CompareRow => {
    const h = rs.map((r) => headline(r.result));
    const jcs = h.map((x) => x.jobCompletionS).filter((x): x is number => x !== null);
    const tput = mean(h.map((x) => x.throughputGbps)) ?? 0;
    const cost = rs[0].cost;
    const steps = rs.flatMap((r) => (r.result.training?.step_time_s != null ? [r.result.training.step_time_s] : []));
    return {
      planId,
      planName: rs[0].planName,
      runs: rs.length,
      incomplete: h.filter((x) => x.verdict === "incomplete").length,
      // A plan with any incomplete seed has no completion time: averaging the others would flatter it.
      jobCompletionS: jcs.length === rs.length ? mean(jcs) : null,
      jcSpread: jcs.length === rs.length && jcs.length ? [Math.min(...jcs), Math.max(...jcs)] : null,
      meanFctS: mean(h.map((x) => x.meanFctS).filter((x): x is number => x !== null)),
      p99FctS: mean(h.map((x) => x.p99FctS).filter((x): x is number => x !== null)),
      // as the completion time: a seed whose step never ended leaves the plan without one
      stepTimeS: steps.length === rs.length ? mean(steps) : null,
      throughputGbps: tput,
      speedup: null,
      fctSpeedup: null,
      cost,
      currency: rs[0].currency,
      costPerGbps: cost > 0 && tput > 0 ? cost / tput : null,
      speedupPerCost: null,
      baseline: planId === baselinePlanId,
    };
  });
  const base = rows.find((r) => r.baseline);
  for (const r of rows) {
    if (!base) break;
    r.speedup = base.jobCompletionS && r.jobCompletionS ? base.jobCompletionS / r.jobCompletionS : null;
    r.fctSpeedup = base.meanFctS && r.meanFctS ? base.meanFctS / r.meanFctS : null;
    r.speedupPerCost = r.speedup !== null && base.cost > 0 && r.cost > 0 ? (r.speedup * base.cost) / r.cost : null;
  }
  return rows.sort((a, b) => Number(b.baseline) - Number(a.baseline) || a.planId - b.planId);
}

/**
 * The Pareto frontier of (cost, time) points, both to be low: a point is on it when no other point
 * is at most as costly and at most as slow and better in one. Returned in order of cost.
 */
export function paretoFrontier<T extends { cost: number; time: number }>(points: readonly T[]): T[] {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || a.time - b.time);
  const out: T[] = [];
  let best = Infinity;
  for (const p of sorted) {
    if (p.time < best) {
      out.push(p);
      best = p.time;
    }
  }
  return out;
}

/** Seconds in the unit a person reads: µs, ms or s. */
export function formatSeconds(s: number | null | undefined): string {
  if (s == null) return "—";
  if (s < 1e-3) return `${(s * 1e6).toLocaleString("en", { maximumFractionDigits: 1 })} µs`;
  if (s < 1) return `${(s * 1e3).toLocaleString("en", { maximumFractionDigits: 2 })} ms`;
  return `${s.toLocaleString("en", { maximumFractionDigits: 3 })} s`;
}
