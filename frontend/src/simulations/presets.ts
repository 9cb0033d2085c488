/**
 * Workload presets in the planner's words, and the simulation requests they become (pure: tested in
 * presets.test.ts). Each preset maps to one of the engine's workload kinds (sim-engine/README.md,
 * "Workloads"; schema/scenario.schema.json `WorkloadSpec`) over the plan's logical racks, in layout
 * order as the plan's scenario lists its servers.
 */
import type { components } from "../api/schema";

export type PlanSimulationCreate = components["schemas"]["PlanSimulationCreate"];

/** A logical rack of the plan: its name and its servers' node ids (the scenario's `logical_rack`). */
export interface LogicalRack {
  name: string;
  servers: string[];
}

export type PresetKind =
  "shuffle" | "permutation" | "all_to_all" | "rack_to_rack" | "background" | "incast" | "memcache";

export const BUNDLED_CDFS = [
  { value: "websearch", label: "web search" },
  { value: "datamining", label: "data mining" },
  { value: "hadoop", label: "hadoop" },
  { value: "cachefollower", label: "cache" },
  { value: "webserver", label: "web server" },
] as const;
export type CdfName = (typeof BUNDLED_CDFS)[number]["value"];

export interface Params {
  /** Racks the job spans (shuffle, permutation, all-to-all; background: 0 = the whole hall). */
  racks: number;
  /** `contiguous`: the first N racks in layout order; `spread`: N racks evenly spaced over the hall. */
  placement: "contiguous" | "spread";
  /** Megabytes per flow (per mapper-reducer pair for a shuffle). */
  mb: number;
  senderRacks: number;
  receiverRacks: number;
  cdf: CdfName;
  /** Fraction (0, 1] of the server links' capacity. */
  load: number;
  flows: number;
  interRackOnly: boolean;
  fanIn: number;
  responseKb: number;
  queries: number;
  ratePerS: number;
  cacheRacks: number;
  requestBytes: number;
  latencyBoundUs: number;
}

export const DEFAULT_PARAMS: Params = {
  racks: 2,
  placement: "contiguous",
  mb: 15,
  senderRacks: 1,
  receiverRacks: 1,
  cdf: "websearch",
  load: 0.4,
  flows: 2000,
  interRackOnly: false,
  fanIn: 8,
  responseKb: 64,
  queries: 100,
  ratePerS: 1000,
  cacheRacks: 1,
  requestBytes: 100,
  latencyBoundUs: 1000,
};

export interface Preset {
  kind: PresetKind;
  label: string;
  /** One line: what the preset sends where. */
  explain: string;
  /** The parameters the form shows for it. */
  params: readonly (keyof Params)[];
}

export const PRESETS: readonly Preset[] = [
  {
    kind: "shuffle",
    label: "MapReduce shuffle",
    explain: "Every server of a job of N racks sends to every other one at once (mapper to reducer).",
    params: ["racks", "placement", "mb"],
  },
  {
    kind: "permutation",
    label: "Permutation",
    explain: "Each server of N racks sends one flow to another, chosen at random (no two to the same one).",
    params: ["racks", "placement", "mb"],
  },
  {
    kind: "all_to_all",
    label: "All-to-all",
    explain: "Every server of N racks sends to every other one, the same amount each way.",
    params: ["racks", "placement", "mb"],
  },
  {
    kind: "rack_to_rack",
    label: "Rack to rack",
    explain: "The servers of the first sender racks send to every server of the receiver racks next to them.",
    params: ["senderRacks", "receiverRacks", "mb"],
  },
  {
    kind: "background",
    label: "Background traffic",
    explain: "Flow sizes drawn from a measured distribution, arriving at random at a share of the server links.",
    params: ["cdf", "load", "flows", "racks", "interRackOnly"],
  },
  {
    kind: "incast",
    label: "Incast / query",
    explain: "Queries fan in: several servers answer one at once, repeatedly at a rate.",
    params: ["fanIn", "responseKb", "queries", "ratePerS"],
  },
  {
    kind: "memcache",
    label: "Memcache",
    explain: "Clients in the other racks ask cache racks; finds the highest request rate within a latency bound.",
    params: ["cacheRacks", "requestBytes", "responseKb", "ratePerS", "latencyBoundUs"],
  },
];

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

const BY_KIND = Object.fromEntries(PRESETS.map((p) => [p.kind, p])) as Record<PresetKind, Preset>;
export const presetOf = (kind: PresetKind): Preset => BY_KIND[kind];

/** A refusal that names the form field, as the API's are. */
export class PresetError extends Error {
  constructor(
    readonly field: keyof Params | "seeds" | "failAtMs" | "failures",
    message: string,
  ) {
    super(message);
  }
}

