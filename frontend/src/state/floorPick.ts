/**
 * Picking a simulation's racks and failures on the floor. The simulation form (`simulations/`) starts a
 * session with the racks of the plan (each physical rack's logical racks and the switches in it) and
 * what is chosen so far; a click on a rack (`tools/pick.ts`) adds it to the set being picked or takes
 * it out, or fails the ToR/switch at the height clicked; a click on a cable (`scene/Cables.tsx`) fails
 * that link; the scene paints each set in its colour. "Done" hands the choice back to the form.
 *
 * Sets hold logical rack names (what the engine's workloads name); a click takes a physical rack's
 * logical racks together, and a logical rack is in at most one set (a rack picked as a receiver stops
 * being a sender).
 */
import { create } from "zustand";
import { U_MM } from "../model/records";

export type PickSet = "job" | "senders" | "receivers" | "cache";
export type PickMode = PickSet | "failures";

export const PICK_SETS: Record<PickSet, { label: string; colour: string }> = {
  job: { label: "Job racks", colour: "#f59e0b" },
  senders: { label: "Senders", colour: "#3b82f6" },
  receivers: { label: "Receivers", colour: "#22c55e" },
  cache: { label: "Cache racks", colour: "#a855f7" },
};
export const FAILURE_COLOUR = "#ef4444";

/** A switch (ToR, spine, ...) or a cable that goes down; the form gives it its times. */
export interface FailurePick {
  kind: "node" | "link";
  /** The scenario's node id, or the plan's cable ID (the engine's link id). */
  id: string;
  /** What the planner reads: the node id with its role, or the cable's label. */
  label: string;
}

/** A switch in a rack, over rack units [u0, u1). */
export interface RackDevice {
  node: string;
  role: string;
  u0: number;
  u1: number;
}

export interface RackPickInfo {
  name: string;
  /** Its logical racks that the plan has (engine names, `H1.R01.R01-03.L1`), bottom first. */
  logical: readonly string[];
  devices: readonly RackDevice[];
}

export interface PickSession {
  planId: number;
  /** The sets the chosen workload uses (the bar offers these, then failures). */
  sets: readonly PickSet[];
  mode: PickMode;
  chosen: Readonly<Record<PickSet, readonly string[]>>;
  failures: readonly FailurePick[];
  /** What a click fails while picking failures: the switch at the clicked height, or the cable under the pointer. */
  failKind: "device" | "cable";
  /** Per physical rack record id. */
  racks: ReadonlyMap<string, RackPickInfo>;
}

export const EMPTY_CHOSEN: Readonly<Record<PickSet, readonly string[]>> = {
  job: [],
  senders: [],
  receivers: [],
  cache: [],
};

/**
 * A click on a rack while picking set `mode`: its logical racks join the set (and leave any other), or
 * leave it when all of them were in it already. A rack the plan has no logical racks in changes nothing.
 */
export function toggleRack(s: PickSession, rackId: string): PickSession {
  if (s.mode === "failures") return s;
  const mode = s.mode;
  const logical = s.racks.get(rackId)?.logical ?? [];
  if (!logical.length) return s;
  const inSet = new Set(s.chosen[mode]);
  const all = logical.every((l) => inSet.has(l));
  const mine = new Set(logical);
  const chosen = { ...s.chosen };
  for (const k of Object.keys(chosen) as PickSet[]) chosen[k] = chosen[k].filter((l) => !mine.has(l));
  if (!all) chosen[mode] = [...chosen[mode], ...logical];
  return { ...s, chosen };
}

/**
 * The switch at a height on a rack (mm above the floor): the one whose rack units hold it, else the
 * nearest (a click on the rack's top, as in the plan view, takes the topmost).
 */
