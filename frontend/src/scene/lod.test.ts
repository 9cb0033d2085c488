import * as THREE from "three";
import { describe, expect, it } from "vitest";
import type { CableSet } from "../state/wiring";
import {
  ALL_CABLES_MAX_SEGMENTS,
  ALL_DEVICES_MAX_RACKS,
  bundleCables,
  DEVICES_NEAR_MAX,
  fullCables,
  nearRacks,
  sameRacks,
  viewPoint,
  type ViewPoint,
} from "./lod";
import type { RackPlacement } from "./selectors";

/** A 2 m tall rack at (x, z); only what the level of detail reads. */
const rack = (id: string, x: number, z: number): RackPlacement =>
  ({ id, rowId: "r", x, z, sx: 0.6, sz: 1.2, h: 2, fx: 0, fz: 1 }) as unknown as RackPlacement;
const eye = (x: number, y: number, z: number, span = 50): ViewPoint => ({ x, y, z, span });

/** A plan whose cable i runs through the given points (metres, on the floor), one segment per step. */
function cableSet(routes: [number, number][][]): CableSet {
  const segStart = new Uint32Array(routes.length + 1);
  const segs: number[] = [];
  const owner: number[] = [];
  routes.forEach((pts, i) => {
    for (let k = 0; k + 1 < pts.length; k++) {
      const [ax, az] = pts[k]!;
      const [bx, bz] = pts[k + 1]!;
      segs.push(ax, 0, az, bx, 0, bz);
      owner.push(i);
    }
    segStart[i + 1] = owner.length;
  });
  return {
    planId: 1,
    buffers: {} as CableSet["buffers"],
    segStart,
    segCable: Uint32Array.from(owner),
    segments: Float32Array.from(segs),
  };
}

describe("nearRacks", () => {
  it("keeps every rack of a small hall, whatever the view", () => {
    const racks = Array.from({ length: ALL_DEVICES_MAX_RACKS }, (_, i) => rack(`k${i}`, i * 0.6, 0));
    expect(nearRacks(racks, eye(5000, 5000, 5000))).toBe(racks);
  });

  it("in a big hall keeps the racks within 30 m of the eye, in the racks' order", () => {
    // 301 racks on a line 1 m apart from x = 0; the eye 1 m above the racks' middles (y = 1 + 1), at x = 100.
    const racks = Array.from({ length: ALL_DEVICES_MAX_RACKS + 1 }, (_, i) => rack(`k${i}`, i, 0));
    const near = nearRacks(racks, eye(100, 2, 0));
    // Distance from rack i: sqrt((i - 100)^2 + 1) <= 30  <=>  |i - 100| <= sqrt(899) = 29.98: racks 71..129.
    expect(near.map((p) => p.id)).toEqual(Array.from({ length: 59 }, (_, k) => `k${71 + k}`));
  });

  it("keeps at most the nearest 300 when more are close", () => {
    // 400 racks on a 20 x 20 grid, 0.5 m apart, the eye above the corner rack (0, 0): the 300 nearest.
    const racks = Array.from({ length: 400 }, (_, i) => rack(`k${i}`, (i % 20) * 0.5, Math.floor(i / 20) * 0.5));
    const near = nearRacks(racks, eye(0, 1, 0));
    expect(near).toHaveLength(DEVICES_NEAR_MAX);
    const d = (p: RackPlacement) => Math.hypot(p.x, p.z);
    const kept = new Set(near);
    const farthestKept = Math.max(...near.map(d));
    const nearestLeft = Math.min(...racks.filter((p) => !kept.has(p)).map(d));
    expect(farthestKept).toBeLessThanOrEqual(nearestLeft);
    // In the racks' own order.
    expect(near.map((p) => racks.indexOf(p))).toEqual([...near.map((p) => racks.indexOf(p))].sort((a, b) => a - b));
  });

  it("none when the eye is far from every rack", () => {
    const racks = Array.from({ length: 400 }, (_, i) => rack(`k${i}`, i, 0));
    expect(nearRacks(racks, eye(200, 80, 100))).toEqual([]);
  });
});

describe("sameRacks", () => {
  it("compares by identity and order", () => {
    const a = rack("a", 0, 0);
    const b = rack("b", 1, 0);
    expect(sameRacks([a, b], [a, b])).toBe(true);
    expect(sameRacks([a, b], [b, a])).toBe(false);
    expect(sameRacks([a], [a, b])).toBe(false);
    expect(sameRacks([a], [rack("a", 0, 0)])).toBe(false);
  });
});

describe("bundleCables", () => {
  it("one cable per pair of 3 m end cells, the first in plan order", () => {
    const set = cableSet([
      [
        [0.5, 0.5],
        [0.5, 10],
        [2.9, 10],
      ], // ends in cells (0,0) and (0,3)
      [
        [1, 2],
        [2.5, 9.1],
      ], // (0,0) -> (0,3): bundled with cable 0
      [
        [2.5, 9.1],
        [1, 2],
      ], // the other way round: a bundle of its own
      [
        [3.1, 0.5],
        [0.5, 10],
      ], // (1,0) -> (0,3)
      [], // no route: no bundle
      [
        [1, 2],
        [2, 9],
      ], // (0,0) -> (0,3) again
    ]);
    expect(bundleCables(set)).toEqual([0, 2, 3]);
  });
});

describe("fullCables", () => {
  it("small plans always, big ones only when the view spans at most 30 m", () => {
    const small = { segCable: new Uint32Array(ALL_CABLES_MAX_SEGMENTS) } as CableSet;
    const big = { segCable: new Uint32Array(ALL_CABLES_MAX_SEGMENTS + 1) } as CableSet;
    expect(fullCables(small, eye(0, 0, 0, 500))).toBe(true);
    expect(fullCables(big, eye(0, 0, 0, 30))).toBe(true);
    expect(fullCables(big, eye(0, 0, 0, 30.01))).toBe(false);
  });
});

describe("viewPoint", () => {
  it("a perspective camera: its position, and the height of the view at the target", () => {
    const cam = new THREE.PerspectiveCamera(90, 1, 0.1, 1000);
    cam.position.set(3, 4, 0);
    const v = viewPoint(cam, new THREE.Vector3(0, 0, 0));
    // Distance 5, tan(45 deg) = 1: span 2 * 5 * 1 = 10.
    expect(v.x).toBe(3);
    expect(v.y).toBe(4);
    expect(v.z).toBe(0);
    expect(v.span).toBeCloseTo(10, 9);
  });

  it("an orthographic camera: the floor height on screen, the eye that far above the target", () => {
    const cam = new THREE.OrthographicCamera(-400, 400, 300, -300);
    cam.zoom = 20;
    expect(viewPoint(cam, new THREE.Vector3(7, 0, 9))).toEqual({ x: 7, y: 30, z: 9, span: 30 });
  });
});
