/**
 * Every server and ToR face plate of the hall in ONE plain (non-instanced) mesh: four vertices per
 * device, already placed, with the device's colour per vertex.
 *
 * Why not an InstancedMesh: under a software rasteriser (Chromium's SwiftShader, what headless and
 * GPU-less machines get) an instanced draw costs a setup per instance, so the 56,000 plates of a
 * 2,000-rack hall took over a second of every orbit frame; the same triangles as one buffer cost a
 * few milliseconds. The plates never move on their own (they are rebuilt when the racks change), so
 * nothing is lost: the picture is the same plane, normal and colour per device.
 */
import * as THREE from "three";
import type { DevicePlacement } from "./selectors";

/** Corners of a unit plate in its own plane (as THREE.PlaneGeometry(1, 1) orders them) and its two triangles. */
const CORNERS = [
  [-0.5, 0.5],
  [0.5, 0.5],
  [-0.5, -0.5],
  [0.5, -0.5],
] as const;
const TRIANGLES = [0, 2, 1, 2, 3, 1] as const;

/**
 * The plates as flat arrays: a plate of width `w` and height `h` centred on (x, y, z), turned `yaw`
 * about the up axis (0 faces +z), normal out of its face; colours in the renderer's linear space.
 */
export function deviceArrays(
  devices: readonly DevicePlacement[],
  server: THREE.Color,
  tor: THREE.Color,
): { position: Float32Array; normal: Float32Array; color: Float32Array; index: Uint32Array } {
  const n = devices.length;
  const position = new Float32Array(n * 12);
  const normal = new Float32Array(n * 12);
  const color = new Float32Array(n * 12);
  const index = new Uint32Array(n * 6);
  devices.forEach((d, i) => {
    // Rotation about y: (x, y, 0) -> (x cos, y, -x sin); the normal (0, 0, 1) -> (sin, 0, cos).
    const c = Math.cos(d.yaw);
    const s = Math.sin(d.yaw);
    const col = d.tor ? tor : server;
    CORNERS.forEach(([u, v], k) => {
      const o = (i * 4 + k) * 3;
      position[o] = d.x + u * d.w * c;
      position[o + 1] = d.y + v * d.h;
      position[o + 2] = d.z - u * d.w * s;
      normal[o] = s;
      normal[o + 1] = 0;
      normal[o + 2] = c;
      color[o] = col.r;
      color[o + 1] = col.g;
      color[o + 2] = col.b;
    });
    TRIANGLES.forEach((t, k) => (index[i * 6 + k] = i * 4 + t));
  });
  return { position, normal, color, index };
}

export function deviceGeometry(
  devices: readonly DevicePlacement[],
  server: THREE.Color,
  tor: THREE.Color,
): THREE.BufferGeometry {
  const a = deviceArrays(devices, server, tor);
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(a.position, 3));
  g.setAttribute("normal", new THREE.BufferAttribute(a.normal, 3));
  g.setAttribute("color", new THREE.BufferAttribute(a.color, 3));
  g.setIndex(new THREE.BufferAttribute(a.index, 1));
  g.computeBoundingSphere();
  return g;
}
