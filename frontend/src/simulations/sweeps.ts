/**
 * Sweeps (pure: tested in sweeps.test.ts): the grid a planner types (a parameter and its values),
 * and the points as they arrive turned into table rows, chart series and the cost/time Pareto
 * frontier. The parameters are the API's (backend services/sweeps.py PARAMETERS).
 */
import type { components } from "../api/schema";
import { paretoFrontier, type Series } from "./results";

export type SweepDetail = components["schemas"]["SweepDetail"];
export type SweepPoint = components["schemas"]["SweepPointRead"];
export type SweepRead = components["schemas"]["SweepRead"];
/** The port speeds (Gb/s) a hall's devices run: the values `server_gbps` and `fabric_gbps` may take. */
export type PortSpeeds = components["schemas"]["PortSpeedOptions"];

export const SWEEP_PARAMS = [
  { key: "pattern", label: "wiring pattern", kind: "text" },
  { key: "ports", label: "p: server ports wired", kind: "int" },
  { key: "loop", label: "l: logical racks per loop", kind: "int" },
  { key: "clusters", label: "c: clusters", kind: "int" },
  { key: "uplinks_per_tor", label: "uplinks per ToR (oversubscription)", kind: "int" },
  { key: "server_gbps", label: "server port speed, Gb/s (NIC, ToR downlink)", kind: "speed" },
  { key: "fabric_gbps", label: "fabric port speed, Gb/s (ToR uplink, spine)", kind: "speed" },
  { key: "job_racks", label: "job size (logical racks)", kind: "int" },
  { key: "bytes", label: "bytes per pair or flow", kind: "int" },
  { key: "load", label: "load (background traffic)", kind: "number" },
  { key: "flows", label: "flows drawn (background traffic)", kind: "int" },
  { key: "seed", label: "seed", kind: "int" },
  { key: "routing", label: "routing", kind: "text" },
  { key: "workload", label: "workload", kind: "text" },
] as const;
export type SweepParam = (typeof SWEEP_PARAMS)[number]["key"];

export class GridError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const SPEED_WORDS: Partial<Record<SweepParam, string>> = { server_gbps: "server", fabric_gbps: "fabric" };

/** What a speed parameter may take on this hall, in words: `10, 25 Gb/s`. */
export function speedChoices(param: SweepParam, speeds: PortSpeeds | null): string | null {
  if (!speeds || !(param === "server_gbps" || param === "fabric_gbps")) return null;
  const values = speeds[param];
  return values.length ? `${values.join(", ")} Gb/s` : "none";
}

/**
 * `2, 4, 8` -> [2, 4, 8] for a numeric parameter; `single-homed, side-to-side` for a text one; `25G, 50`
 * -> [25, 50] for a port speed, which must be one the hall's devices run (`speeds`, when known).
 */
export function parseValues(param: SweepParam, text: string, speeds: PortSpeeds | null = null): (string | number)[] {
  const spec = SWEEP_PARAMS.find((p) => p.key === param);
  const parts = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!spec || parts.length === 0) throw new GridError(param, "give one or more values, separated by commas");
  const out = parts.map((s) => {
    if (spec.kind === "text") return s;
    const n = Number(spec.kind === "speed" ? s.replace(/\s*G(b\/s)?$/i, "") : s);
    if (!Number.isFinite(n) || (spec.kind === "int" && !Number.isInteger(n)) || (spec.kind === "speed" && n <= 0))
      throw new GridError(
        param,
        `"${s}" is not ${{ int: "a whole number", number: "a number", speed: "a speed in Gb/s" }[spec.kind]}`,
      );
    if (spec.kind === "speed" && speeds && !speeds[param as keyof PortSpeeds].includes(n))
      throw new GridError(
        param,
        `this hall's devices cannot run ${SPEED_WORDS[param]} links at ${n} Gb/s (they run ${speedChoices(param, speeds)})`,
      );
    return n;
  });
  if (new Set(out).size !== out.length) throw new GridError(param, "a value is given twice");
  return out;
}

/** The grid of the rows the form holds; the points are every combination (at most 200, the API's limit). */
export function gridOf(
  rows: readonly { param: SweepParam; values: string }[],
  speeds: PortSpeeds | null = null,
): Record<string, (string | number)[]> {
  const grid: Record<string, (string | number)[]> = {};
  for (const r of rows) {
    if (r.param in grid) throw new GridError(r.param, "varied twice: one row per parameter");
    grid[r.param] = parseValues(r.param, r.values, speeds);
  }
  const points = Object.values(grid).reduce((n, v) => n * v.length, 1);
  if (Object.keys(grid).length === 0) throw new GridError("grid", "vary at least one parameter");
  if (points > 200) throw new GridError("grid", `${points} points: at most 200`);
  return grid;
}

export interface PointRow {
  index: number;
  /** The varied parameters of this point, in words: `pattern=side-to-side, ports=2`. */
  label: string;
  status: SweepPoint["status"];
  cost: number | null;
  currency: string;
  jobCompletionS: number | null;
  meanFctS: number | null;
  outcome: string | null;
  stalled: number;
  error: string | null;
  pareto: boolean;
}

const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);

/** The table: one row per point in grid order; the frontier = cheapest for its time among finished, complete points. */
export function pointRows(sweep: Pick<SweepDetail, "grid" | "points">): PointRow[] {
  // In the form's parameter order: the stored grid's keys come back in the database's order (JSONB), not the submitted one.
  const rank = (k: string) => SWEEP_PARAMS.findIndex((p) => p.key === k) >>> 0;
  const keys = Object.keys(sweep.grid).sort((a, b) => rank(a) - rank(b));
  const rows = sweep.points.map((p): PointRow => {
    const f = (p.figures ?? {}) as Record<string, unknown>;
    const complete = f.outcome === "complete";
    return {
      index: p.index,
      label: keys.map((k) => `${k}=${String(p.params[k])}${k in SPEED_WORDS ? "G" : ""}`).join(", "),
      status: p.status,
      cost: num(f.cost_total),
      currency: typeof f.currency === "string" ? f.currency : "",
      // A partial point has no completion time: plotting its last finished flow would flatter it.
      jobCompletionS: complete ? num(f.job_completion_s) : null,
      meanFctS: num(f.fct_mean_s),
      outcome: typeof f.outcome === "string" ? f.outcome : null,
      stalled: num(f.stalled_flows) ?? 0,
      error: p.error,
      pareto: false,
    };
  });
  const candidates = rows.flatMap((r) =>
    r.cost !== null && r.jobCompletionS !== null ? [{ index: r.index, cost: r.cost, time: r.jobCompletionS }] : [],
  );
  const front = new Set(paretoFrontier(candidates).map((p) => p.index));
  for (const r of rows) r.pareto = front.has(r.index);
  return rows;
}

/** Cost (x) against job completion in ms: every point, and the frontier as a line through its points. */
export function costTimeSeries(rows: readonly PointRow[]): Series {
  const pts = rows
    .flatMap((r) =>
      r.cost !== null && r.jobCompletionS !== null
        ? [{ cost: r.cost, ms: r.jobCompletionS * 1000, pareto: r.pareto }]
        : [],
    )
    .sort((a, b) => a.cost - b.cost || a.ms - b.ms);
  return [pts.map((p) => p.cost), pts.map((p) => p.ms), pts.map((p) => (p.pareto ? p.ms : null))];
}
