/**
 * The benchmark's big hall, built through the API: a project whose ToRs have no fabric uplinks (so the
 * plan is the server cables), a 100 x 100 m hall "BH" with 40 rows of 50 racks (20 facing pairs), each
 * rack 2 logical racks of 13 servers with p = 2, one network rack with a spine; a single-homed plan:
 * 2,000 x 2 x 13 x 2 = 104,000 cables. Shared by hall.bench.ts (which times opening it) and
 * orbit.bench.ts (which reuses one already built on the same stack).
 */
import { expect, type APIRequestContext } from "@playwright/test";

export const BIG_HALL_RACKS = 2000;
export const BIG_HALL_CABLES = 2000 * 2 * 13 * 2;

export interface BigHall {
  projectId: number;
  hallId: number;
  planId: number;
  planCables: number;
  /** Seconds the API took for the layout (project, hall, bulk rows) and for the plan; null when reused. */
  layoutApiS: number | null;
  planApiS: number | null;
}

export async function buildBigHall(api: APIRequestContext): Promise<BigHall> {
  const t0 = Date.now();
  const project = await (
    await api.post("/api/v1/projects", {
      data: { name: `bench ${new Date().toISOString()}`, fabric: { fabric_type: "leaf_spine", tor_uplinks: 0, spines: 1 } },
    })
  ).json();
  expect(project.id, JSON.stringify(project)).toBeTruthy();
  const hallRes = await api.post(`/api/v1/projects/${project.id}/halls`, { data: { name: "BH", width_m: 100, depth_m: 100 } });
  expect(hallRes.status(), await hallRes.text()).toBe(201);
  const hall = await hallRes.json();
  const items = async (kind: string) => (await (await api.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const [servers, switches, racks] = [await items("server-models"), await items("switch-models"), await items("rack-types")];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const lr = { servers: 13, server_model_id: id(servers, "2x25G server"), ports_used: 2, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const template = { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr, lr] };
  const rows = Array.from({ length: 40 }, (_, i) => ({
    name: `R${String(i + 1).padStart(2, "0")}`,
    x_m: 2,
    // Facing pairs across 1.2 m cold aisles, 1.2 m hot aisles between pairs.
    y_m: 2 + i * 2.4,
    direction: 0,
    front: i % 2 === 0 ? "left" : "right",
    rack_count: 50,
    rack_template: template,
  }));
  rows.push({
    name: "N01",
    x_m: 40,
    y_m: 2,
    direction: 0,
    front: "left",
    racks: [{ name: "N01-01", role: "network", rack_type_id: template.rack_type_id, fabric_switches: [{ name: "SP1", role: "spine", switch_model_id: id(switches, "64x100G spine"), u: 20 }] }],
  } as unknown as (typeof rows)[number]);
  const bulk = await api.post(`/api/v1/halls/${hall.id}/rows/bulk`, { data: { rows }, timeout: 300_000 });
  expect(bulk.status(), await bulk.text()).toBe(201);
  const tLayout = Date.now();
  const planRes = await api.post(`/api/v1/halls/${hall.id}/wiring-plans`, { data: { name: "bench single-homed", pattern: "single-homed" }, timeout: 900_000 });
  expect(planRes.status(), await planRes.text()).toBe(201);
  const plan = await planRes.json();
  const tPlan = Date.now();
  return {
    projectId: project.id,
    hallId: hall.id,
    planId: plan.id,
    planCables: plan.summary.cables,
    layoutApiS: (tLayout - t0) / 1000,
    planApiS: (tPlan - tLayout) / 1000,
  };
}

/** A big hall built earlier on this stack (by either benchmark) with its full plan, or null. */
export async function findBigHall(api: APIRequestContext): Promise<BigHall | null> {
  const projects = (await (await api.get("/api/v1/projects?limit=100")).json()).items as { id: number; name: string }[];
  for (const p of projects.filter((x) => x.name.startsWith("bench ")).reverse()) {
    const halls = (await (await api.get(`/api/v1/projects/${p.id}/halls`)).json()).items as { id: number; name: string }[];
    const hall = halls.find((h) => h.name === "BH");
    if (!hall) continue;
    const plans = (await (await api.get(`/api/v1/projects/${p.id}/wiring-plans?hall_id=${hall.id}`)).json()).items as {
      id: number;
      summary: { cables: number };
    }[];
    const plan = plans.find((x) => x.summary.cables === BIG_HALL_CABLES);
    if (plan) return { projectId: p.id, hallId: hall.id, planId: plan.id, planCables: plan.summary.cables, layoutApiS: null, planApiS: null };
  }
  return null;
}
