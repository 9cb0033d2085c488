/**
 * Where a structured plan's plant is drawn: panels as thin boxes at their U on their rack's port face,
 * trunks as one tube each along the tray route of a link they carry (the server's routing, read from the
 * plan's render buffers, trimmed to the trunk's two racks). Pure (three.js math only); tested.
 */
import * as THREE from "three";
import { mergeGeometries } from "three/examples/jsm/utils/BufferGeometryUtils.js";
import { hallOf, isRack, isRow, U_MM, type Records } from "../model/records";
import { cableEnds, type CableSet } from "../state/wiring";
import { rackOfName } from "../state/plant";
import { placeRack, type RackPlacement } from "./selectors";

/** Racks by the names the plan uses (`<hall>.<row>.<rack>`), and by their own name as a fallback. */
export function rackIndex(records: Records): Map<string, RackPlacement> {
  const hall = hallOf(records);
  const out = new Map<string, RackPlacement>();
  for (const rec of Object.values(records)) {
    if (!isRack(rec)) continue;
    const row = records[rec.rowId];
    if (!isRow(row)) continue;
    const p = placeRack(row, rec);
    if (hall) out.set(`${hall.name}.${row.name}.${rec.name}`, p);
    if (!out.has(rec.name)) out.set(rec.name, p);
  }
  return out;
}

export function findRack(index: ReadonlyMap<string, RackPlacement>, rackName: string): RackPlacement | null {
  return index.get(rackName) ?? index.get(rackName.slice(rackName.lastIndexOf(".") + 1)) ?? null;
}

/** A panel's box: centre (world metres), size along the rack face, height, thickness, and its yaw. */
export interface PanelBox {
  x: number;
  y: number;
  z: number;
  w: number;
  h: number;
  d: number;
  yaw: number;
}

/** Proud of the port face, so a panel is seen (and clicked) in front of the rack. */
const PANEL_PROUD_M = 0.02;

/** The panel at U `u` (its lowest), `heightU` high, on the port face of rack `p`. */
export function panelBox(p: RackPlacement, u: number, heightU = 1): PanelBox {
  const along = Math.abs(p.fx) > 0.5 ? p.sz : p.sx;
  const depth = Math.abs(p.fx) > 0.5 ? p.sx : p.sz;
  const face = depth / 2 + PANEL_PROUD_M;
  return {
    x: p.x + p.fx * face,
    y: ((u - 1 + heightU / 2) * U_MM) / 1000,
    z: p.z + p.fz * face,
    w: along * 0.9,
    h: (heightU * U_MM * 0.9) / 1000,
    d: 0.03,
    yaw: Math.atan2(p.fx, p.fz),
  };
}

/** A device's point on its rack's port face (`<rack>.U<nn>`: its lowest U), or null when the rack is unknown. */
export function devicePoint(index: ReadonlyMap<string, RackPlacement>, device: string): THREE.Vector3 | null {
  const p = findRack(index, rackOfName(device));
  const u = Number(/\.U(\d+)$/.exec(device.split(":")[0] ?? "")?.[1]);
  if (!p || !Number.isFinite(u)) return null;
  const b = panelBox(p, u);
  return new THREE.Vector3(b.x, b.y, b.z);
}

/** A cable's route as a polyline (world metres), rebuilt from its segments. */
export function routeOf(set: CableSet, i: number): THREE.Vector3[] {
  const a = set.segStart[i] ?? 0;
  const b = set.segStart[i + 1] ?? a;
  const s = set.segments;
  const pts: THREE.Vector3[] = [];
  for (let k = a; k < b; k++) {
    if (k === a) pts.push(new THREE.Vector3(s[k * 6], s[k * 6 + 1], s[k * 6 + 2]));
    pts.push(new THREE.Vector3(s[k * 6 + 3], s[k * 6 + 4], s[k * 6 + 5]));
  }
  return pts;
}

/**
 * Which link of the plan a trunk borrows its tray route from, indexed once per plan (a big plan has
 * thousands of trunks and a hundred thousand links): one whose ends are in the trunk's two racks, else
 * the first from the near rack's row to the far rack (panels at the row end: the links start further
 * along the row and pass the row-end rack). Either end order.
 */
