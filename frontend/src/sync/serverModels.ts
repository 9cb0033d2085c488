/**
 * Switching the server model of a hall's logical racks through the layout API (each rack updated
 * under its version), for a wiring that needs more NIC ports than the servers have; the editor then
 * reads the hall again. The pure part (`serverModelSwitch`) is tested in serverModels.test.ts.
 */
import type { components } from "../api/schema";
import { activeSync } from "./active";
import { request } from "./http";

export type LayoutRack = {
  id: number;
  version: number;
  logical_racks: {
    servers: number;
    server_model_id: number;
    ports_used: number;
    tor_model_id: number;
    tor_position: string;
    base_u: number;
  }[];
};

/**
 * The rack updates (`PATCH /racks/{id}` bodies, with the version to send as If-Match) that give every
 * logical rack whose server model has fewer than `nicPorts` NIC ports the server model `modelId`.
 * `nicPortsOf`: catalog server model id -> its NIC ports.
 */
export function serverModelSwitch(
  racks: readonly LayoutRack[],
  nicPortsOf: ReadonlyMap<number, number>,
  nicPorts: number,
  modelId: number,
): { rackId: number; version: number; body: { logical_racks: LayoutRack["logical_racks"] } }[] {
  return racks.flatMap((rack) => {
    const short = rack.logical_racks.some((lr) => (nicPortsOf.get(lr.server_model_id) ?? 0) < nicPorts);
    if (!short) return [];
    const logical_racks = rack.logical_racks.map((lr) => ({
      servers: lr.servers,
      server_model_id: (nicPortsOf.get(lr.server_model_id) ?? 0) < nicPorts ? modelId : lr.server_model_id,
      ports_used: lr.ports_used,
      tor_model_id: lr.tor_model_id,
      tor_position: lr.tor_position,
      base_u: lr.base_u,
    }));
    return [{ rackId: rack.id, version: rack.version, body: { logical_racks } }];
  });
}

/**
 * Give every logical rack of the hall whose servers have fewer than `nicPorts` NIC ports the server
 * model `modelId`, through the layout API (one rack update each, under its version); the editor then
 * reads the hall again. Returns the racks changed.
 */
export async function switchServerModel(hallId: number, nicPorts: number, modelId: number): Promise<number> {
  const layout = await request<components["schemas"]["HallLayout"]>("GET", `/halls/${hallId}/layout`);
  const nicPortsOf = new Map(layout.server_models.map((m) => [m.id, m.nic_ports]));
  const racks = layout.rows.flatMap((r) => r.racks);
  const updates = serverModelSwitch(racks, nicPortsOf, nicPorts, modelId);
  for (const u of updates) await request("PATCH", `/racks/${u.rackId}`, { body: u.body, version: u.version });
  await activeSync()?.reload({ clearHistory: false });
  return updates.length;
}
