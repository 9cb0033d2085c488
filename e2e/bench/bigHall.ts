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

/**
 * The campus-scale hall (issue 33): "CH", 70 x 250 m, 100 rows of 100 racks (50 facing pairs), each
 * rack a logical rack of 12 servers and one of 13 with p = 2, so 10,000 x 25 x 2 = 500,000 cables.
 */
export const CAMPUS_HALL = { name: "CH", widthM: 70, depthM: 250, rows: 100, racksPerRow: 100, servers: [12, 13] } as const;
export const CAMPUS_HALL_RACKS = 100 * 100;
export const CAMPUS_HALL_CABLES = 10_000 * 25 * 2;

/** The shape of a generated hall: facing pairs of rows along x, 2.4 m apart, logical racks of `servers` each. */
export interface HallShape {
  name: string;
  widthM: number;
  depthM: number;
  rows: number;
  racksPerRow: number;
  servers: readonly number[];
}
const BIG_HALL: HallShape = { name: "BH", widthM: 100, depthM: 100, rows: 40, racksPerRow: 50, servers: [13, 13] };

export interface BigHall {
  projectId: number;
  hallId: number;
  planId: number;
  planCables: number;
  /** Seconds the API took for the layout (project, hall, bulk rows) and for the plan; null when reused. */
  layoutApiS: number | null;
  planApiS: number | null;
}

export async function buildBigHall(api: APIRequestContext, shape: HallShape = BIG_HALL): Promise<BigHall> {
  const t0 = Date.now();
  const project = await (
    await api.post("/api/v1/projects", {
      data: { name: `bench ${new Date().toISOString()}`, fabric: { fabric_type: "leaf_spine", tor_uplinks: 0, spines: 1 } },
    })
  ).json();
  expect(project.id, JSON.stringify(project)).toBeTruthy();
  const hallRes = await api.post(`/api/v1/projects/${project.id}/halls`, { data: { name: shape.name, width_m: shape.widthM, depth_m: shape.depthM } });
  expect(hallRes.status(), await hallRes.text()).toBe(201);
  const hall = await hallRes.json();
  const items = async (kind: string) => (await (await api.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const [servers, switches, racks] = [await items("server-models"), await items("switch-models"), await items("rack-types")];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const lr = (n: number) => ({ servers: n, server_model_id: id(servers, "2x25G server"), ports_used: 2, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" });
  const template = { rack_type_id: id(racks, "42U 600x1200"), logical_racks: shape.servers.map(lr) };
  const rows = Array.from({ length: shape.rows }, (_, i) => ({
    name: `R${String(i + 1).padStart(2, "0")}`,
    x_m: 2,
    // Facing pairs across 1.2 m cold aisles, 1.2 m hot aisles between pairs.
    y_m: 2 + i * 2.4,
    direction: 0,
    front: i % 2 === 0 ? "left" : "right",
    rack_count: shape.racksPerRow,
    rack_template: template,
  }));
  rows.push({
    name: "N01",
    x_m: Math.max(40, 2 + shape.racksPerRow * 0.6 + 4),
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
export async function findBigHall(api: APIRequestContext, shape: HallShape = BIG_HALL): Promise<BigHall | null> {
  const cables = shape.rows * shape.racksPerRow * shape.servers.reduce((a, b) => a + b, 0) * 2;
  const projects = (await (await api.get("/api/v1/projects?limit=100")).json()).items as { id: number; name: string }[];
  for (const p of projects.filter((x) => x.name.startsWith("bench ")).reverse()) {
    const halls = (await (await api.get(`/api/v1/projects/${p.id}/halls`)).json()).items as { id: number; name: string }[];
    const hall = halls.find((h) => h.name === shape.name);
    if (!hall) continue;
    const plans = (await (await api.get(`/api/v1/projects/${p.id}/wiring-plans?hall_id=${hall.id}`)).json()).items as {
      id: number;
      summary: { cables: number };
    }[];
    const plan = plans.find((x) => x.summary.cables === cables);
    if (plan) return { projectId: p.id, hallId: hall.id, planId: plan.id, planCables: plan.summary.cables, layoutApiS: null, planApiS: null };
  }
  return null;
}