export function carrierIndex(set: CableSet): (rackA: string, rackB: string) => number | null {
  const byRacks = new Map<string, number>();
  const byRow = new Map<string, number>();
  const labels = set.buffers.labels;
  const keep = (m: Map<string, number>, k: string, i: number) => {
    if (!m.has(k)) m.set(k, i);
  };
  for (let i = 0; i < labels.length; i++) {
    const ends = cableEnds(labels[i] ?? "");
    const a = rackOfName(ends.a);
    const b = rackOfName(ends.b);
    keep(byRacks, `${a}|${b}`, i);
    keep(byRacks, `${b}|${a}`, i);
    keep(byRow, `${rackOfName(a)}|${b}`, i);
    keep(byRow, `${rackOfName(b)}|${a}`, i);
  }
  return (rackA, rackB) =>
    byRacks.get(`${rackA}|${rackB}`) ??
    byRow.get(`${rackOfName(rackA)}|${rackB}`) ??
    byRow.get(`${rackOfName(rackB)}|${rackA}`) ??
    null;
}

const nearestXZ = (pts: readonly THREE.Vector3[], q: THREE.Vector3, from = 0): number => {
  let best = from;
  let bestD = Infinity;
  for (let k = from; k < pts.length; k++) {
    const p = pts[k];
    if (!p) continue;
    const d = (p.x - q.x) ** 2 + (p.z - q.z) ** 2;
    if (d < bestD - 1e-12) {
      bestD = d;
      best = k;
    }
  }
  return best;
};

/**
 * The trunk's path from panel `a` to panel `b`: up (or down) to the tray of the borrowed route, along
 * the part of the route between the two racks that runs in a tray (above the racks, or under the
 * floor), and down to `b`. Without a route: straight across at `trayY`.
 */
export function trunkPath(
  a: THREE.Vector3,
  b: THREE.Vector3,
  route: readonly THREE.Vector3[] | null,
  rackTopY: number,
  trayY: number,
): { points: THREE.Vector3[]; routed: boolean } {
  const inTray = (p: THREE.Vector3) => p.y >= rackTopY - 1e-3 || p.y <= 1e-3;
  if (route && route.length >= 2) {
    let pts = [...route];
    // Orient the route from a to b.
    if (nearestXZ(pts, a) > nearestXZ(pts, b)) pts = pts.reverse();
    const ia = nearestXZ(pts, a);
    const ib = nearestXZ(pts, b, ia);
    const middle = pts.slice(ia, ib + 1).filter(inTray);
    const first = middle[0];
    const last = middle[middle.length - 1];
    if (first && last) {
      return {
        points: dedupe([a, new THREE.Vector3(a.x, first.y, a.z), ...middle, new THREE.Vector3(b.x, last.y, b.z), b]),
        routed: true,
      };
    }
  }
  return {
    points: dedupe([a, new THREE.Vector3(a.x, trayY, a.z), new THREE.Vector3(b.x, trayY, b.z), b]),
    routed: false,
  };
}

function dedupe(pts: THREE.Vector3[]): THREE.Vector3[] {
  return pts.filter((p, k) => k === 0 || p.distanceToSquared(pts[k - 1] ?? p) > 1e-8);
}

/** Tube radius (m) of a trunk: grows with its fibres, thick enough to read as a bundle from afar. */
export function trunkRadius(fibres: number): number {
  return 0.02 + 0.004 * Math.sqrt(Math.max(0, fibres));
}

const UP = new THREE.Vector3(0, 1, 0);

/**
 * One tube along a polyline: a six-sided open cylinder per leg, so it follows every corner exactly (a
 * TubeGeometry samples the path by arc length and cuts the corners of a few long legs).
 */
export function tubeGeometry(points: readonly THREE.Vector3[], radius: number): THREE.BufferGeometry {
  const legs: THREE.BufferGeometry[] = [];
  const dir = new THREE.Vector3();
  const turn = new THREE.Quaternion();
  const m = new THREE.Matrix4();
  for (let k = 1; k < points.length; k++) {
    const p0 = points[k - 1];
    const p1 = points[k];
    if (!p0 || !p1) continue;
    const length = p0.distanceTo(p1);
    if (length < 1e-6) continue;
    const leg = new THREE.CylinderGeometry(radius, radius, length, 6, 1, true);
    turn.setFromUnitVectors(UP, dir.subVectors(p1, p0).normalize());
    m.compose(new THREE.Vector3().addVectors(p0, p1).multiplyScalar(0.5), turn, new THREE.Vector3(1, 1, 1));
    leg.applyMatrix4(m);
    legs.push(leg);
  }
  const merged = legs.length ? mergeGeometries(legs) : new THREE.BufferGeometry();
  for (const l of legs) l.dispose();
  return merged;
}
