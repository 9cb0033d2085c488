/**
 * Sweeps (pure: tested in sweeps.test.ts): the grid a planner types (a parameter and its values),
 * and the points as they arrive turned into table rows, configurations (seeds averaged), chart series
 * and the cost/time Pareto frontier of the configurations. The parameters are the API's (backend services/sweeps.py PARAMETERS).
 */
import type { components } from "../api/schema";
import { paretoFrontier, type Series } from "./results";

export type SweepDetail = components["schemas"]["SweepDetail"];
export type SweepPoint = components["schemas"]["SweepPointRead"];
export type SweepRead = components["schemas"]["SweepRead"];
/** The port speeds (Gb/s) a hall's devices run: the values `server_gbps` and `fabric_gbps` may take. */
export type PortSpeeds = components["schemas"]["PortSpeedOptions"];
export type SweepPreset = components["schemas"]["SweepPresetRead"];
export type SweepCreate = components["schemas"]["SweepCreate"];

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
  // GPU clusters (issue 31): the rail patterns' options and the GPU presets' parameters
  { key: "su_size", label: "servers per SU (rail patterns)", kind: "int" },
  { key: "rail_leaf_model_id", label: "rail leaf switch model id (rail patterns)", kind: "int" },
  { key: "oversubscription", label: "rail leaf oversubscription (rail-optimized)", kind: "number" },
  { key: "op", label: "collective operation", kind: "text" },
  { key: "algorithm", label: "collective algorithm", kind: "text" },
  { key: "gpus", label: "GPUs in the job (0: every GPU)", kind: "int" },
  { key: "placement", label: "job placement", kind: "text" },
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
  /** Its configuration: the varied parameters but the seed (`ConfigRow.key`). */
  config: string;
  status: SweepPoint["status"];
  cost: number | null;
  currency: string;
  jobCompletionS: number | null;
  meanFctS: number | null;
  outcome: string | null;
  stalled: number;
  error: string | null;
  /** Its configuration is on the frontier. */
  pareto: boolean;
}

/**
 * One design: the points of a configuration (every varied parameter but the seed), its seeds averaged.
 * A seed is a draw of the workload, not a design: the frontier is decided between configurations on
 * their mean job completion, with the seeds' spread (min..max) shown as an error bar.
 */
export interface ConfigRow {
  key: string;
  /** The varied parameters but the seed, in words; `all points` when only the seed varies. */
  label: string;
  /** Points of the configuration, and those finished complete (averaged). */
  points: number;
  seeds: number;
  /** Seeds whose flows did not all finish: such a configuration is never on the frontier. */
  partialSeeds: number;
  /** Mean cost of its finished points (the seed does not change the design: one value). */
  cost: number | null;
  currency: string;
  meanJobS: number | null;
  minJobS: number | null;
  maxJobS: number | null;
  pareto: boolean;
}

const num = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) ? x : null);
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

function variedKeys(sweep: Pick<SweepDetail, "grid">): string[] {
  // In the form's parameter order: the stored grid's keys come back in the database's order (JSONB), not the submitted one.
  const rank = (k: string) => SWEEP_PARAMS.findIndex((p) => p.key === k) >>> 0;
  return Object.keys(sweep.grid).sort((a, b) => rank(a) - rank(b));
}

function words(keys: readonly string[], params: Record<string, unknown>): string {
  return keys.map((k) => `${k}=${String(params[k])}${k in SPEED_WORDS ? "G" : ""}`).join(", ");
}

