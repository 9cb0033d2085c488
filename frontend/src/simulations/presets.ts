/**
 * Workload presets as the server serves them (`GET /simulation-presets`, owner: the backend's
 * domain/scenario.py), the form's values of their parameters, and the simulation requests they become
 * (pure: tested in presets.test.ts). The server builds the engine workload from `{preset, params,
 * racks}`: nothing here knows how a preset turns into flows, nor any default the table does not give.
 */
import type { components } from "../api/schema";
import type { PickSet } from "../state/floorPick";
import { formatBytes } from "./collective";

export type PlanSimulationCreate = components["schemas"]["PlanSimulationCreate"];
export type Preset = components["schemas"]["SimulationPresetRead"];
export type PresetParam = components["schemas"]["PresetParamRead"];
export type RackSet = components["schemas"]["RackSetRead"];
export type PresetTable = components["schemas"]["SimulationPresets"];

/** A logical rack of the plan: its name and its servers' node ids (the scenario's `logical_rack`). */
export interface LogicalRack {
  name: string;
  servers: string[];
}

/** A form field as shown: a number in the field's display unit (NaN while empty), a choice, a flag. */
export type Shown = number | string | boolean;
export type ShownValues = Readonly<Record<string, Shown>>;
/** A request's `params`: in the table's units (bytes, logical racks, ...). */
export type ParamValues = Record<string, number | string | boolean>;

export const ROUTINGS = [
  { type: "ecmp", label: "ECMP", explain: "One shortest path per flow, picked by a hash." },
  {
    type: "adaptive",
    label: "Adaptive",
    explain:
      "Each flow picks its ToRs at random, weighted by the spare capacity their counters showed (read every 10 ms).",
  },
  {
    type: "least_work",
    label: "Least work",
    explain:
      "Each flow takes the path with the least queued work (knows flow sizes, as hosts do not); a controller rebalances.",
  },
  { type: "detour", label: "Least work + detours", explain: "Least work, and hot racks borrow a neighbour's ToR." },
  { type: "vlb", label: "VLB", explain: "Each flow bounces off a random top switch (Valiant)." },
  { type: "grin", label: "GRIN multipath", explain: "Direct path plus paths through GRIN neighbours." },
] as const;
export type RoutingType = (typeof ROUTINGS)[number]["type"];

/** A refusal that names the form field, as the API's are. */
export class PresetError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const scaleOf = (p: PresetParam) => p.display_scale || 1;

/** The form's first values of a preset: the table's defaults, in display units (NaN: none known, the engine's own applies). */
export function defaultsOf(preset: Preset): Record<string, Shown> {
  return Object.fromEntries(
    preset.params.map((p) => {
      const d = p.default;
      if (p.kind === "boolean") return [p.name, d === true];
      // A choice without a default is the engine's to make, a node without one is none ("": left out of the request).
      if (p.kind === "choice" || p.kind === "node") return [p.name, typeof d === "string" ? d : ""];
      return [p.name, typeof d === "number" ? d / scaleOf(p) : NaN];
    }),
  );
}

/**
 * The request's `params` from the form: every field in the table's units. The checks mirror the
 * table (kind, bounds) and word their refusals as the server does; an empty number field with no
 * default in the table is left out, for the engine's own default.
 */
export function paramsOf(preset: Preset, shown: ShownValues): ParamValues {
  const out: ParamValues = {};
  for (const p of preset.params) {
    const v = shown[p.name];
    if (p.kind === "boolean" || p.kind === "choice" || p.kind === "node") {
      if (v !== undefined && v !== "") out[p.name] = v;
      continue;
    }
    if (typeof v !== "number" || Number.isNaN(v)) {
      if (p.default === null) continue;
      throw new PresetError(p.name, p.kind === "integer" ? "must be a whole number" : "must be a number");
    }
    // a scaled whole number (MB of bytes) is rounded to the unit; an unscaled one must be whole
    const x = p.kind === "integer" && scaleOf(p) !== 1 ? Math.round(v * scaleOf(p)) : v * scaleOf(p);
    if (p.kind === "integer" && !Number.isInteger(x)) throw new PresetError(p.name, `must be a whole number, got ${x}`);
    if (p.minimum !== null && (p.exclusive_minimum ? x <= p.minimum : x < p.minimum))
      throw new PresetError(p.name, `must be ${p.exclusive_minimum ? "more than" : "at least"} ${p.minimum}`);
    if (p.maximum !== null && x > p.maximum) throw new PresetError(p.name, `must be at most ${p.maximum}`);
    out[p.name] = x;
  }
  return out;
}

/** Racks chosen by name (on the floor or from the list), per set; an empty or missing set uses the counts. */
export type PickedRacks = Partial<Record<PickSet, readonly string[]>>;

