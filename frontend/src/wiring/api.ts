/** The wiring panel's API calls, and loading their answers into the wiring store (state/wiring.ts). */
import { notify } from "../state/session";
import { toCableSet, useWiring, type RenderBuffers, type WiringPlan } from "../state/wiring";
import { request } from "../sync/http";
import type { PlanBody } from "./form";

/** The plans of a hall (the API lists them per project). */
export async function listPlans(projectId: number, hallId: number): Promise<WiringPlan[]> {
  const page = await request<{ items: WiringPlan[] }>("GET", `/projects/${projectId}/wiring-plans?limit=100`);
  return page.items.filter((p) => p.hall_id === hallId);
}

export function getPlan(planId: number): Promise<WiringPlan> {
  return request<WiringPlan>("GET", `/wiring-plans/${planId}`);
}

/** Generate a plan; it is added to the hall's plans and shown. Rejects with the `ApiError` when refused. */
export async function generatePlan(hallId: number, body: PlanBody): Promise<void> {
  const created = await request<WiringPlan>("POST", `/halls/${hallId}/wiring-plans`, { body });
  useWiring.setState((s) => ({ plans: [created, ...s.plans] }));
  await showPlan(created);
}

/** Load a plan's render buffers and show them. */
export async function showPlan(plan: WiringPlan): Promise<void> {
  useWiring.setState({ plan, loading: true, focus: null });
  try {
    const buffers = await request<RenderBuffers>("GET", `/wiring-plans/${plan.id}/render`);
    performance.mark("loopline:cables-fetched");
    const set = toCableSet(plan.id, buffers);
    performance.mark("loopline:cables-flattened");
    useWiring.setState({ cables: set, loading: false });
  } catch (e) {
    useWiring.setState({ loading: false });
    notify("error", `Could not load the cables of ${plan.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
