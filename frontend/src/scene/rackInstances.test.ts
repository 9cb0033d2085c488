import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { MIN_RACK_CAPACITY, RackInstances, rackCapacity } from "./rackInstances";
import type { RackPlacement } from "./selectors";

/** Rack i: a 0.6 x 1.2 m, 2 m tall rack at (i, 2i) metres; only what the instances read. */
const rack = (i: number): RackPlacement =>
  ({ id: `rack:${i}`, rowId: "row:a", x: i, z: 2 * i, sx: 0.6, sz: 1.2, h: 2, fx: 0, fz: 1 }) as RackPlacement;
const racks = (n: number, from = 0) => Array.from({ length: n }, (_, i) => rack(from + i));
const colourOf = (i: number) => `#${(((i * 2654435761) >>> 8) & 0xffffff).toString(16).padStart(6, "0")}`;

/** A rack's matrix as drawn: centre (x, 0, z), scale (0.985 sx, h, 0.985 sz), stored as 32-bit floats. */
function expectedMatrix(p: RackPlacement): number[] {
  const m = new THREE.Matrix4().compose(
    new THREE.Vector3(p.x, 0, p.z),
    new THREE.Quaternion(),
    new THREE.Vector3(p.sx * 0.985, p.h, p.sz * 0.985),
  );
  return Array.from(new Float32Array(m.toArray()));
}

function matrixAt(mesh: THREE.InstancedMesh, i: number): number[] {
  const m = new THREE.Matrix4();
  mesh.getMatrixAt(i, m);
  return m.toArray();
}

function colourAt(mesh: THREE.InstancedMesh, i: number): string {
  const c = new THREE.Color();
  mesh.getColorAt(i, c);
  return `#${c.getHexString()}`;
}

describe("rack instances", () => {
  it("grows with headroom: 64 at least, else 1.5 x the count, and keeps a capacity that fits", () => {
    expect(rackCapacity(0, 0)).toBe(MIN_RACK_CAPACITY);
    expect(rackCapacity(52, 0)).toBe(78);
    expect(rackCapacity(2001, 0)).toBe(3002);
    // 2,001 -> 2,051 racks (a 50-rack row duplicated) stays in the buffers 2,001 racks were given.
    expect(rackCapacity(2051, 3002)).toBe(3002);
    expect(rackCapacity(3003, 3002)).toBe(4505);
    expect(rackCapacity(10, 3002)).toBe(3002);
  });

  it("a growth keeps every instance's matrix and colour, writes only the new ones, same material and geometry", () => {
    const inst = new RackInstances();
    const first = racks(60);
    expect(inst.writeRacks(first, { x: 0, y: 0 }, null)).toBe(60);
    expect(inst.paint(60, colourOf)).toBe(60);
    const old = inst.mesh;
    const { material, geometry } = inst;
    expect(inst.capacity).toBe(64);
    let released = 0;
    old.addEventListener("dispose", () => released++);

    // 60 -> 110 racks: past the 64 instances, the mesh is replaced by one with room for 165.
    const more = [...first, ...racks(50, 60)];
    expect(inst.writeRacks(more, { x: 0, y: 0 }, null)).toBe(50);
    expect(inst.paint(110, colourOf)).toBe(50);
    const mesh = inst.mesh;
    expect(mesh).not.toBe(old);
    expect(released).toBe(1);
    expect(inst.capacity).toBe(165);
    expect(mesh.count).toBe(110);
    // No new shader program: the same material (and geometry) objects draw the grown mesh.
    expect(mesh.material).toBe(material);
    expect(mesh.geometry).toBe(geometry);
    expect(inst.material).toBe(material);
    for (let i = 0; i < 110; i++) {
      expect(matrixAt(mesh, i)).toEqual(expectedMatrix(more[i]!));
      expect(colourAt(mesh, i)).toBe(colourOf(i));
    }
    // Only the 50 new instances are uploaded (one span, after the 60 kept).
    expect(mesh.instanceMatrix.updateRanges).toEqual([{ start: 60 * 16, count: 50 * 16 }]);
    expect(mesh.instanceColor?.updateRanges).toEqual([{ start: 60 * 3, count: 50 * 3 }]);
  });

  it("an edit writes and uploads only the changed rack; a colour change only that colour", () => {
    const inst = new RackInstances();
    const all = racks(100);
    inst.writeRacks(all, { x: 0, y: 0 }, null);
    inst.paint(100, () => "#808080");
    inst.mesh.instanceMatrix.clearUpdateRanges();
    inst.mesh.instanceColor?.clearUpdateRanges();
    const moved = [...all];
    moved[37] = { ...rack(37), x: 99.5 };
    expect(inst.writeRacks(moved, { x: 0, y: 0 }, null)).toBe(1);
    expect(inst.mesh.instanceMatrix.updateRanges).toEqual([{ start: 37 * 16, count: 16 }]);
    expect(matrixAt(inst.mesh, 37)).toEqual(expectedMatrix(moved[37]!));
    expect(matrixAt(inst.mesh, 36)).toEqual(expectedMatrix(all[36]!));
    // Nothing changed: nothing written.
    expect(inst.writeRacks(moved, { x: 0, y: 0 }, null)).toBeNull();
    expect(inst.paint(100, (i) => (i === 5 ? "#ff0000" : "#808080"))).toBe(1);
    expect(inst.mesh.instanceColor?.updateRanges).toEqual([{ start: 15, count: 3 }]);
    expect(colourAt(inst.mesh, 5)).toBe("#ff0000");
  });

  it("a move preview shifts the moving racks by the offset and writes them back when it ends", () => {
    const inst = new RackInstances();
    const all = racks(10);
    inst.writeRacks(all, { x: 0, y: 0 }, null);
    const moving = (p: RackPlacement) => p.id === "rack:3";
    expect(inst.writeRacks(all, { x: 600, y: -1200 }, moving)).toBe(1);
    expect(matrixAt(inst.mesh, 3)).toEqual(expectedMatrix({ ...rack(3), x: 3.6, z: 4.8 }));
    expect(inst.writeRacks(all, { x: 0, y: 0 }, null)).toBe(1);
    expect(matrixAt(inst.mesh, 3)).toEqual(expectedMatrix(rack(3)));
  });

  it("the bounding sphere (raycast culling) holds every rack after moves far away", () => {
    const inst = new RackInstances();
    const all = racks(20);
    inst.writeRacks(all, { x: 0, y: 0 }, null);
    const far = [...all];
    far[4] = { ...rack(4), x: 500, z: -300 };
    inst.writeRacks(far, { x: 0, y: 0 }, null);
    const sphere = inst.mesh.boundingSphere;
    expect(sphere).not.toBeNull();
    for (const p of far) {
      // The rack's top corners are inside (a small tolerance for float rounding).
      for (const [dx, dz] of [
        [-0.3, -0.6],
        [0.3, 0.6],
      ] as const) {
        expect(sphere!.distanceToPoint(new THREE.Vector3(p.x + dx, p.h, p.z + dz))).toBeLessThanOrEqual(1e-9);
      }
    }
  });
});
