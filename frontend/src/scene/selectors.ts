/**
 * Geometry selectors for the scene, memoised per record: a rack's placement is recomputed only when
 * its record or its row's record changes (records are immutable, so identity is the cache key).
 */
import { facing, rackBox, type Box } from "../model/geometry";
import { isRack, isRow, U_MM, type RackRecord, type Records, type RowRecord } from "../model/records";

export interface RackPlacement {
  id: string;
  rowId: string;
  /** Centre on the floor, metres (world x, world z). */
  x: number;
  z: number;
  /** Size along world x / z and height, metres. */
  sx: number;
  sz: number;
  h: number;
  /** Unit vector (world x, z) out of the port face. */
  fx: number;
  fz: number;
  rack: RackRecord;
}

const cache = new WeakMap<RackRecord, { row: RowRecord; p: RackPlacement }>();

export function placeRack(row: RowRecord, rack: RackRecord): RackPlacement {
  const hit = cache.get(rack);
  if (hit && hit.row === row) return hit.p;
  const b: Box = rackBox(row, rack);
  // Out of the port face: the row's front side (hall y is world z), flipped when the ports are on the rear.
  const f = facing(row.direction, row.front);
  const flip = rack.portFace === "rear" ? -1 : 1;
  const fx = f.x * flip + 0; // + 0: no -0
  const fz = f.y * flip + 0;
  const p: RackPlacement = {
    id: rack.id,
    rowId: row.id,
    x: (b.x0 + b.x1) / 2000,
    z: (b.y0 + b.y1) / 2000,
    sx: (b.x1 - b.x0) / 1000,
    sz: (b.y1 - b.y0) / 1000,
    h: (rack.rackType.heightU * U_MM) / 1000,
    fx,
    fz,
    rack,
  };
  cache.set(rack, { row, p });
  return p;
}

/** Every rack's placement, in a stable order (by id), for instancing. */
export function placements(records: Records): RackPlacement[] {
  const out: RackPlacement[] = [];
  for (const rec of Object.values(records)) {
    if (!isRack(rec)) continue;
    const row = records[rec.rowId];
    if (isRow(row)) out.push(placeRack(row, rec));
  }
  return out;
}

export interface DevicePlacement {
  x: number;
  y: number;
  z: number;
  /** Width along the row and height, metres; the slab faces `yaw` (radians about up, 0 = +z). */
  w: number;
  h: number;
  yaw: number;
  tor: boolean;
}

/**
 * Servers and ToRs as thin slabs on each rack's port face. Logical racks stack from U1 upwards; the
 * ToR sits at the top, middle or bottom of its logical rack (as `LogicalRack.tor_u` in the domain).
 */
const deviceCache = new WeakMap<RackPlacement, DevicePlacement[]>();

export function devicesOf(p: RackPlacement): DevicePlacement[] {
  const hit = deviceCache.get(p);
  if (hit) return hit;
  const out = computeDevices(p);
  deviceCache.set(p, out);
  return out;
}

function computeDevices(p: RackPlacement): DevicePlacement[] {
  const r = p.rack;
  const out: DevicePlacement[] = [];
  const along = Math.abs(p.fx) > 0.5 ? p.sz : p.sx;
  const depth = Math.abs(p.fx) > 0.5 ? p.sx : p.sz;
  const face = depth / 2 + 0.006;
  const w = along * 0.86;
  const slabAt = (startU: number, hU: number, tor: boolean) =>
    out.push({
      x: p.x + p.fx * face,
      y: ((startU - 1 + hU / 2) * U_MM) / 1000,
      z: p.z + p.fz * face,
      w,
      h: (hU * U_MM * 0.82) / 1000,
      yaw: Math.atan2(p.fx, p.fz),
      tor,
    });
  for (const f of r.fabricSwitches) slabAt(f.u, f.heightU, true);
  let u = 1;
  for (let l = 0; l < (r.role === "compute" ? r.logicalRacks : 0); l++) {
    const servers = r.serversPerLogicalRack;
    const below = r.torPosition === "bottom" ? 0 : r.torPosition === "middle" ? Math.floor(servers / 2) : servers;
    const torU = u + below * r.serverModel.heightU;
    let su = u;
    const slab = slabAt;
    for (let s = 0; s < servers; s++) {
      if (su === torU) su += r.torModel.heightU;
      slab(su, r.serverModel.heightU, false);
      su += r.serverModel.heightU;
    }
    slab(torU, r.torModel.heightU, true);
    u += servers * r.serverModel.heightU + r.torModel.heightU;
  }
  return out;
}
