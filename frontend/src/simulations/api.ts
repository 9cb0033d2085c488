/**
 * The simulations API: the preset table, submit on a plan, follow, cancel, list; a plan's logical
 * racks (from its scenario).
 */
import type { components } from "../api/schema";
import { request } from "../sync/http";
import type { NetworkNode } from "./hallRacks";
import {
  racksOfNetwork,
  switchesOfNetwork,
  type LogicalRack,
  type PlanSimulationCreate,
  type PresetTable,
} from "./presets";

export type Job = components["schemas"]["SimulationRead"];
export type JobDetail = components["schemas"]["SimulationDetail"];
export type WiringPlan = components["schemas"]["WiringPlanRead"];

export const finished = (j: Job) => j.status === "succeeded" || j.status === "failed" || j.status === "cancelled";

export interface PlanNetwork {
  racks: LogicalRack[];
  switches: { id: string; role: string }[];
  /** Every node with the physical rack it stands in (for the floor), and the links (cable IDs). */
  nodes: NetworkNode[];
  links: { id: string; a: string; b: string }[];
}

const networks = new Map<number, Promise<PlanNetwork>>();

/** A plan's logical racks in layout order and its switches (plans are immutable: read once per plan). */
export function networkOfPlan(planId: number): Promise<PlanNetwork> {
  let p = networks.get(planId);
  if (!p) {
    p = request<{ network: { nodes: NetworkNode[]; links: { id: string; a: string; b: string }[] } }>(
      "GET",
      `/wiring-plans/${planId}/scenario`,
    ).then((s) => ({
      racks: racksOfNetwork(s.network.nodes),
      switches: switchesOfNetwork(s.network.nodes),
      nodes: s.network.nodes,
      links: s.network.links,
    }));
    p.catch(() => networks.delete(planId));
    networks.set(planId, p);
  }
  return p;
}

let presets: Promise<PresetTable> | null = null;

/** The workload presets the form is drawn from (the server's table; read once, again after a failure). */
export function presetTable(): Promise<PresetTable> {
  if (!presets) {
    presets = request<PresetTable>("GET", "/simulation-presets");
    presets.catch(() => (presets = null));
  }
  return presets;
}

export function submit(planId: number, body: PlanSimulationCreate): Promise<Job> {
  return request<Job>("POST", `/wiring-plans/${planId}/simulations`, { body });
}

export function getJob(id: number): Promise<JobDetail> {
  return request<JobDetail>("GET", `/simulations/${id}`);
}

export function cancelJob(id: number): Promise<Job> {
  return request<Job>("POST", `/simulations/${id}/cancel`);
}

/** The project's newest runs (first page of 100). */
export async function listJobs(projectId: number): Promise<Job[]> {
  const res = await request<{ items: Job[] }>("GET", `/projects/${projectId}/simulations?limit=100`);
  return res.items;
}

/** Jobs still queued ahead of this one in the project (lower id, queued): its place in the line. */
export function queuePosition(job: Job, all: readonly Job[]): number {
  return all.filter((j) => j.status === "queued" && j.id < job.id).length + 1;
}