/** `n` of `racks`: the first n, or n spread evenly (first and last included when n > 1). */
export function pickRacks(racks: readonly LogicalRack[], n: number, placement: Params["placement"]): LogicalRack[] {
  if (!Number.isInteger(n) || n < 1 || n > racks.length)
    throw new PresetError("racks", `needs 1 to ${racks.length} racks (the plan has ${racks.length})`);
  if (placement === "contiguous" || n === 1) return racks.slice(0, n);
  const step = (racks.length - 1) / (n - 1);
  return Array.from({ length: n }, (_, i) => racks[Math.round(i * step)]).filter((r) => r !== undefined);
}

const servers = (racks: readonly LogicalRack[]) => racks.flatMap((r) => r.servers);
const bytesOf = (mb: number, field: keyof Params = "mb") => {
  if (!(mb > 0)) throw new PresetError(field, "must be more than 0");
  return Math.round(mb * 1_000_000);
};
const positiveInt = (x: number, field: keyof Params) => {
  if (!Number.isInteger(x) || x < 1) throw new PresetError(field, "must be a whole number of at least 1");
  return x;
};

/**
 * Racks chosen by name (on the floor or from the list), per set; an empty or missing set falls back to
 * the counts (`racks`, `senderRacks`, ...).
 */
export type PickedRacks = Partial<Record<"job" | "senders" | "receivers" | "cache", readonly string[]>>;

/** The named logical racks of the plan, in the order given; a name the plan lacks is refused. */
export function namedRacks(
  racks: readonly LogicalRack[],
  names: readonly string[],
  field: keyof Params,
): LogicalRack[] {
  const byName = new Map(racks.map((r) => [r.name, r]));
  return names.map((n) => {
    const r = byName.get(n);
    if (!r) throw new PresetError(field, `rack ${n} is not in this plan`);
    return r;
  });
}

const has = (xs: readonly string[] | undefined): xs is readonly string[] => xs !== undefined && xs.length > 0;

/** The racks of the job: the chosen ones, else N in layout order (side by side or spread). */
function jobRacks(racks: readonly LogicalRack[], p: Params, picked: PickedRacks): LogicalRack[] {
  return has(picked.job) ? namedRacks(racks, picked.job, "racks") : pickRacks(racks, p.racks, p.placement);
}

/** The engine workload section of a preset over a plan's logical racks. */
export function workloadOf(
  kind: PresetKind,
  p: Params,
  racks: readonly LogicalRack[],
  picked: PickedRacks = {},
): Record<string, unknown> {
  switch (kind) {
    case "shuffle":
      return { type: "shuffle", servers: servers(jobRacks(racks, p, picked)), bytes_per_pair: bytesOf(p.mb) };
    case "permutation":
      return { type: "permutation", servers: servers(jobRacks(racks, p, picked)), bytes: bytesOf(p.mb) };
    case "all_to_all":
      return { type: "all_to_all", servers: servers(jobRacks(racks, p, picked)), bytes: bytesOf(p.mb) };
    case "rack_to_rack": {
      // Chosen senders / receivers by name; a set not chosen is the first racks in layout order that
      // are not in the other set.
      const chosenA = has(picked.senders) ? namedRacks(racks, picked.senders, "senderRacks") : null;
      const chosenB = has(picked.receivers) ? namedRacks(racks, picked.receivers, "receiverRacks") : null;
      const a = chosenA ? chosenA.length : positiveInt(p.senderRacks, "senderRacks");
      const b = chosenB ? chosenB.length : positiveInt(p.receiverRacks, "receiverRacks");
      if (a + b > racks.length)
        throw new PresetError("receiverRacks", `sender and receiver racks together exceed the plan's ${racks.length}`);
      const senders = chosenA ?? racks.filter((r) => !chosenB?.includes(r)).slice(0, a);
      const receivers = chosenB ?? racks.filter((r) => !senders.includes(r)).slice(0, b);
      if (senders.some((r) => receivers.includes(r)))
        throw new PresetError("receiverRacks", "a rack cannot both send and receive");
      return {
        type: "many_to_many",
        senders: servers(senders),
        receivers: servers(receivers),
        flows_per_pair: 1,
        bytes: bytesOf(p.mb),
      };
    }
    case "background": {
      if (!(p.load > 0 && p.load <= 1)) throw new PresetError("load", "must be more than 0 and at most 1");
      const out: Record<string, unknown> = {
        type: "poisson",
        cdf: p.cdf,
        load: p.load,
        flows: positiveInt(p.flows, "flows"),
      };
      if (p.racks > 0 || has(picked.job)) out.servers = servers(jobRacks(racks, p, picked));
      if (p.interRackOnly) out.inter_rack_only = true;
      return out;
    }
    case "incast":
      if (!(p.ratePerS > 0)) throw new PresetError("ratePerS", "must be more than 0");
      return {
        type: "query",
        fan_in: positiveInt(p.fanIn, "fanIn"),
        response_bytes: bytesOf(p.responseKb / 1000, "responseKb"),
        queries: positiveInt(p.queries, "queries"),
        rate_per_s: p.ratePerS,
      };
    case "memcache": {
      const cache = has(picked.cache) ? namedRacks(racks, picked.cache, "cacheRacks") : null;
      const n = cache ? cache.length : positiveInt(p.cacheRacks, "cacheRacks");
      if (n >= racks.length)
        throw new PresetError("cacheRacks", `at most ${racks.length - 1}: clients need a rack of their own`);
      if (!(p.latencyBoundUs > 0)) throw new PresetError("latencyBoundUs", "must be more than 0");
      return {
        type: "memcache",
        server_racks: (cache ?? racks.slice(0, n)).map((r) => r.name),
        request_bytes: positiveInt(p.requestBytes, "requestBytes"),
        response_bytes: bytesOf(p.responseKb / 1000, "responseKb"),
        rate_per_s: p.ratePerS,
        latency_bound_us: p.latencyBoundUs,
      };
    }
  }
}

