/**
 * Decomposed mode in the planner's words: what a decomposed result adds (`decomposition`: how many
 * links were simulated, clustered and idle, where the method is known to be weak, and its error
 * measured against full packet mode per flow-size bucket), its progress in links, and its cost
 * estimate. The result's section is read with a schema, so a result that breaks the engine's contract
 * says which field instead of drawing nonsense. Pure: tested in decomposed.test.ts.
 */
import { z } from "zod";
import { formatDuration } from "./packet";
import type { EngineResult, SizeBucket } from "./results";

const count = z.number().int().min(0);
const share = z.number().min(0);

const BucketAccuracy = z.object({
  bucket: z.string(),
  mean_slowdown_error: share,
  p99_slowdown_error: share,
});

/** The engine's `decomposition` section (p30 contract; sim-engine/README.md "Decomposed mode"). */
const DecompositionSchema = z.object({
  links_total: count,
  links_simulated: count,
  links_clustered: count,
  links_idle: count,
  cluster_threshold: z.number().min(0).max(1),
  link_events: count.optional(),
  warnings: z.array(z.string()),
  /** Absent until a calibration against packet mode has been run: every bucket is then "not measured". */
  accuracy: z
    .object({
      measured_on: z.array(z.string()),
      by_size: z.array(BucketAccuracy),
      source: z.string(),
    })
    .optional(),
});

export type Decomposition = z.infer<typeof DecompositionSchema>;
export type BucketAccuracy = z.infer<typeof BucketAccuracy>;

/** A JSON path as the API's errors write it: `decomposition.accuracy.by_size[2].bucket`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, k) => (typeof k === "number" ? `${s}[${k}]` : `${s}.${String(k)}`), "decomposition");
}

/**
 * A result's decomposition: null when it has none (flow and packet mode); an error naming the field
 * when the section is there but not as the engine's contract says.
 */
