import * as THREE from "three";
import { describe, expect, it } from "vitest";
import type { CableSet } from "../state/wiring";
import { pick } from "./Cables";

/** A 800 x 600 canvas at the page's origin, seen by the editor's default 3D camera over a 16 x 12 m hall. */
const el = { getBoundingClientRect: () => ({ left: 0, top: 0, width: 800, height: 600 }) } as unknown as HTMLElement;
const camera = new THREE.PerspectiveCamera(45, 800 / 600, 0.1, 1000);
camera.position.set(16 * 0.9, 16 * 0.8, 12 * 1.2);
camera.lookAt(8, 0, 6);
camera.updateMatrixWorld();

/** One cable per segment. */
function cables(segments: [THREE.Vector3, THREE.Vector3][]): CableSet {
  const flat = segments.flatMap(([a, b]) => [a.x, a.y, a.z, b.x, b.y, b.z]);
  return {
    planId: 1,
    buffers: {} as CableSet["buffers"],
    segStart: Uint32Array.from(segments.map((_, i) => i).concat(segments.length)),
    segCable: Uint32Array.from(segments.map((_, i) => i)),
    segments: Float32Array.from(flat),
  };
}

const screen = (p: THREE.Vector3) => {
  const n = p.clone().project(camera);
  return { x: ((n.x + 1) / 2) * 800, y: ((1 - n.y) / 2) * 600 };
};

describe("picking a cable", () => {
  it("a pointer exactly over a cable picks it, wherever it lies (the ray's distance may round below zero)", () => {
    const missed: string[] = [];
    for (let i = 0; i < 10; i++)
      for (let k = 0; k < 10; k++) {
        // A 6 m tray run along the hall's depth at 2.167 m, the pointer over its middle.
        const mid = new THREE.Vector3(0.5 + i * 1.5, 2.167, 1 + k);
        const set = cables([[mid.clone().setZ(mid.z - 3), mid.clone().setZ(mid.z + 3)]]);
        const s = screen(mid);
        if (pick(set, camera, el, s.x, s.y) !== 0) missed.push(`${mid.x},${mid.z}`);
      }
    expect(missed).toEqual([]);
  });

  it("nothing within 6 pixels: no cable; the nearer of two to the pointer wins", () => {
    const a = new THREE.Vector3(4, 2, 3);
    const b = new THREE.Vector3(4.02, 2, 3);
    const set = cables([
      [a.clone().setZ(0), a.clone().setZ(6)],
      [b.clone().setZ(0), b.clone().setZ(6)],
    ]);
    const sa = screen(a);
    const sb = screen(b);
    expect(pick(set, camera, el, sa.x, sa.y)).toBe(0);
    expect(pick(set, camera, el, sb.x, sb.y)).toBe(1);
    expect(pick(set, camera, el, sa.x, sa.y - 40)).toBeNull();
  });
});
