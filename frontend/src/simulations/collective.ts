/**
 * GPU cluster results (issue 31), pure: a run's `collective` and `training` objects as shown, and a
 * message-size sweep's points as nccl-tests' table and bus-bandwidth chart. Every figure is the
 * engine's (algbw and busbw as nccl-tests defines them, in Gb/s); nothing here recomputes one, it only
 * converts units for reading (GB/s = Gb/s / 8, as nccl-tests prints) and orders the points.
 * Tested in collective.test.ts.
 */
import type { CollectiveReport, TrainingReport } from "../api/engineResult";
import type { EngineResult, Series } from "./results";

export type { TrainingReport };

const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** The run's collective object (the engine's own fields). */
export function collectiveOf(r: EngineResult): CollectiveReport | null {
  return r.collective ?? null;
}

/** The run's training-step object, or null when the run was not a training step. */
export function trainingOf(r: EngineResult): TrainingReport | null {
  return r.training ?? null;
}

/** The exposed communication as a share of the mean step (0..1); null without both. */
export function exposedShare(t: TrainingReport): number | null {
  return t.exposed_communication_s != null && t.step_time_s ? t.exposed_communication_s / t.step_time_s : null;
}

/** `372.5 Gb/s (46.56 GB/s)`: the engine's Gb/s, and nccl-tests' GB/s (bytes) beside it. */
export function formatBandwidth(gbps: number | null | undefined): string {
  if (gbps == null) return "—";
  const gb = (x: number) => x.toLocaleString("en", { maximumFractionDigits: x < 10 ? 2 : 1 });
  return `${gb(gbps)} Gb/s (${gb(gbps / 8)} GB/s)`;
}

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/** Bytes in binary units as message sizes are given: 1 MiB, 256 MiB, 4 GiB; 1.5 MiB when not whole. */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u += 1;
  }
  return `${v.toLocaleString("en", { maximumFractionDigits: 2 })} ${UNITS[u]}`;
}

/** A collective sweep's x axis: 1 MiB (2^20) to 4 GiB (2^32), as log2 of the message size (the sizes
 * themselves are the server's sweep preset's). */
export const SWEEP_LOG2_RANGE: [number, number] = [20, 32];

/** A sweep point as the API reads it: its parameters, state and figures. */
export interface SweepPointLike {
  index: number;
  status: string;
  params: Record<string, unknown>;
  figures?: Record<string, unknown> | null;
  error?: string | null;
}

/** One line of the nccl-tests-like table: one message size. */
export interface BusBwRow {
  index: number;
  bytes: number;
  status: string;
  timeS: number | null;
  algbwGbps: number | null;
  busbwGbps: number | null;
  error: string | null;
}

/** The point's collective figures (`figures.collective`), or null when it has none (yet). */
function collectiveFigures(p: SweepPointLike): Record<string, unknown> | null {
  const c = p.figures?.collective;
  return c && typeof c === "object" ? (c as Record<string, unknown>) : null;
}

/** Whether a sweep is over message sizes of a collective: some point carries collective figures. */
export function isCollectiveSweep(points: readonly SweepPointLike[]): boolean {
  return points.some((p) => collectiveFigures(p) !== null);
}

/**
 * The table's rows, one per point with a message size, smallest first. The size is the collective's
 * own `bytes` when reported, else the point's `bytes` parameter; a point still running has no figures.
 */
export function busBwRows(points: readonly SweepPointLike[]): BusBwRow[] {
  const rows: BusBwRow[] = [];
  for (const p of points) {
    const c = collectiveFigures(p);
    const bytes = num(c?.bytes) ?? num(p.params.bytes);
    if (bytes === null) continue;
    rows.push({
      index: p.index,
      bytes,
      status: p.status,
      timeS: num(c?.time_s),
      algbwGbps: num(c?.algbw_gbps),
      busbwGbps: num(c?.busbw_gbps),
      error: p.error ?? null,
    });
  }
  return rows.sort((a, b) => a.bytes - b.bytes || a.index - b.index);
}

/**
 * The chart: x = log2 of the message size (one step per doubling, as nccl-tests' sizes go), y = bus
 * and algorithm bandwidth in Gb/s; a size without figures is a gap. Sizes given twice (several seeds)
 * are averaged over those with a figure.
 */
export function busBwSeries(rows: readonly BusBwRow[]): Series {
  const bySize = new Map<number, BusBwRow[]>();
  for (const r of rows) bySize.set(r.bytes, [...(bySize.get(r.bytes) ?? []), r]);
  const sizes = [...bySize.keys()].sort((a, b) => a - b);
  const avg = (rs: readonly BusBwRow[], k: "busbwGbps" | "algbwGbps") => {
    const xs = rs.flatMap((r) => (r[k] === null ? [] : [r[k]]));
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
  };
  return [
    sizes.map(Math.log2),
    sizes.map((s) => avg(bySize.get(s) ?? [], "busbwGbps")),
    sizes.map((s) => avg(bySize.get(s) ?? [], "algbwGbps")),
  ];
}

/** The x axis' label at log2 value `v`: the size it stands for (`1 MiB` at 20), none between doublings. */
export function log2SizeLabel(v: number): string {
  return Number.isInteger(v) ? formatBytes(2 ** v) : "";
}
