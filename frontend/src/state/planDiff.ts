/**
 * The difference between two plans of the hall, drawn in 3D: every cable of the newer plan coloured
 * kept / added / moved, and the older plan's removed cables drawn from its own buffers. Cable IDs are
 * stable across regenerations (they come from the two ports), so kept / added / removed follow from the
 * two plans' IDs; moved cables are the API diff's (old ID, new ID) pairs.
 */
import { create } from "zustand";
import { debugHandle } from "./testHook";
import type { CableSet } from "./wiring";

export type DiffStatus = "kept" | "added" | "moved" | "removed";
export const DIFF_STATUSES: readonly DiffStatus[] = ["kept", "added", "moved", "removed"];

/** Distinct at a glance on both themes; kept is muted so the change stands out. */
export const DIFF_COLOURS: Record<DiffStatus, { colour: string; label: string }> = {
  kept: { colour: "#7c8594", label: "kept" },
  added: { colour: "#22c55e", label: "added" },
  moved: { colour: "#f59e0b", label: "moved" },
  removed: { colour: "#ef4444", label: "removed" },
};

/** Status codes in `CableDiff.status` (one byte per cable of the newer plan). */
export const STATUS_CODE = { kept: 0, added: 1, moved: 2 } as const;

export type DiffCounts = Record<DiffStatus, number>;

export interface CableDiff {
  /** Per cable of the newer plan, in its buffer order: STATUS_CODE. */
  status: Uint8Array;
  /** Indexes into the older plan's buffers of its cables that are gone. */
  removed: Uint32Array;
  counts: DiffCounts;
}

/**
 * Classify the newer plan's cables against the older plan's. A cable is kept when its ID is in both,
 * moved when it is the new end of a moved pair, added otherwise; an older cable is removed when its ID
 * is in neither the newer plan nor the old end of a moved pair.
 */
export function classifyCables(
  oldIds: readonly string[],
  newIds: readonly string[],
  moved: readonly (readonly [string, string])[],
): CableDiff {
  const oldSet = new Set(oldIds);
  const newSet = new Set(newIds);
  const movedNew = new Set(moved.map(([, n]) => n));
  const movedOld = new Set(moved.map(([o]) => o));
  const status = new Uint8Array(newIds.length);
  const counts: DiffCounts = { kept: 0, added: 0, moved: 0, removed: 0 };
  newIds.forEach((id, i) => {
    const s: keyof typeof STATUS_CODE = oldSet.has(id) ? "kept" : movedNew.has(id) ? "moved" : "added";
    status[i] = STATUS_CODE[s];
    counts[s] += 1;
  });
  const removed: number[] = [];
  oldIds.forEach((id, i) => {
    if (!newSet.has(id) && !movedOld.has(id)) removed.push(i);
  });
  counts.removed = removed.length;
  return { status, removed: Uint32Array.from(removed), counts };
}

export interface DiffOverlay {
  oldPlanId: number;
  newPlanId: number;
  oldSet: CableSet;
  newSet: CableSet;
  diff: CableDiff;
  /** The API's counts for the same two plans (shown beside ours; equal unless a list was capped). */
  apiCounts: DiffCounts & { changed: number };
}

export interface DiffState {
  overlay: DiffOverlay | null;
  loading: boolean;
  /** Kept cables can be hidden so only the change shows. */
  showKept: boolean;
}

export const useDiff = create<DiffState>(() => ({ overlay: null, loading: false, showKept: true }));

/** Plans ticked in the plan list for comparing (kept while the side panel shows another tab). */
export const usePlanSelection = create<{ selected: number[] }>(() => ({ selected: [] }));

export function clearDiff(): void {
  useDiff.setState({ overlay: null, loading: false });
}

/** "#rrggbb" -> linear-free 0..1 RGB (the scene's line colours are given as sRGB hex, like the media's). */
export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

const CODE_STATUS: readonly DiffStatus[] = ["kept", "added", "moved"];

/**
 * The diff as line buffers: the newer plan's segments with a colour per vertex by status, and the
 * older plan's removed cables as segments of their own (all in the removed colour).
 * `colourOf` turns a hex colour into the renderer's RGB (the scene passes three.js' colour management).
 */
export function diffBuffers(
  o: Pick<DiffOverlay, "newSet" | "oldSet" | "diff">,
  colourOf: (hex: string) => [number, number, number] = rgb,
): { colours: Float32Array; removed: Float32Array; removedColours: Float32Array } {
  const rgbOf = CODE_STATUS.map((s) => colourOf(DIFF_COLOURS[s].colour));
  const { newSet, oldSet, diff } = o;
  const colours = new Float32Array(newSet.segments.length);
  for (let s = 0, n = newSet.segCable.length; s < n; s++) {
    const c = rgbOf[diff.status[newSet.segCable[s] ?? 0] ?? 0];
    if (!c) continue;
    colours.set(c, s * 6);
    colours.set(c, s * 6 + 3);
  }
  let segs = 0;
  for (const i of diff.removed) segs += (oldSet.segStart[i + 1] ?? 0) - (oldSet.segStart[i] ?? 0);
  const removed = new Float32Array(segs * 6);
  let at = 0;
  for (const i of diff.removed) {
    const part = oldSet.segments.subarray((oldSet.segStart[i] ?? 0) * 6, (oldSet.segStart[i + 1] ?? 0) * 6);
    removed.set(part, at);
    at += part.length;
  }
  const red = colourOf(DIFF_COLOURS.removed.colour);
  const removedColours = new Float32Array(removed.length);
  for (let v = 0; v < removed.length; v += 3) removedColours.set(red, v);
  return { colours, removed, removedColours };
}

/**
 * What is drawn, read back from the buffers: cables per colour (by the colour of each cable's first
 * segment) and removed cables. The test hook reports it so a test checks the picture, not the inputs.
 */
export function drawnCounts(
  newSet: CableSet,
  colours: Float32Array,
  removedCables: number,
  colourOf: (hex: string) => [number, number, number] = rgb,
): DiffCounts {
  const key = (c: readonly number[]) => c.map((x) => Math.round(x * 255)).join(",");
  const byColour = new Map(CODE_STATUS.map((s) => [key(colourOf(DIFF_COLOURS[s].colour)), s] as const));
  const out: DiffCounts = { kept: 0, added: 0, moved: 0, removed: removedCables };
  for (let i = 0, n = newSet.buffers.cable_ids.length; i < n; i++) {
    const s = newSet.segStart[i] ?? 0;
    if ((newSet.segStart[i + 1] ?? s) === s) continue;
    const status = byColour.get(key(Array.from(colours.subarray(s * 6, s * 6 + 3))));
    if (status) out[status] += 1;
  }
  return out;
}

export interface DiffReport {
  oldPlanId: number;
  newPlanId: number;
  /** Cables drawn per status, read back from the colour buffers. */
  drawn: DiffCounts;
  /** The colour of each status, as the legend shows it. */
  colours: Record<DiffStatus, string>;
}

declare module "./testHook" {
  interface LooplineDebug {
    /** The diff overlay as drawn (null when none is shown). */
    diff?: DiffReport | null;
  }
}

/** Written by the scene after it built the diff buffers (tests read `window.__loopline.diff`). */
export function reportDiff(report: DiffReport | null): void {
  debugHandle().diff = report;
}
