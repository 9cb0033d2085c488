/** The plans view's API calls, and loading their answers into the stores (state/wiring, state/planDiff). */
import type { components } from "../api/schema";
import { classifyCables, clearDiff, useDiff } from "../state/planDiff";
import { notify } from "../state/session";
import { toCableSet, useWiring, type CableSet, type RenderBuffers } from "../state/wiring";
import { request } from "../sync/http";
import type { Bom, WiringPlan } from "./compare";
import type { PlanUpgradeCreate, WiringOptions } from "./upgrade";

export type PlanDiff = components["schemas"]["PlanDiffRead"];
export type DiffCable = components["schemas"]["DiffCableRead"];
export type DiffStatusName = components["schemas"]["DiffStatus"];

/** The plans of a hall, newest first (the API lists them per project). */
export async function listHallPlans(projectId: number, hallId: number): Promise<WiringPlan[]> {
  const out: WiringPlan[] = [];
  for (let page = 1; ; page++) {
    const res = await request<{ items: WiringPlan[]; total: number }>(
      "GET",
      `/projects/${projectId}/wiring-plans?limit=100&page=${page}`,
    );
    out.push(...res.items.filter((p) => p.hall_id === hallId));
    if (res.items.length < 100 || page * 100 >= res.total) break;
  }
  return out.sort((a, b) => b.id - a.id);
}

/** Read the hall's plans again (their figures are priced as they are read); the viewed plan too. */
export async function refreshPlans(projectId: number, hallId: number): Promise<WiringPlan[]> {
  const plans = await listHallPlans(projectId, hallId);
  useWiring.setState((s) => ({ plans, plan: s.plan ? (plans.find((p) => p.id === s.plan?.id) ?? s.plan) : null }));
  return plans;
}

export function getBom(planId: number): Promise<Bom> {
  return request<Bom>("GET", `/wiring-plans/${planId}/bom`);
}

export function getDiff(newId: number, oldId: number): Promise<PlanDiff> {
  return request<PlanDiff>("GET", `/wiring-plans/${newId}/diff?against=${oldId}`);
}

async function cableSet(planId: number): Promise<CableSet> {
  const cached = useWiring.getState().cables;
  if (cached?.planId === planId) return cached;
  return toCableSet(planId, await request<RenderBuffers>("GET", `/wiring-plans/${planId}/render`));
}

/** Show a plan in 3D (its cables by medium), dropping any diff overlay. */
export async function viewPlan(plan: WiringPlan): Promise<void> {
  clearDiff();
  useWiring.setState({ plan, loading: true, focus: null });
  try {
    const set = await cableSet(plan.id);
    useWiring.setState({ cables: set, loading: false });
  } catch (e) {
    useWiring.setState({ loading: false });
    notify("error", `Could not load the cables of ${plan.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Show `newer` in 3D with its difference from `older`: both plans' cables and the API's diff, then
 * the overlay (state/planDiff.ts) the scene and the legend draw.
 */
export async function showDiff(older: WiringPlan, newer: WiringPlan): Promise<PlanDiff> {
  useDiff.setState({ loading: true });
  try {
    const [oldSet, newSet, diff] = await Promise.all([
      cableSet(older.id),
      cableSet(newer.id),
      getDiff(newer.id, older.id),
    ]);
    const cableDiff = classifyCables(oldSet.buffers.cable_ids, newSet.buffers.cable_ids, diff.moved);
    useWiring.setState({ plan: newer, cables: newSet, loading: false, focus: null });
    useDiff.setState({
      loading: false,
      overlay: {
        oldPlanId: older.id,
        newPlanId: newer.id,
        oldSet,
        newSet,
        diff: cableDiff,
        apiCounts: {
          kept: diff.counts.kept,
          added: diff.counts.added,
          moved: diff.counts.moved,
          removed: diff.counts.removed,
          changed: diff.counts.changed,
        },
      },
    });
    return diff;
  } catch (e) {
    useDiff.setState({ loading: false });
    throw e;
  }
}

/** Generate the upgrade of `base`; it joins the hall's plans. */
export async function createUpgrade(base: WiringPlan, body: PlanUpgradeCreate): Promise<WiringPlan> {
  const created = await request<WiringPlan>("POST", `/wiring-plans/${base.id}/upgrades`, { body });
  useWiring.setState((s) => ({ plans: [created, ...s.plans.filter((p) => p.id !== created.id)] }));
  return created;
}

/** One page of the diff's cables with labels, both ends and lengths. */
export function diffCables(
  newId: number,
  oldId: number,
  status: DiffStatusName,
  page: number,
  limit = 50,
): Promise<{ items: DiffCable[]; total: number }> {
  return request(
    "GET",
    `/wiring-plans/${newId}/diff/cables?against=${oldId}&status=${status}&page=${page}&limit=${limit}`,
  );
}

/** The upgrades of a plan the hall can build, each with why not (and the hardware that would do). */
export function upgradeOptions(planId: number): Promise<WiringOptions> {
  return request<WiringOptions>("GET", `/wiring-plans/${planId}/upgrade-options`);
}
