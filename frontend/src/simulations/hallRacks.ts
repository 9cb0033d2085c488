/**
 * The plan's network on the hall's floor (pure; tested in hallRacks.test.ts): which physical rack
 * record each scenario node stands in (the scenario names racks `<hall>.<row>.<rack>`, as the layout
 * does), its logical racks bottom first, and the switches in it with the rack units they take (a
 * logical rack's ToR takes its logical rack's units, stacked from U1 like the scene draws them; a
 * fabric switch its own slot).
 */
import { hallOf, isRack, isRow, type RackRecord, type Records } from "../model/records";
import type { RackDevice, RackPickInfo } from "../state/floorPick";

export interface NetworkNode {
  id: string;
  role: string;
  rack?: string | null;
  logical_rack?: string | null;
}

/** Every rack record by its full name (`H1.R01.R01-03`). */
export function racksByFullName(records: Records): Map<string, RackRecord> {
  const hall = hallOf(records);
  const out = new Map<string, RackRecord>();
  if (!hall) return out;
  for (const rec of Object.values(records)) {
    if (!isRack(rec)) continue;
    const row = records[rec.rowId];
    if (isRow(row)) out.set(`${hall.name}.${row.name}.${rec.name}`, rec);
  }
  return out;
}

/** `H1.R01.R01-03.L2` -> 2 (0 when it has no `.L<n>` ending). */
const logicalIndex = (name: string): number => Number(/\.L(\d+)$/.exec(name)?.[1] ?? 0);

/** Per rack record id: its name, logical racks in the plan (bottom first) and switches with their units. */
export function rackPickInfo(nodes: readonly NetworkNode[], records: Records): Map<string, RackPickInfo> {
  const byName = racksByFullName(records);
  const hall = hallOf(records);
  const out = new Map<string, { name: string; logical: Set<string>; devices: RackDevice[] }>();
  for (const n of nodes) {
    const rack = n.rack ? byName.get(n.rack) : undefined;
    if (!rack) continue;
    let info = out.get(rack.id);
    if (!info) out.set(rack.id, (info = { name: rack.name, logical: new Set(), devices: [] }));
    if (n.role === "server") {
      if (n.logical_rack) info.logical.add(n.logical_rack);
      continue;
    }
    if (n.role === "tor" && n.logical_rack) {
      const block = rack.serversPerLogicalRack * rack.serverModel.heightU + rack.torModel.heightU;
      const u0 = 1 + (logicalIndex(n.logical_rack) - 1) * block;
      info.devices.push({ node: n.id, role: n.role, u0, u1: u0 + block });
      continue;
    }
    const slot = rack.fabricSwitches.find((f) => `${hall?.name}.${f.name}` === n.id);
    info.devices.push({
      node: n.id,
      role: n.role,
      u0: slot ? slot.u : 1,
      u1: slot ? slot.u + slot.heightU : rack.rackType.heightU + 1,
    });
  }
  const result = new Map<string, RackPickInfo>();
  for (const [id, info] of out)
    result.set(id, {
      name: info.name,
      logical: [...info.logical].sort((a, b) => logicalIndex(a) - logicalIndex(b)),
      devices: info.devices,
    });
  return result;
}

/** Per rack record id: its ToRs' node ids (for the heat map), and the racks' names. */
export function torsByRack(
  nodes: readonly NetworkNode[],
  records: Records,
): { tors: Map<string, string[]>; names: Map<string, string> } {
  const byName = racksByFullName(records);
  const tors = new Map<string, string[]>();
  const names = new Map<string, string>();
  for (const n of nodes) {
    const rack = n.rack ? byName.get(n.rack) : undefined;
    if (!rack || n.role !== "tor") continue;
    names.set(rack.id, rack.name);
    const list = tors.get(rack.id);
    if (list) list.push(n.id);
    else tors.set(rack.id, [n.id]);
  }
  return { tors, names };
}
