import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { deviceArrays } from "./deviceGeometry";
import type { DevicePlacement } from "./selectors";

const server = new THREE.Color(0.1, 0.2, 0.3);
const tor = new THREE.Color(0.9, 0.8, 0.7);
const dev = (p: Partial<DevicePlacement>): DevicePlacement => ({
  x: 1,
  y: 2,
  z: 3,
  w: 0.5,
  h: 0.1,
  yaw: 0,
  tor: false,
  ...p,
});

const triples = (a: Float32Array) =>
  Array.from({ length: a.length / 3 }, (_, i) => [a[i * 3]!, a[i * 3 + 1]!, a[i * 3 + 2]!]);

describe("deviceArrays", () => {
  it("places a plate facing +z on its centre, width along x, height along y", () => {
    const a = deviceArrays([dev({})], server, tor);
    const f = Math.fround;
    expect(triples(a.position)).toEqual([
      [0.75, f(2.05), 3],
      [1.25, f(2.05), 3],
      [0.75, f(1.95), 3],
      [1.25, f(1.95), 3],
    ]);
    expect(triples(a.normal)).toEqual([
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
      [0, 0, 1],
    ]);
    expect(Array.from(a.index)).toEqual([0, 2, 1, 2, 3, 1]);
    expect(triples(a.color)[0]).toEqual([f(0.1), f(0.2), f(0.3)]);
  });

  it("turns a plate facing +x (yaw 90°) so its width runs along -z, and numbers the second plate's corners from 4", () => {
    const a = deviceArrays([dev({}), dev({ yaw: Math.PI / 2, tor: true })], server, tor);
    const second = triples(a.position).slice(4);
    const near = (xs: number[][], ys: number[][]) =>
      xs.forEach((x, i) => x.forEach((v, k) => expect(v).toBeCloseTo(ys[i]![k]!, 6)));
    near(second, [
      [1, 2.05, 3.25],
      [1, 2.05, 2.75],
      [1, 1.95, 3.25],
      [1, 1.95, 2.75],
    ]);
    near(triples(a.normal).slice(4), [
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
      [1, 0, 0],
    ]);
    expect(Array.from(a.index).slice(6)).toEqual([4, 6, 5, 6, 7, 5]);
    expect(triples(a.color)[4]).toEqual([Math.fround(0.9), Math.fround(0.8), Math.fround(0.7)]);
  });

  it("draws exactly what the instanced plate drew: PlaneGeometry(1, 1) through position, yaw and scale (w, h, 1)", () => {
    const tmp = new THREE.Object3D();
    for (const yaw of [0, Math.PI / 2, Math.PI, -Math.PI / 2, 0.3, -2.1]) {
      const d = dev({ x: 12.3, y: 0.7, z: -4.5, w: 0.52, h: 0.036, yaw });
      tmp.position.set(d.x, d.y, d.z);
      tmp.rotation.set(0, d.yaw, 0);
      tmp.scale.set(d.w, d.h, 1);
      tmp.updateMatrix();
      const plane = new THREE.PlaneGeometry(1, 1).applyMatrix4(tmp.matrix);
      const a = deviceArrays([d], server, tor);
      const want = plane.getAttribute("position").array as Float32Array;
      const wantNormal = plane.getAttribute("normal").array as Float32Array;
      a.position.forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
      a.normal.forEach((v, i) => expect(v).toBeCloseTo(wantNormal[i]!, 5));
      expect(Array.from(a.index)).toEqual(Array.from(plane.getIndex()!.array));
    }
  });
});
