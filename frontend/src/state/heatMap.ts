/**
 * A simulation's link utilisation painted on the hall: every cable, and every rack by its ToRs, in a
 * colour from a 0-100 % scale at one time bucket of the run (the slider). `simulations/` builds the
 * overlay from the engine's result (`links`: one entry per direction of each cable, keyed by the plan's
 * cable ID, between the scenario's node ids); `scene/` paints it and reports what it drew.
 *
 * Reductions (say which, so the picture can be read): a cable is as hot as its busier direction
 * (max of the two); a ToR is as hot as its busiest link, in either direction (max, not mean: one
 * saturated uplink is the hot spot to see); a physical rack is as hot as its hottest ToR.
 */
import { create } from "zustand";
import { useDiff } from "./planDiff";
import { debugHandle } from "./testHook";
import { useWiring } from "./wiring";

/** The scale's stops, sRGB, 0 → 100 %: idle dark blue through sky, lime and amber to saturated red. */
export const HEAT_STOPS: readonly { at: number; colour: string }[] = [
  { at: 0, colour: "#1e3a8a" },
  { at: 0.25, colour: "#0ea5e9" },
  { at: 0.5, colour: "#84cc16" },
  { at: 0.75, colour: "#f59e0b" },
  { at: 1, colour: "#dc2626" },
];

/** Utilisation is shown in whole percent (the legend's resolution): 101 colours. */
export const HEAT_STEPS = 100;

const channels = (hex: string): [number, number, number] => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
const hex2 = (x: number) => Math.round(x).toString(16).padStart(2, "0");

/** Utilisation → whole percent, clamped to 0..100 (non-numbers are 0). */
export function heatPercent(u: number): number {
  if (!Number.isFinite(u) || u <= 0) return 0;
  return Math.min(HEAT_STEPS, Math.round(u * HEAT_STEPS));
}

function colourAtPercent(pct: number): string {
  const u = pct / HEAT_STEPS;
  let i = 0;
  while (i < HEAT_STOPS.length - 2 && u > (HEAT_STOPS[i + 1]?.at ?? 1)) i++;
  const a = HEAT_STOPS[i] ?? { at: 0, colour: "#000000" };
  const b = HEAT_STOPS[i + 1] ?? a;
  const t = b.at === a.at ? 0 : (u - a.at) / (b.at - a.at);
  const [ca, cb] = [channels(a.colour), channels(b.colour)];
  return `#${ca.map((c, k) => hex2(c + ((cb[k] ?? c) - c) * t)).join("")}`;
}

/** The colour of each whole percent, 0..100 (sRGB hex), interpolated per channel between the stops. */
export const HEAT_LUT: readonly string[] = Array.from({ length: HEAT_STEPS + 1 }, (_, p) => colourAtPercent(p));

/** The scale's colour of a utilisation (rounded to a whole percent, clamped to 0..100 %). */
export function heatColour(u: number): string {
  return HEAT_LUT[heatPercent(u)] ?? "#000000";
}

/** One direction of one link, as the engine's result lists it (`util` may be trimmed or absent). */
export interface LinkSeries {
  id: string;
  from: string;
  to: string;
  util?: readonly number[] | null;
}

export interface HeatOverlay {
  jobId: number;
  planId: number;
  /** Seconds per bucket, and how many buckets the run has. */
  intervalS: number;
  buckets: number;
  /** Per cable ID: utilisation per bucket, the busier direction. Cables that never carried traffic are absent. */
  cables: ReadonlyMap<string, Float32Array>;
  /** Per ToR node id: its busiest link's utilisation per bucket (either direction). */
  tors: ReadonlyMap<string, Float32Array>;
  /** Per physical rack record id: its hottest ToR per bucket, and its ToRs' node ids. */
  racks: ReadonlyMap<string, { series: Float32Array; tors: readonly string[]; name: string }>;
  /** The bucket first shown: where the links were busiest on average. */
  startBucket: number;
  /** Absent: link utilisation. Set: queue occupancy, as a share of the run's largest backlog (bytes). */
  metric?: { queuePeakBytes: number };
}

/** Fold `util` into `into` by max (a missing or trimmed series is idle there). */
function maxInto(into: Float32Array, util: ArrayLike<number> | null | undefined): void {
  if (!util) return;
  const n = Math.min(into.length, util.length);
  for (let b = 0; b < n; b++) {
    const u = util[b] ?? 0;
    if (u > (into[b] ?? 0)) into[b] = u;
  }
}

/**
 * The overlay from a result's link series. `torsOfRack` maps each physical rack record id to its ToRs'
 * node ids (from the plan's scenario and the layout); `rackNames` gives the name shown for it.
 */