const has = (xs: readonly string[] | undefined): xs is readonly string[] => xs !== undefined && xs.length > 0;
const num = (x: unknown) =>
  typeof x === "number" ? x.toLocaleString("en", { maximumFractionDigits: 3 }) : String(x ?? "default");

/** Each preset's words in a job's name; a preset the editor has no words for is named by its values. */
const LABELS: Record<string, (v: Readonly<Record<string, unknown>>, picked: PickedRacks) => string> = {
  shuffle: (v, picked) => `shuffle ${where(v, picked)} × ${mb(v.bytes)} MB`,
  permutation: (v, picked) => `permutation ${where(v, picked)} × ${mb(v.bytes)} MB`,
  "all-to-all": (v, picked) => `all-to-all ${where(v, picked)} × ${mb(v.bytes)} MB`,
  "many-to-many": (v, picked) => {
    const a = picked.senders?.length || v.sender_racks;
    const b = picked.receivers?.length || v.receiver_racks;
    const chosen = has(picked.senders) || has(picked.receivers) ? " chosen" : "";
    return `rack-to-rack ${num(a)}→${num(b)}${chosen} × ${mb(v.bytes)} MB`;
  },
  poisson: (v, picked) =>
    `background ${String(v.cdf)} at ${num((v.load as number) * 100)}% × ${num(v.flows)} flows${
      (v.job_racks as number) > 0 || has(picked.job) ? ` on ${where(v, picked)}` : ""
    }${v.inter_rack_only === true ? " inter-rack" : ""}`,
  incast: (v) => `incast ${num(v.fan_in)}→1 × ${kb(v.bytes)} KB, ${num(v.queries)} at ${num(v.rate_per_s)}/s`,
  collective: (v) =>
    `${words(v.op)}${v.algorithm ? ` ${String(v.algorithm)}` : ""}${v.model ? ` ${String(v.model)}` : ""} ${size(v.bytes)} on ${gpus(v)}${
      v.iterations !== undefined && v.iterations !== 1 ? ` × ${num(v.iterations)}` : ""
    }`,
  "training-step": (v) => {
    const how = [v.algorithm, v.model].filter(Boolean).map(String).join(" ");
    const times = v.iterations !== undefined && v.iterations !== 1 ? ` × ${num(v.iterations)}` : "";
    return `training step ${mb(v.bytes)} MB gradients in ${mb(v.bucket_bytes)} MB buckets${how ? `, ${how}` : ""} on ${gpus(
      v,
    )}${times}${v.failed ? `, ${String(v.failed)} down` : ""}`;
  },
  memcache: (v, picked) => {
    const n = picked.cache?.length || (v.cache_racks as number);
    return `memcache ${n}${has(picked.cache) ? " chosen" : ""} cache rack${n === 1 ? "" : "s"}, ${num(v.request_bytes)} B / ${kb(v.response_bytes)} KB, ${num(v.latency_bound_us)} µs`;
  },
};
/** `all_reduce` -> `all-reduce`: NCCL's names as the table's choices word them. */
const words = (x: unknown) => String(x ?? "").replaceAll("_", "-");
/** A message size in binary units (nccl-tests' sizes are powers of two): `1 GiB`, `256 MiB`. */
const size = (bytes: unknown) => (typeof bytes === "number" ? formatBytes(bytes) : String(bytes));
/** The job's GPUs in words: `every GPU`, `32 GPUs packed`. */
const gpus = (v: Readonly<Record<string, unknown>>) =>
  !v.gpus ? "every GPU" : `${num(v.gpus)} GPUs${v.placement ? ` ${String(v.placement)}` : ""}`;
const mb = (bytes: unknown) => num(typeof bytes === "number" ? bytes / 1e6 : bytes);
const kb = (bytes: unknown) => num(typeof bytes === "number" ? bytes / 1e3 : bytes);
function where(v: Readonly<Record<string, unknown>>, picked: PickedRacks): string {
  const job = picked.job?.length ?? 0;
  if (job > 0) return `${job} chosen rack${job === 1 ? "" : "s"}`;
  const n = v.job_racks as number;
  return `${num(n)} rack${n === 1 ? "" : "s"}${v.placement === "spread" && n > 1 ? " spread" : ""}`;
}

/**
 * The workload in words, the same for every plan and seed: runs with the same label are comparable.
 * Values left out are the table's defaults; chosen racks are counted and said to be chosen.
 */
export function workloadLabel(preset: Preset, params: ParamValues, picked: PickedRacks = {}): string {
  const v: Record<string, unknown> = {
    ...Object.fromEntries(preset.params.map((p) => [p.name, p.default])),
    ...params,
  };
  const words = LABELS[preset.name];
  if (words) return words(v, picked);
  return `${preset.name} ${preset.params.map((p) => `${p.name}=${num(v[p.name])}`).join(" ")}`;
}