/** One row per point in grid order, each marked with whether its configuration is on the frontier. */
export function pointRows(sweep: Pick<SweepDetail, "grid" | "points">): PointRow[] {
  const keys = variedKeys(sweep);
  const rows = sweep.points.map((p): PointRow => {
    const f = (p.figures ?? {}) as Record<string, unknown>;
    const complete = f.outcome === "complete";
    return {
      index: p.index,
      label: words(keys, p.params),
      config: words(
        keys.filter((k) => k !== "seed"),
        p.params,
      ),
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
  const front = new Set(
    configRows(rows)
      .filter((c) => c.pareto)
      .map((c) => c.key),
  );
  for (const r of rows) r.pareto = front.has(r.config);
  return rows;
}

/**
 * The configurations of the points, in order of their first point: seeds averaged, and the frontier
 * (cheapest for its mean time) among those whose every finished seed is complete.
 */
export function configRows(points: readonly PointRow[]): ConfigRow[] {
  const groups = new Map<string, PointRow[]>();
  for (const p of points) groups.set(p.config, [...(groups.get(p.config) ?? []), p]);
  const rows = [...groups].map(([key, ps]): ConfigRow => {
    const done = ps.filter((p) => p.status === "succeeded");
    const times = done.flatMap((p) => (p.jobCompletionS !== null ? [p.jobCompletionS] : []));
    const costs = done.flatMap((p) => (p.cost !== null ? [p.cost] : []));
    return {
      key,
      label: key || "all points",
      points: ps.length,
      seeds: times.length,
      partialSeeds: done.filter((p) => p.outcome === "partial").length,
      cost: costs.length ? mean(costs) : null,
      currency: done.find((p) => p.currency)?.currency ?? "",
      meanJobS: times.length ? mean(times) : null,
      minJobS: times.length ? Math.min(...times) : null,
      maxJobS: times.length ? Math.max(...times) : null,
      pareto: false,
    };
  });
  const candidates = rows.flatMap((c) =>
    c.cost !== null && c.meanJobS !== null && c.partialSeeds === 0
      ? [{ key: c.key, cost: c.cost, time: c.meanJobS }]
      : [],
  );
  const front = new Set(paretoFrontier(candidates).map((c) => c.key));
  for (const c of rows) c.pareto = front.has(c.key);
  return rows;
}

/**
 * Cost (x) against mean job completion in ms, one point per configuration; the frontier as a line
 * through its points; the seeds' spread as error bars (`lo`, `hi`, aligned with x).
 */
export function costTimeSeries(configs: readonly ConfigRow[]): { data: Series; lo: number[]; hi: number[] } {
  const pts = configs
    .flatMap((c) =>
      c.cost !== null && c.meanJobS !== null && c.minJobS !== null && c.maxJobS !== null
        ? [{ cost: c.cost, ms: c.meanJobS * 1000, lo: c.minJobS * 1000, hi: c.maxJobS * 1000, pareto: c.pareto }]
        : [],
    )
    .sort((a, b) => a.cost - b.cost || a.ms - b.ms);
  return {
    data: [pts.map((p) => p.cost), pts.map((p) => p.ms), pts.map((p) => (p.pareto ? p.ms : null))],
    lo: pts.map((p) => p.lo),
    hi: pts.map((p) => p.hi),
  };
}

/** The rail options of a sweep's plans (every point's plan of a GPU hall is wired with them). */
export interface RailChoice {
  suSize: string;
  leafModelId: number | null;
  /** Rail-optimized only; "" = the server's 1:1. */
  oversubscription: string;
}

/** The workload parameters a preset sweep passes to its preset: those the API's sweeps take (services/sweeps.py). */
export const PRESET_SWEEP_PARAMS: readonly string[] = [
  "job_racks",
  "load",
  "flows",
  "op",
  "algorithm",
  "gpus",
  "placement",
];

/**
 * The rail options in a sweep's base (every point's rail plan is wired with them): SU size and leaf
 * model, and the leaves' ratio for rail-optimized (rail-only has no spine, and the server refuses one).
 */
export function railBase(pattern: string, rail: RailChoice): Record<string, number> {
  const su = Number(rail.suSize);
  if (rail.suSize === "" || !Number.isInteger(su) || su < 1)
    throw new GridError("su_size", "servers per SU: give a whole number of 1 or more");
  if (rail.leafModelId === null)
    throw new GridError("rail_leaf_model_id", "choose the switch model of the rail leaves");
  const out: Record<string, number> = { su_size: su, rail_leaf_model_id: rail.leafModelId };
  if (pattern === "rail-optimized" && rail.oversubscription !== "") {
    const ratio = Number(rail.oversubscription);
    if (!(Number.isFinite(ratio) && ratio > 0))
      throw new GridError("oversubscription", "oversubscription: give a ratio above 0 (1 = non-blocking)");
    out.oversubscription = ratio;
  }
  return out;
}

/** Whether a sweep's plans are rail plans: its base pattern, or a pattern the grid varies over, is one. */
export function needsRail(pattern: string, grid: Readonly<Record<string, readonly unknown[]>>): boolean {
  const rail = (p: unknown) => p === "rail-optimized" || p === "rail-only";
  return rail(pattern) || (grid.pattern ?? []).some(rail);
}

/**
 * A sweep picked by name (the collective sweep): its own base and grid as the server gives them, with
 * the planner's pattern, rail options and workload parameters in the base beside them. The preset's own
 * settings win (its workload, its varied axis); a parameter the grid varies is not also put in the base.
 */
export function presetSweepBody(
  preset: SweepPreset,
  name: string,
  pattern: string,
  rail: RailChoice | null,
  params: Readonly<Record<string, unknown>>,
): SweepCreate {
  const base: Record<string, unknown> = { pattern, ...(rail ? railBase(pattern, rail) : {}) };
  for (const [k, v] of Object.entries(params)) if (PRESET_SWEEP_PARAMS.includes(k) && !(k in preset.grid)) base[k] = v;
  return { name, base: { ...base, ...preset.base }, grid: preset.grid };
}
