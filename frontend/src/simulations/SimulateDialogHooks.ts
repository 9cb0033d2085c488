/**
 * The simulation form's state, by concern: the plan's network (what the floor and lists offer), the
 * racks and failures chosen (in the form or on the floor), and the submission (busy, error).
 */
import { useCallback, useEffect, useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { editor } from "../state/editor";
import {
  EMPTY_CHOSEN,
  endPick,
  startPick,
  toggleRack,
  type PickMode,
  type PickSession,
  type PickSet,
  type RackPickInfo,
} from "../state/floorPick";
import { notify } from "../state/session";
import { networkOfPlan, presetTable, submit, type PlanNetwork, type WiringPlan } from "./api";
import { showPlanCables } from "./floor";
import { rackPickInfo } from "./hallRacks";
import { withMode, type ModeSettings } from "./packet";
import {
  paramsOf,
  parseSeeds,
  PresetError,
  requestsFor,
  type Preset,
  type RoutingType,
  type ShownValues,
} from "./presets";
import { chosenOf, failuresOf, formErrorOf, type FailureRow, type FormError } from "./SimulateDialogForm";
import { useSimulations } from "./store";
import type { SweepPreset } from "./sweeps";

export type RackInfo = Map<string, RackPickInfo>;

/** The server's presets (null while they load), and why they could not be read. */
export function usePresets(): { presets: Preset[] | null; sweeps: SweepPreset[]; error: string | null } {
  const [state, setState] = useState<{ presets: Preset[] | null; sweeps: SweepPreset[]; error: string | null }>({
    presets: null,
    sweeps: [],
    error: null,
  });
  useEffect(() => {
    let live = true;
    presetTable().then(
      (t) => live && setState({ presets: t.presets, sweeps: t.sweeps, error: null }),
      (e: unknown) =>
        live && setState({ presets: null, sweeps: [], error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** The first plan's network, and the hall's racks as that plan has them. */
export function usePlanNetwork(first: WiringPlan | undefined): {
  network: PlanNetwork | null;
  rackInfo: RackInfo | null;
} {
  const [network, setNetwork] = useState<PlanNetwork | null>(null);
  useEffect(() => {
    if (first) void networkOfPlan(first.id).then(setNetwork, () => setNetwork(null));
  }, [first]);
  const rackInfo = useMemo(() => (network ? rackPickInfo(network.nodes, editor.records) : null), [network]);
  return { network, rackInfo };
}

export interface RackPicks {
  picked: Record<PickSet, readonly string[]>;
  clearSet: (k: PickSet) => void;
  failures: FailureRow[];
  setFailures: Dispatch<SetStateAction<FailureRow[]>>;
  /** On the floor: the form steps aside for the pick bar until `finishPick`. */
  picking: boolean;
  beginPick: (mode: PickMode) => Promise<void>;
  finishPick: () => void;
  /** The list's way to pick: the same toggle as a click on the floor. */
  toggleFromList: (k: PickSet, rackId: string) => void;
}

/** Rack sets and failures, chosen in the form or on the floor of the first plan. */
export function useRackPicks(
  first: WiringPlan | undefined,
  rackInfo: RackInfo | null,
  sets: readonly PickSet[],
): RackPicks {
  const [picked, setPicked] = useState<Record<PickSet, readonly string[]>>(EMPTY_CHOSEN);
  const [failures, setFailures] = useState<FailureRow[]>([]);
  const [picking, setPicking] = useState(false);

  // A picking session never outlives the form.
  useEffect(() => () => void endPick(), []);

  const beginPick = async (mode: PickMode) => {
    if (!first || !rackInfo) return;
    try {
      await showPlanCables(first.id);
    } catch (e) {
      notify("error", `The cables of #${first.id} could not be shown: ${e instanceof Error ? e.message : String(e)}`);
    }
    startPick({
      planId: first.id,
      sets,
      mode,
      chosen: picked,
      failures: failures.map(({ kind: k, id, label }) => ({ kind: k, id, label })),
      failKind: "device",
      racks: rackInfo,
    });
    setPicking(true);
  };

  const finishPick = useCallback(() => {
    const s = endPick();
    setPicking(false);
    if (!s) return;
    setPicked(s.chosen);
    // Failures picked keep the times the form gave them; new ones fail at 0 and stay down.
    setFailures((prev) =>
      s.failures.map((f) => prev.find((p) => p.kind === f.kind && p.id === f.id) ?? { ...f, atMs: 0, recoverMs: null }),
    );
  }, []);

  const toggleFromList = (k: PickSet, rackId: string) => {
    if (!first || !rackInfo) return;
    const session: PickSession = {
      planId: first.id,
      sets,
      mode: k,
      chosen: picked,
      failures: [],
      failKind: "device",
      racks: rackInfo,
    };
    setPicked(toggleRack(session, rackId).chosen);
  };

  const clearSet = (k: PickSet) => setPicked((p) => ({ ...p, [k]: [] }));

  return { picked, clearSet, failures, setFailures, picking, beginPick, finishPick, toggleFromList };
}

/** The form as it stands when Run is pressed. */
export interface RunInput {
  preset: Preset;
  /** The preset's fields as shown. */
  values: ShownValues;
  routing: RoutingType;
  seeds: string;
  mode: ModeSettings;
  sets: readonly PickSet[];
  picked: Record<PickSet, readonly string[]>;
  failures: readonly FailureRow[];
}

/**
 * One job per plan and seed. Every request is built before any is sent: a refusal for one plan
 * submits nothing. Resolves to the submitted job ids.
 */
export async function submitRuns(plans: readonly WiringPlan[], input: RunInput): Promise<number[]> {
  const params = paramsOf(input.preset, input.values);
  const seedList = parseSeeds(input.seeds);
  const failureList = failuresOf(input.failures);
  const chosen = chosenOf(input.sets, input.picked);
  const perPlan = await Promise.all(
    plans.map(async (p) => {
      const net = await networkOfPlan(p.id);
      const ids = new Set([...net.nodes.map((n) => n.id), ...net.links.map((l) => l.id)]);
      const missing = input.failures.find((f) => !ids.has(f.id));
      if (missing)
        throw new PresetError(
          "failures",
          `${missing.kind === "link" ? "cable" : "switch"} ${missing.id} is not in plan #${p.id}`,
        );
      const reqs = requestsFor(input.preset, params, input.routing, seedList, failureList, chosen);
      return { plan: p, reqs: reqs.map((r) => withMode(r, input.mode)) };
    }),
  );
  const ids: number[] = [];
  for (const { plan, reqs } of perPlan) for (const r of reqs) ids.push((await submit(plan.id, r)).id);
  return ids;
}

/** Run: submit, select the new jobs and close the form, or keep it open with the refusal. */
export function useSubmitRuns(plans: readonly WiringPlan[]): {
  busy: boolean;
  error: FormError | null;
  run: (input: RunInput) => Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const run = async (input: RunInput) => {
    setError(null);
    setBusy(true);
    try {
      const ids = await submitRuns(plans, input);
      useSimulations.setState((s) => ({ selected: ids, dialog: { d: "none" }, jobs: s.jobs }));
      notify("info", `${ids.length} simulation${ids.length === 1 ? "" : "s"} submitted`);
    } catch (e) {
      setError(formErrorOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
