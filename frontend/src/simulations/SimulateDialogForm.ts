/**
 * The simulation form's pure parts: which rack sets a preset takes and which counts they replace (the
 * server's table says), failures as the form holds them, and the form's errors. No React, no I/O.
 */
import type { FailurePick, PickSet } from "../state/floorPick";
import { ApiError } from "../sync/http";
import { PresetError, type Failure, type PickedRacks, type Preset, type PresetParam } from "./presets";

/** The rack sets a preset takes by name (picked on the floor or from the list). */
export const setsOf = (preset: Preset): PickSet[] => preset.rack_sets.map((s) => s.name);

/** The counts that are logical racks (the note under the form says so). */
export const isLogicalCount = (p: PresetParam): boolean => p.unit === "logical racks";

/** Whether a parameter is replaced by a chosen rack set (its input is then off). */
export function replacedBy(preset: Preset, picked: Record<PickSet, readonly string[]>, name: string): boolean {
  return preset.rack_sets.some((s) => picked[s.name].length > 0 && s.replaces.includes(name));
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
  // the server names a preset's parameter `params.<name>`: the form's field is `<name>`
  if (e instanceof ApiError) return { field: (e.items[0]?.field ?? "").replace(/^params\./, ""), text: e.message };
  return { field: "", text: e instanceof Error ? e.message : String(e) };
}

/**
 * An engine refusal of the built scenario (`scenario.workload.<field>`) under the preset parameter that
 * sets that field (its `engine_field` is `workload.<type>.<field>`); any other error as it is.
 */
export function atParam(preset: Preset, error: FormError): FormError {
  const m = /^scenario\.workload\.(.+)$/.exec(error.field);
  if (!m) return error;
  const p = preset.params.find((x) => x.engine_field?.split(".").slice(2).join(".") === m[1]);
  return p ? { ...error, field: p.name } : error;
}

/** Errors shown next to a field of the form; any other goes above the Run button. */
export function shownAtField(error: FormError, presetParams: readonly string[]): boolean {
  return (
    presetParams.includes(error.field) ||
    error.field === "seeds" ||
    error.field === "failAtMs" ||
    error.field === "failures"
  );
}
