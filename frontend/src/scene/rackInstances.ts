/**
 * The racks' instanced mesh and its buffers. The capacity grows with headroom, and growing makes a new
 * InstancedMesh over the SAME geometry and material with the old instances copied in: the material's
 * shader program stays linked (a remount made a new material, and linking it cost ~281 ms under
 * SwiftShader), and only the instances beyond the old count need writing.
 */
import * as THREE from "three";
import type { RackPlacement } from "./selectors";

const tmp = new THREE.Object3D();
const colour = new THREE.Color();
const sphere = new THREE.Sphere();

/** The smallest capacity (a new hall's first racks fit without growing). */
export const MIN_RACK_CAPACITY = 64;
/** Room left above the count when the buffers grow: a row duplicate (tens of racks) rarely crosses it. */
export const RACK_HEADROOM = 1.5;

/** The capacity to hold `count` instances: `current` while it fits, else the count with headroom. */
export function rackCapacity(count: number, current: number): number {
  if (count <= current && current >= MIN_RACK_CAPACITY) return current;
  return Math.max(MIN_RACK_CAPACITY, Math.ceil(count * RACK_HEADROOM));
}

export class RackInstances {
  readonly geometry = new THREE.BoxGeometry(1, 1, 1).translate(0, 0.5, 0);
  // Lambert, not the PBR standard material: under software GL (SwiftShader) the racks' pixels cost most
  // of a frame with it; the picture differs only by the faint specular highlight.
  readonly material = new THREE.MeshLambertMaterial();
  mesh: THREE.InstancedMesh;

  constructor(count = 0) {
    this.mesh = this.make(rackCapacity(count, 0));
    this.mesh.count = 0;
  }

  get capacity(): number {
    return this.mesh.instanceMatrix.count;
  }

  /**
   * Makes room for `count` instances. True when the mesh was replaced by a bigger one: its first
   * `mesh.count` matrices and colours are the old mesh's, the old one's GPU buffers are released.
   */
  reserve(count: number): boolean {
    const capacity = rackCapacity(count, this.capacity);
    if (capacity === this.capacity) return false;
    const old = this.mesh;
    const next = this.make(capacity);
    next.instanceMatrix.array.set(old.instanceMatrix.array);
    if (old.instanceColor) {
      const colours = new THREE.InstancedBufferAttribute(new Float32Array(capacity * 3), 3);
      colours.array.set(old.instanceColor.array);
      next.instanceColor = colours;
    }
    next.count = old.count;
    // Releases the old instance buffers only (InstancedMesh.dispose leaves geometry and material alone).
    old.dispose();
    this.mesh = next;
    return true;
  }

  /**
   * The placement each instance shows (undefined: shifted by a move preview, or not written yet) and
   * the colour it was painted: an edit rewrites only the instances that changed (placements are
   * memoised per record), and a grown mesh starts with the old one's instances, so both survive growth.
   */
  private drawn: (RackPlacement | undefined)[] = [];
  private painted: string[] = [];

  /**
   * Writes the racks' matrices where they changed, those `moving` shifted by `offset` (mm; a move
   * preview). Uploads only the span written. The number written, or null when nothing changed.
   */
  writeRacks(
    racks: readonly RackPlacement[],
    offset: { x: number; y: number },
    moving: ((p: RackPlacement) => boolean) | null,
  ): number | null {
    this.reserve(racks.length);
    const mesh = this.mesh;
    const at = this.drawn;
    let lo = Infinity;
    let hi = -1;
    let written = 0;
    // Raycasting culls by the mesh's sphere: one already computed is grown over what is written (it
    // never needs to shrink), so a move does not walk every instance; a new (grown) mesh computes its own.
    const bounds = mesh.boundingSphere;
    const box = this.geometry.boundingSphere ?? (this.geometry.computeBoundingSphere(), this.geometry.boundingSphere);
    racks.forEach((p, i) => {
      const shifted = moving !== null && moving(p);
      if (!shifted && at[i] === p) return;
      tmp.position.set(p.x + (shifted ? offset.x / 1000 : 0), 0, p.z + (shifted ? offset.y / 1000 : 0));
      tmp.scale.set(p.sx * 0.985, p.h, p.sz * 0.985);
      tmp.updateMatrix();
      mesh.setMatrixAt(i, tmp.matrix);
      if (bounds && box) bounds.union(sphere.copy(box).applyMatrix4(tmp.matrix));
      at[i] = shifted ? undefined : p;
      lo = Math.min(lo, i);
      hi = i;
      written++;
    });
    at.length = racks.length;
    if (hi < 0 && mesh.count === racks.length) return null;
    mesh.count = racks.length;
    if (hi >= 0) {
      mesh.instanceMatrix.addUpdateRange(lo * 16, (hi - lo + 1) * 16);
      mesh.instanceMatrix.needsUpdate = true;
    }
    if (!bounds) mesh.computeBoundingSphere();
    return written;
  }

  /** Paints instance i in `colourOf(i)` where that changed; uploads only the span written. The number written. */
  paint(count: number, colourOf: (i: number) => string): number {
    const mesh = this.mesh;
    const was = this.painted;
    let lo = Infinity;
    let hi = -1;
    let written = 0;
    for (let i = 0; i < count; i++) {
      const c = colourOf(i);
      if (was[i] === c && mesh.instanceColor) continue;
      mesh.setColorAt(i, colour.set(c));
      was[i] = c;
      lo = Math.min(lo, i);
      hi = i;
      written++;
    }
    was.length = count;
    const colours = mesh.instanceColor;
    if (hi < 0 || !colours) return 0;
    colours.addUpdateRange(lo * 3, (hi - lo + 1) * 3);
    colours.needsUpdate = true;
    return written;
  }

  dispose(): void {
    this.mesh.dispose();
    this.geometry.dispose();
    this.material.dispose();
  }

  private make(capacity: number): THREE.InstancedMesh {
    const mesh = new THREE.InstancedMesh(this.geometry, this.material, capacity);
    mesh.frustumCulled = false;
    return mesh;
  }
}