export function decompositionOf(
  result: unknown,
): { ok: true; value: Decomposition } | { ok: false; error: string } | null {
  if (typeof result !== "object" || result === null || !("decomposition" in result)) return null;
  const section = (result as { decomposition: unknown }).decomposition;
  if (section === null || section === undefined) return null;
  const parsed = DecompositionSchema.safeParse(section);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${pathText(issue?.path ?? [])}: ${issue?.message ?? "not as the engine writes it"}` };
}

/**
 * A measured relative error as a bound in whole percent, rounded up (12.1 % reads 13 %): the view
 * never states a smaller error than was measured. The epsilon keeps 0.07 (7.000000000000001 %) at 7.
 */
export function errorPercent(error: number): number {
  return Math.max(0, Math.ceil(error * 100 - 1e-9));
}

/** "p99 within ±12 % of packet mode (measured)". */
export function accuracyText(stat: "p99" | "mean", error: number): string {
  return `${stat} within ±${errorPercent(error)} % of packet mode (measured)`;
}

/** One flow-size bucket as the accuracy table shows it. */
export interface BucketRow {
  bucket: string;
  flows: number;
  meanSlowdown: number | null;
  p99Slowdown: number | null;
  /** The measured error of this bucket; null: not measured (say so rather than imply it is exact). */
  accuracy: BucketAccuracy | null;
}

/** The result's buckets that hold flows, each with the accuracy measured for its bucket name. */
export function bucketRows(buckets: readonly SizeBucket[], d: Decomposition): BucketRow[] {
  const measured = new Map((d.accuracy?.by_size ?? []).map((a) => [a.bucket, a]));
  return buckets
    .filter((b) => b.fct_s.count > 0) // as the charts (results.ts bySizeSeries): bar i is bucket i
    .map((b) => ({
      bucket: b.bucket,
      flows: b.fct_s.count,
      meanSlowdown: b.slowdown.mean ?? null,
      p99Slowdown: b.slowdown.p99 ?? null,
      accuracy: measured.get(b.bucket) ?? null,
    }));
}

/**
 * Where full packet mode's value lies, given the decomposed value `v` and the measured relative error
 * `e` (|v - packet| <= e x packet): packet in [v / (1 + e), v / (1 - e)]; no upper bound from e >= 1.
 */
export function packetRange(v: number, e: number): { lo: number; hi: number | null } {
  return { lo: v / (1 + e), hi: e < 1 ? v / (1 - e) : null };
}

/**
 * The slowdown chart's error bars: per bucket drawn (the buckets with flows, in the chart's order),
 * the range packet mode's p99 lies in by the measured p99 error; a bucket not measured has no bar
 * (NaN: the chart skips it).
 */
export function p99Bars(rows: readonly BucketRow[]): { lo: number[]; hi: number[] } {
  const lo: number[] = [];
  const hi: number[] = [];
  for (const r of rows) {
    const range =
      r.p99Slowdown !== null && r.accuracy ? packetRange(r.p99Slowdown, r.accuracy.p99_slowdown_error) : null;
    lo.push(range ? range.lo : NaN);
    hi.push(range ? (range.hi ?? NaN) : NaN);
  }
  return { lo, hi };
}

const n = (x: number) => x.toLocaleString("en");

/** The link counts in words: "312 simulated, 88 clustered, 804 idle of 1,204 directed links". */
export function linkCountsText(
  d: Pick<Decomposition, "links_simulated" | "links_clustered" | "links_idle" | "links_total">,
): string {
  return `${n(d.links_simulated)} simulated, ${n(d.links_clustered)} clustered, ${n(d.links_idle)} idle of ${n(d.links_total)} directed links`;
}

/** The cluster threshold in words: "links within 5 % of each other share one simulation" / none. */
export function clusterText(threshold: number): string {
  if (threshold === 0) return "no clustering: every busy link simulated";
  const pct = (threshold * 100).toLocaleString("en", { maximumFractionDigits: 1 });
  return `busy links within ${pct} % of each other in load, flow-size mix and burstiness share one simulation`;
}

/** A decomposed run's progress: "312 / 1,204 links simulated" (null until the engine has counted them). */
export function linksProgressText(job: { links_done?: number | null; links_total?: number | null }): string | null {
  if (job.links_total == null) return null;
  return `${n(job.links_done ?? 0)} / ${n(job.links_total)} links simulated`;
}

/**
 * A running decomposed job in words: planning (the engine routes every flow first), then the links
 * simulated, the batches they were split into over the workers, and the events so far:
 * "312 / 1,204 links simulated · 6 batches over the workers · 4,410,233 events".
 */
export function decomposedRunningText(job: {
  links_done?: number | null;
  links_total?: number | null;
  batches?: number | null;
  events?: number | null;
}): string {
  const links = linksProgressText(job);
  if (links === null) return "routing every flow to plan the link simulations";
  const parts = [links];
  if (job.batches != null) parts.push(`${n(job.batches)} batch${job.batches === 1 ? "" : "es"} over the workers`);
  if (job.events != null) parts.push(`${n(job.events)} events`);
  return parts.join(" · ");
}

/** Whether a result is decomposed mode's. */
export const isDecomposed = (r: Pick<EngineResult, "model"> | null | undefined): boolean => r?.model === "decomposed";

/** What the form shows of the API's estimate of a decomposed run (`/simulations/estimate`). */
export interface DecomposedCost {
  links_total: number;
  links_simulated: number;
  links_clustered: number;
  links_idle: number;
  /** Live workers the link simulations are spread over. */
  workers: number;
  /** Expected wall time per worker, seconds (planning, then its share of the link simulations). */
  wall_s: number;
}

/** "about 42 s per worker (2 workers alive)". */
export function decomposedEstimateText(e: Pick<DecomposedCost, "wall_s" | "workers">): string {
  const alive =
    e.workers === 0 ? "no worker alive: it waits for one" : `${n(e.workers)} worker${e.workers === 1 ? "" : "s"} alive`;
  return `about ${formatDuration(e.wall_s)} per worker (${alive})`;
}

/** "312 links to simulate, 88 clustered, 804 idle of 1,204 directed links". */
export function decomposedLinksText(e: Omit<DecomposedCost, "wall_s" | "workers">): string {
  return `${n(e.links_simulated)} link${e.links_simulated === 1 ? "" : "s"} to simulate, ${n(e.links_clustered)} clustered, ${n(e.links_idle)} idle of ${n(e.links_total)} directed links`;
}
