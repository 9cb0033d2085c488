/** What the simulations view shows: the project's runs, the ones ticked to compare, the open dialog. */
import { create } from "zustand";
import type { Job, WiringPlan } from "./api";
import type { SweepDetail } from "./sweeps";

export type SimDialog =
  | { d: "none" }
  | { d: "form"; plans: WiringPlan[] }
  | { d: "result"; jobId: number }
  | { d: "compare"; jobIds: number[] }
  | { d: "sweep"; sweep: SweepDetail | null };

interface SimState {
  jobs: Job[];
  selected: number[];
  dialog: SimDialog;
}

export const useSimulations = create<SimState>(() => ({ jobs: [], selected: [], dialog: { d: "none" } }));

/** Open the simulation form for one plan, or two for a like-for-like comparison (the Plans tab's "Simulate"). */
export function openSimulationForm(plans: WiringPlan[]): void {
  useSimulations.setState({ dialog: { d: "form", plans } });
}