export function buildHeat(
  jobId: number,
  planId: number,
  links: { interval_s: number; links: readonly LinkSeries[] },
  simulatedS: number,
  torsOfRack: ReadonlyMap<string, readonly string[]>,
  rackNames: ReadonlyMap<string, string> = new Map(),
): HeatOverlay {
  const longest = links.links.reduce((m, l) => Math.max(m, l.util?.length ?? 0), 0);
  const interval = links.interval_s > 0 ? links.interval_s : 1;
  // Series are trimmed after their last busy bucket: the run's length decides how many there are.
  const buckets = Math.max(1, longest, Math.ceil(simulatedS / interval - 1e-9));
  const torSet = new Set([...torsOfRack.values()].flat());
  const cables = new Map<string, Float32Array>();
  const tors = new Map<string, Float32Array>();
  const sum = new Float64Array(buckets);
  for (const l of links.links) {
    if (!l.util || l.util.length === 0) continue;
    let c = cables.get(l.id);
    if (!c) cables.set(l.id, (c = new Float32Array(buckets)));
    maxInto(c, l.util);
    for (let b = 0; b < l.util.length && b < buckets; b++) sum[b] = (sum[b] ?? 0) + (l.util[b] ?? 0);
    for (const end of [l.from, l.to]) {
      if (!torSet.has(end)) continue;
      let t = tors.get(end);
      if (!t) tors.set(end, (t = new Float32Array(buckets)));
      maxInto(t, l.util);
    }
  }
  const racks = new Map<string, { series: Float32Array; tors: readonly string[]; name: string }>();
  for (const [rackId, ids] of torsOfRack) {
    const series = new Float32Array(buckets);
    for (const id of ids) {
      const t = tors.get(id);
      if (t) maxInto(series, t);
    }
    racks.set(rackId, { series, tors: ids, name: rackNames.get(rackId) ?? rackId });
  }
  let startBucket = 0;
  for (let b = 1; b < buckets; b++) if ((sum[b] ?? 0) > (sum[startBucket] ?? 0)) startBucket = b;
  return { jobId, planId, intervalS: interval, buckets, cables, tors, racks, startBucket };
}

/** Clamp a slider position to the overlay's buckets. */
export function clampBucket(o: Pick<HeatOverlay, "buckets">, bucket: number): number {
  if (!Number.isFinite(bucket)) return 0;
  return Math.max(0, Math.min(o.buckets - 1, Math.round(bucket)));
}

/** A cable's utilisation at a bucket (0 for a cable that carried nothing). */
export function cableUtil(o: HeatOverlay, cableId: string, bucket: number): number {
  return o.cables.get(cableId)?.[clampBucket(o, bucket)] ?? 0;
}

/** A physical rack's utilisation at a bucket (its hottest ToR), or null for a rack with no ToR in the plan. */
export function rackUtil(o: HeatOverlay, rackId: string, bucket: number): number | null {
  const r = o.racks.get(rackId);
  return r && r.tors.length ? (r.series[clampBucket(o, bucket)] ?? 0) : null;
}

/** The bucket's time span, seconds: [start, end). */
export function bucketSpan(o: Pick<HeatOverlay, "intervalS" | "buckets">, bucket: number): [number, number] {
  const b = clampBucket(o, bucket);
  return [b * o.intervalS, (b + 1) * o.intervalS];
}

export interface Hottest {
  cable: { id: string; util: number } | null;
  rack: { id: string; name: string; util: number; tor: string | null } | null;
}

/** The hottest cable and rack at a bucket (ties: the first in ID order), with the ToR that makes the rack hot. */
export function hottestAt(o: HeatOverlay, bucket: number): Hottest {
  const b = clampBucket(o, bucket);
  let cable: Hottest["cable"] = null;
  for (const [id, s] of o.cables) {
    const u = s[b] ?? 0;
    if (u > 0 && (!cable || u > cable.util || (u === cable.util && id < cable.id))) cable = { id, util: u };
  }
  let rack: Hottest["rack"] = null;
  for (const [id, r] of o.racks) {
    const u = r.series[b] ?? 0;
    if (u > 0 && (!rack || u > rack.util || (u === rack.util && r.name < rack.name))) {
      let tor: string | null = null;
      for (const t of r.tors) if ((o.tors.get(t)?.[b] ?? 0) === u) tor ??= t;
      rack = { id, name: r.name, util: u, tor };
    }
  }
  return { cable, rack };
}

export interface HeatState {
  overlay: HeatOverlay | null;
  bucket: number;
}

export const useHeat = create<HeatState>(() => ({ overlay: null, bucket: 0 }));

export function showHeat(overlay: HeatOverlay): void {
  useHeat.setState({ overlay, bucket: overlay.startBucket });
}

export function setHeatBucket(bucket: number): void {
  const o = useHeat.getState().overlay;
  if (o) useHeat.setState({ bucket: clampBucket(o, bucket) });
}

/** Back to the plan's own colours. */
export function clearHeat(): void {
  useHeat.setState({ overlay: null, bucket: 0 });
}

// The plan difference and the heat map both recolour the cables: the newer one wins.
useDiff.subscribe((s, prev) => {
  if (s.overlay && s.overlay !== prev.overlay) clearHeat();
});
// A run is painted on its own plan: showing another plan's cables ends its heat map.
useWiring.subscribe((s) => {
  const o = useHeat.getState().overlay;
  if (o && s.cables && s.cables.planId !== o.planId) clearHeat();
});

export interface HeatReport {
  jobId: number;
  /** The bucket each painter last drew (tests wait until both equal the slider's). */
  cableBucket: number | null;
  rackBucket: number | null;
  /** The drawn colour (sRGB hex) of a cable's first segment / of a rack, read back from the buffers. */
  cableColour: (cableId: string) => string | null;
  rackColour: (rackName: string) => string | null;
}

declare module "./testHook" {
  interface LooplineDebug {
    /** The heat map as drawn (null when none is shown). */
    heat?: HeatReport | null;
  }
}

/** Written by the scene's painters (tests read `window.__loopline.heat`). */
export function reportHeat(jobId: number | null, part: Partial<Omit<HeatReport, "jobId">>): void {
  const h = debugHandle();
  if (jobId === null) {
    h.heat = null;
    return;
  }
  if (!h.heat || h.heat.jobId !== jobId)
    h.heat = { jobId, cableBucket: null, rackBucket: null, cableColour: () => null, rackColour: () => null };
  Object.assign(h.heat, part);
}
