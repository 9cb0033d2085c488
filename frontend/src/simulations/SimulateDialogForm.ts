/**
 * The simulation form's pure parts: the labels and limits of each parameter, which rack sets a
 * workload takes, failures as the form holds them, and the form's errors. No React, no I/O.
 */
import type { FailurePick, PickSet } from "../state/floorPick";
import { ApiError } from "../sync/http";
import { PresetError, type Failure, type Params, type PickedRacks, type PresetKind } from "./presets";

export const FIELDS: Record<keyof Params, { label: string; step?: number; min?: number; max?: number }> = {
  racks: { label: "Logical racks in the job", min: 0 },
  placement: { label: "Racks placed" },
  mb: { label: "MB per flow (per pair)", step: 0.1, min: 0 },
  senderRacks: { label: "Sender logical racks", min: 1 },
  receiverRacks: { label: "Receiver logical racks", min: 1 },
  cdf: { label: "Flow sizes from" },
  load: { label: "Load (share of server links)", step: 0.05, min: 0, max: 1 },
  flows: { label: "Flows", min: 1 },
  interRackOnly: { label: "Only between racks" },
  fanIn: { label: "Fan-in (servers answering)", min: 1 },
  responseKb: { label: "Response KB", step: 1, min: 0 },
  queries: { label: "Queries", min: 1 },
  ratePerS: { label: "Rate per second", min: 0 },
  cacheRacks: { label: "Cache logical racks", min: 1 },
  requestBytes: { label: "Request bytes", min: 1 },
  latencyBoundUs: { label: "Latency bound (µs)", min: 1 },
};

/** The rack sets a workload takes by name (picked on the floor or from the list). */
export const SETS_OF: Record<PresetKind, readonly PickSet[]> = {
  shuffle: ["job"],
  permutation: ["job"],
  all_to_all: ["job"],
  background: ["job"],
  rack_to_rack: ["senders", "receivers"],
  incast: [],
  memcache: ["cache"],
};

/** The counts that are logical racks (the note under the form says so). */
export const LOGICAL_COUNTS: ReadonlySet<keyof Params> = new Set([
  "racks",
  "senderRacks",
  "receiverRacks",
  "cacheRacks",
]);

/** The count a chosen set replaces, and what is used while none is chosen. */
export const SET_FIELDS: Record<PickSet, { params: readonly (keyof Params)[]; otherwise: string }> = {
  job: { params: ["racks", "placement"], otherwise: "the racks counted above" },
  senders: { params: ["senderRacks"], otherwise: "the first racks that are not receivers" },
  receivers: { params: ["receiverRacks"], otherwise: "the racks after the senders" },
  cache: { params: ["cacheRacks"], otherwise: "the first racks of the plan" },
};

/** Whether a parameter is replaced by a chosen rack set (its input is then off). */
export function replacedBy(
  sets: readonly PickSet[],
  picked: Record<PickSet, readonly string[]>,
  k: keyof Params,
): boolean {
  return sets.some((s) => picked[s].length > 0 && SET_FIELDS[s].params.includes(k));
}

/** The chosen racks of the sets the workload takes. */
export function chosenOf(sets: readonly PickSet[], picked: Record<PickSet, readonly string[]>): PickedRacks {
  return Object.fromEntries(sets.map((k) => [k, picked[k]]));
}

/** A failure in the form: a switch or a cable, with its times. */
export type FailureRow = FailurePick & { atMs: number; recoverMs: number | null };

export function failuresOf(rows: readonly FailureRow[]): Failure[] {
  return rows.map((f) =>
    f.kind === "link"
      ? { link: f.id, atMs: f.atMs, recoverMs: f.recoverMs }
      : { node: f.id, atMs: f.atMs, recoverMs: f.recoverMs },
  );
}

/** The first row keeps the plain test ids the single-failure form had; later rows are numbered. */
export const tid = (base: string, i: number) => (i === 0 ? base : `${base}-${i}`);

export interface FormError {
  field: string;
  text: string;
}

/** A refusal as the form shows it: under the field it names, or above the Run button. */
export function formErrorOf(e: unknown): FormError {
  if (e instanceof PresetError) return { field: e.field, text: e.message };
  if (e instanceof ApiError) return { field: e.items[0]?.field ?? "", text: e.message };
  return { field: "", text: e instanceof Error ? e.message : String(e) };
}

/** Errors shown next to a field of the form; any other goes above the Run button. */
export function shownAtField(error: FormError, presetParams: readonly (keyof Params)[]): boolean {
  return (
    presetParams.includes(error.field as keyof Params) ||
    error.field === "seeds" ||
    error.field === "failAtMs" ||
    error.field === "failures"
  );
}
