/**
 * Wiring session state: the plans of the open hall, the chosen plan, its render buffers, and the cable
 * to fly to. Hover is not here: it is written straight to the scene and the tooltip (no React render).
 */
import { create } from "zustand";
import type { components } from "../api/schema";
import type { Box } from "../model/geometry";
import { requestFrame } from "./session";

export type WiringPlan = components["schemas"]["WiringPlanRead"];
export type RenderBuffers = components["schemas"]["RenderBuffers"];
export type WiringPlanCreate = components["schemas"]["WiringPlanCreate"];

export interface CableSet {
  planId: number;
  buffers: RenderBuffers;
  /** Per cable: index of its first and one-past-last segment in the merged segment buffer. */
  segStart: Uint32Array;
  segCable: Uint32Array;
  /** Segment endpoints, metres in world space (x, y=up, z), 6 floats per segment. */
  segments: Float32Array;
}

export interface WiringState {
  plans: WiringPlan[];
  plan: WiringPlan | null;
  cables: CableSet | null;
  loading: boolean;
  /** Cable to highlight and frame (index into the buffers). */
  focus: number | null;
  showLoops: boolean;
  showCables: boolean;
  /**
   * Increments when the project's price book is saved or imported. Plans are priced whenever they are
   * read, so every view that shows a figure derived from prices (plan list, compare, BOMs, the change's
   * BOM, cost per Gb/s, sweep costs) reads again when it moves: `pricesChanged()` is the one trigger.
   */
  pricesRevision: number;
}

export const useWiring = create<WiringState>(() => ({
  plans: [],
  plan: null,
  cables: null,
  loading: false,
  focus: null,
  showLoops: true,
  showCables: true,
  pricesRevision: 0,
}));

/** The price book was saved: every figure priced from it is stale (see `pricesRevision`). */
export function pricesChanged(): void {
  useWiring.setState((s) => ({ pricesRevision: s.pricesRevision + 1 }));
}

/** Flatten route polylines into line segments (world metres: x, up, y). */
export function toCableSet(planId: number, b: RenderBuffers): CableSet {
  const n = b.cable_ids.length;
  const totalPoints = b.points.length / 3;
  const segStart = new Uint32Array(n + 1);
  let segs = 0;
  for (let i = 0; i < n; i++) {
    segStart[i] = segs;
    const start = b.offsets[i] ?? 0;
    const end = i + 1 < n ? (b.offsets[i + 1] ?? totalPoints) : totalPoints;
    segs += Math.max(0, end - start - 1);
  }
  segStart[n] = segs;
  const segments = new Float32Array(segs * 6);
  const segCable = new Uint32Array(segs);
  const p = b.points;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const start = b.offsets[i] ?? 0;
    const end = i + 1 < n ? (b.offsets[i + 1] ?? totalPoints) : totalPoints;
    for (let k = start; k < end - 1; k++) {
      const o = s * 6;
      // API points are (x, y, z) mm with z up; the scene is (x, up, y) in metres.
      segments[o] = (p[3 * k] ?? 0) / 1000;
      segments[o + 1] = (p[3 * k + 2] ?? 0) / 1000;
      segments[o + 2] = (p[3 * k + 1] ?? 0) / 1000;
      segments[o + 3] = (p[3 * k + 3] ?? 0) / 1000;
      segments[o + 4] = (p[3 * k + 5] ?? 0) / 1000;
      segments[o + 5] = (p[3 * k + 4] ?? 0) / 1000;
      segCable[s] = i;
      s++;
    }
  }
  return { planId, buffers: b, segStart, segCable, segments };
}

/** "A / B" labels carry both ends (TIA-606 style: `H1.R01.K03.U22:p1 / H1.R01.K03.U41:e17`). */
export function cableEnds(label: string): { a: string; b: string } {
  const [a = label, b = ""] = label.split(" / ");
  return { a, b };
}

/** Floor box (mm) around a cable's route, `marginMm` wider on every side; null for a cable with no segment. */
export function cableBox(set: CableSet, i: number, marginMm = 0): Box | null {
  const a = set.segStart[i] ?? 0;
  const b = set.segStart[i + 1] ?? a;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let s = a; s < b; s++) {
    for (const o of [0, 3]) {
      const x = (set.segments[s * 6 + o] ?? 0) * 1000;
      const y = (set.segments[s * 6 + o + 2] ?? 0) * 1000;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (!Number.isFinite(x0)) return null;
  return { x0: x0 - marginMm, y0: y0 - marginMm, x1: x1 + marginMm, y1: y1 + marginMm };
}

/** Highlight a cable and ask the camera to fly to it. */
export function focusCable(set: CableSet, i: number): void {
  const box = cableBox(set, i, 1500);
  if (!box) return;
  useWiring.setState({ focus: i });
  requestFrame(box);
}