/** `1, 2, 5..7` -> [1, 2, 5, 6, 7] (distinct, in order given). */
export function parseSeeds(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(",").map((s) => s.trim())) {
    if (!part) continue;
    const range = /^(\d+)\s*\.\.\s*(\d+)$/.exec(part);
    const [lo, hi] = range
      ? [Number(range[1]), Number(range[2])]
      : /^\d+$/.test(part)
        ? [Number(part), Number(part)]
        : [NaN, NaN];
    if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || hi < lo)
      throw new PresetError("seeds", `"${part}" is not a seed (whole numbers, or a range like 1..5)`);
    for (let s = lo; s <= hi; s++) if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0) throw new PresetError("seeds", "give at least one seed");
  if (out.length > 20) throw new PresetError("seeds", "at most 20 seeds per submission");
  return out;
}

/** The job's name: workload, routing, seed. Compare groups runs by everything before the seed. */
export function jobName(label: string, routing: RoutingType, seed: number): string {
  const r = ROUTINGS.find((x) => x.type === routing)?.label ?? routing;
  return `${label} · ${r} · seed ${seed}`;
}

/** `shuffle 2 racks × 15 MB · ECMP · seed 3` -> its workload and routing, and the seed. */
export function splitName(name: string): { workload: string; seed: number | null } {
  const m = / · seed (\d+)$/.exec(name);
  return m ? { workload: name.slice(0, m.index), seed: Number(m[1]) } : { workload: name, seed: null };
}

/**
 * A switch (`node`: a ToR, a spine, ...) or a cable (`link`: the plan's cable ID, the engine's link id)
 * that goes down during the run, and comes back if `recoverMs` is set.
 */
export interface Failure {
  node?: string;
  link?: string;
  atMs: number;
  recoverMs: number | null;
}

/** The engine's `failures` entry of a failure (times in seconds). */
export function failureSpec(f: Failure): Record<string, unknown> {
  if (!(f.atMs >= 0)) throw new PresetError("failAtMs", "must be 0 or more");
  if (f.recoverMs !== null && !(f.recoverMs > f.atMs))
    throw new PresetError("failAtMs", "the recovery must come after the failure");
  const what = f.link !== undefined ? { link: f.link } : { node: f.node };
  return { ...what, at_s: f.atMs / 1000, ...(f.recoverMs !== null ? { recover_at_s: f.recoverMs / 1000 } : {}) };
}

/** A failure in the job's name: `<node> down at 5 ms`, `cable <id> down at 5 ms`. */
export const failureLabel = (f: Failure): string =>
  `${f.link !== undefined ? `cable ${f.link}` : f.node} down at ${f.atMs} ms`;

/** One request per seed, for one plan (the same for every plan of a like-for-like comparison). */
export function requestsFor(
  preset: Preset,
  params: ParamValues,
  routing: RoutingType,
  seeds: readonly number[],
  failure: Failure | readonly Failure[] | null = null,
  picked: PickedRacks = {},
): PlanSimulationCreate[] {
  const list: readonly Failure[] = failure === null ? [] : "atMs" in failure ? [failure] : failure;
  const failures = list.map(failureSpec);
  const label = workloadLabel(preset, params, picked) + (list.length ? ` · ${list.map(failureLabel).join(", ")}` : "");
  const chosen = Object.fromEntries(
    Object.entries(picked).flatMap(([set, names]) => (has(names) ? [[set, [...names]]] : [])),
  );
  return seeds.map((seed) => ({
    name: jobName(label, routing, seed),
    preset: preset.name,
    params,
    racks: Object.keys(chosen).length ? chosen : null,
    routing: { type: routing },
    engine: { seed, stop_time_s: null, failures },
    mode: "flow",
  }));
}

/**
 * The plan's switches that can fail, in the scenario's order: every node but the servers (a GPU
 * server's ranks included) and a GPU server's internal interconnect, which is part of the server.
 */
export function switchesOfNetwork(nodes: readonly { id: string; role: string }[]): { id: string; role: string }[] {
  return nodes.filter((n) => n.role !== "server" && n.role !== "interconnect").map((n) => ({ id: n.id, role: n.role }));
}

/** The plan's logical racks in layout order, from its scenario's server nodes. */
export function racksOfNetwork(
  nodes: readonly { id: string; role: string; logical_rack?: string | null }[],
): LogicalRack[] {
  const byName = new Map<string, string[]>();
  for (const n of nodes) {
    if (n.role !== "server" || n.logical_rack == null) continue;
    const list = byName.get(n.logical_rack);
    if (list) list.push(n.id);
    else byName.set(n.logical_rack, [n.id]);
  }
  return [...byName].map(([name, servers]) => ({ name, servers }));
}