export function deviceAt(info: RackPickInfo | undefined, heightMm: number): RackDevice | null {
  if (!info || !info.devices.length) return null;
  const u = heightMm / U_MM + 1;
  let best: RackDevice | null = null;
  let bestGap = Infinity;
  for (const d of info.devices) {
    const gap = u < d.u0 ? d.u0 - u : u >= d.u1 ? u - d.u1 : 0;
    if (gap < bestGap || (gap === bestGap && best !== null && d.u0 > best.u0)) {
      best = d;
      bestGap = gap;
    }
  }
  return best;
}

/** Add a failure, or take it back when it is already there (a second click undoes the first). */
export function toggleFailure(s: PickSession, f: FailurePick): PickSession {
  const has = s.failures.some((x) => x.kind === f.kind && x.id === f.id);
  return {
    ...s,
    failures: has ? s.failures.filter((x) => !(x.kind === f.kind && x.id === f.id)) : [...s.failures, f],
  };
}

/** A click on a rack: toggles it in the set being picked, or fails the switch at the clicked height. */
export function clickRack(s: PickSession, rackId: string, heightMm: number): PickSession {
  if (s.mode !== "failures") return toggleRack(s, rackId);
  if (s.failKind !== "device") return s;
  const d = deviceAt(s.racks.get(rackId), heightMm);
  return d ? toggleFailure(s, { kind: "node", id: d.node, label: `${d.node} (${d.role})` }) : s;
}

/** The colour a rack is painted while picking: failed switch in it, else its set's, else none. */
export function rackPickColour(s: PickSession, rackId: string): string | null {
  const info = s.racks.get(rackId);
  if (!info) return null;
  const failed = new Set(s.failures.filter((f) => f.kind === "node").map((f) => f.id));
  if (info.devices.some((d) => failed.has(d.node))) return FAILURE_COLOUR;
  for (const k of Object.keys(PICK_SETS) as PickSet[]) {
    const set = s.chosen[k];
    if (info.logical.some((l) => set.includes(l))) return PICK_SETS[k].colour;
  }
  return null;
}

/** Per set: how many logical racks, in how many physical racks. */
export function pickCounts(s: PickSession): Record<PickSet, { logical: number; racks: number }> {
  const out = {} as Record<PickSet, { logical: number; racks: number }>;
  for (const k of Object.keys(PICK_SETS) as PickSet[]) {
    const set = new Set(s.chosen[k]);
    let racks = 0;
    for (const info of s.racks.values()) if (info.logical.some((l) => set.has(l))) racks += 1;
    out[k] = { logical: set.size, racks };
  }
  return out;
}

export const useFloorPick = create<{ session: PickSession | null }>(() => ({ session: null }));

export function startPick(session: PickSession): void {
  useFloorPick.setState({ session });
}

/** End the session; returns what was chosen (null when none was running). */
export function endPick(): PickSession | null {
  const s = useFloorPick.getState().session;
  useFloorPick.setState({ session: null });
  return s;
}

function update(f: (s: PickSession) => PickSession): void {
  const s = useFloorPick.getState().session;
  if (s) useFloorPick.setState({ session: f(s) });
}

export const pickRack = (rackId: string, heightMm: number) => update((s) => clickRack(s, rackId, heightMm));
export const pickCable = (cableId: string, label: string) =>
  update((s) =>
    s.mode === "failures" && s.failKind === "cable" ? toggleFailure(s, { kind: "link", id: cableId, label }) : s,
  );
export const setPickMode = (mode: PickMode) => update((s) => ({ ...s, mode }));
export const setFailKind = (failKind: PickSession["failKind"]) => update((s) => ({ ...s, failKind }));
export const dropFailure = (f: FailurePick) => update((s) => toggleFailure(s, f));

/** Whether a click on a cable picks it now (the scene asks before it looks for one). */
export function pickingCables(): boolean {
  const s = useFloorPick.getState().session;
  return s !== null && s.mode === "failures" && s.failKind === "cable";
}

declare module "./testHook" {
  interface LooplineDebug {
    /** A rack's colour as drawn (sRGB hex, read back from the scene's instance colours), by rack name. */
    rackColour?: (rackName: string) => string | null;
  }
}
