/**
 * A simulation on the hall's floor: its plan's cables in 3D, its heat map (state/heatMap.ts, painted
 * by the scene), and the racks and switches the form can pick there (state/floorPick.ts).
 */
import { editor } from "../state/editor";
import { buildHeat, showHeat } from "../state/heatMap";
import { clearDiff } from "../state/planDiff";
import { toCableSet, useWiring, type RenderBuffers } from "../state/wiring";
import { request } from "../sync/http";
import { networkOfPlan, type WiringPlan } from "./api";
import { rackPickInfo, torsByRack } from "./hallRacks";
import type { EngineResult } from "./results";

/** Show a plan's cables in 3D (the plan the heat map or the picking is about), unless they are on screen. */
export async function showPlanCables(planId: number): Promise<void> {
  const w = useWiring.getState();
  if (w.cables?.planId === planId) return;
  const plan = w.plans.find((p) => p.id === planId) ?? (await request<WiringPlan>("GET", `/wiring-plans/${planId}`));
  useWiring.setState({ plan, loading: true, focus: null });
  try {
    const buffers = await request<RenderBuffers>("GET", `/wiring-plans/${planId}/render`);
    useWiring.setState({ cables: toCableSet(planId, buffers), loading: false });
  } catch (e) {
    useWiring.setState({ loading: false });
    throw e;
  }
}

/** Whether a result can be shown as a heat map: it has per-link utilisation series. */
export function hasLinkSeries(r: EngineResult | null | undefined): boolean {
  return Boolean(r?.links?.links.some((l) => (l.util?.length ?? 0) > 0));
}

/** Paint a finished run's link utilisation on the hall: its plan's cables, and racks by their ToRs. */
export async function openHeatMap(jobId: number, planId: number, result: EngineResult): Promise<void> {
  if (!result.links) throw new Error("this result has no link utilisation series (engine.link_series was off)");
  const [network] = await Promise.all([networkOfPlan(planId), showPlanCables(planId)]);
  const { tors, names } = torsByRack(network.nodes, editor.records);
  clearDiff();
  showHeat(buildHeat(jobId, planId, result.links, result.simulated_time_s, tors, names));
}

/** The hall's racks as the plan's network has them: logical racks and switches per rack record. */
export async function pickableRacks(planId: number) {
  const network = await networkOfPlan(planId);
  return rackPickInfo(network.nodes, editor.records);
}