const num = (x: number) => x.toLocaleString("en", { maximumFractionDigits: 3 });

/**
 * The workload in words, the same for every plan and seed: runs with the same label are comparable.
 * Chosen racks are counted and said to be chosen (the same names on every plan of the hall).
 */
export function workloadLabel(kind: PresetKind, p: Params, picked: PickedRacks = {}): string {
  const job = picked.job?.length ?? 0;
  const where = (n: number) =>
    job > 0
      ? `${job} chosen rack${job === 1 ? "" : "s"}`
      : `${n} rack${n === 1 ? "" : "s"}${p.placement === "spread" && n > 1 ? " spread" : ""}`;
  switch (kind) {
    case "shuffle":
      return `shuffle ${where(p.racks)} × ${num(p.mb)} MB`;
    case "permutation":
      return `permutation ${where(p.racks)} × ${num(p.mb)} MB`;
    case "all_to_all":
      return `all-to-all ${where(p.racks)} × ${num(p.mb)} MB`;
    case "rack_to_rack": {
      const a = picked.senders?.length || p.senderRacks;
      const b = picked.receivers?.length || p.receiverRacks;
      const chosen = has(picked.senders) || has(picked.receivers) ? " chosen" : "";
      return `rack-to-rack ${a}→${b}${chosen} × ${num(p.mb)} MB`;
    }
    case "background":
      return `background ${p.cdf} at ${num(p.load * 100)}% × ${p.flows} flows${p.racks > 0 || job > 0 ? ` on ${where(p.racks)}` : ""}${p.interRackOnly ? " inter-rack" : ""}`;
    case "incast":
      return `incast ${p.fanIn}→1 × ${num(p.responseKb)} KB, ${p.queries} at ${num(p.ratePerS)}/s`;
    case "memcache": {
      const n = picked.cache?.length || p.cacheRacks;
      return `memcache ${n}${has(picked.cache) ? " chosen" : ""} cache rack${n === 1 ? "" : "s"}, ${p.requestBytes} B / ${num(p.responseKb)} KB, ${num(p.latencyBoundUs)} µs`;
    }
  }
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
  kind: PresetKind,
  p: Params,
  routing: RoutingType,
  seeds: readonly number[],
  racks: readonly LogicalRack[],
  failure: Failure | readonly Failure[] | null = null,
  picked: PickedRacks = {},
): PlanSimulationCreate[] {
  const workload = workloadOf(kind, p, racks, picked);
  const list: readonly Failure[] = failure === null ? [] : "atMs" in failure ? [failure] : failure;
  const failures = list.map(failureSpec);
  const label = workloadLabel(kind, p, picked) + (list.length ? ` · ${list.map(failureLabel).join(", ")}` : "");
  return seeds.map((seed) => ({
    name: jobName(label, routing, seed),
    routing: { type: routing },
    workload,
    engine: { seed, stop_time_s: null, failures },
    mode: "flow",
  }));
}

/** The plan's switches that can fail (everything but servers), in the scenario's order. */
export function switchesOfNetwork(nodes: readonly { id: string; role: string }[]): { id: string; role: string }[] {
  return nodes.filter((n) => n.role !== "server").map((n) => ({ id: n.id, role: n.role }));
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
