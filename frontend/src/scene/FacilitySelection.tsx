/**
 * While the facility heat map colours the racks, the selection colour would hide a rack's band: the
 * selected racks (or the selected rows' racks) are outlined instead, ONE LineSegments of box edges.
 */
import { useThree } from "@react-three/fiber";
import { useEffect, useMemo } from "react";
import * as THREE from "three";
import { useFacility } from "../state/facility";
import type { Palette } from "../state/palette";
import type { RackPlacement } from "./selectors";

/** The 12 edges of a unit box standing on the floor, centred on x and z: pairs of corners. */
const EDGES: [number, number, number][] = (() => {
  const c = (x: number, y: number, z: number): [number, number, number] => [x - 0.5, y, z - 0.5];
  const out: [number, number, number][] = [];
  for (const y of [0, 1])
    out.push(c(0, y, 0), c(1, y, 0), c(1, y, 0), c(1, y, 1), c(1, y, 1), c(0, y, 1), c(0, y, 1), c(0, y, 0));
  for (const [x, z] of [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ] as const)
    out.push(c(x, 0, z), c(x, 1, z));
  return out;
})();

/** Box edges (world metres) around each rack, a little larger than the rack so they show on its faces. */
export function outlineSegments(racks: readonly Pick<RackPlacement, "x" | "z" | "sx" | "sz" | "h">[]): Float32Array {
  const out = new Float32Array(racks.length * EDGES.length * 3);
  let o = 0;
  for (const r of racks)
    for (const [x, y, z] of EDGES) {
      out[o++] = r.x + x * (r.sx + 0.02);
      out[o++] = y * (r.h + 0.02);
      out[o++] = r.z + z * (r.sz + 0.02);
    }
  return out;
}

export function FacilitySelection({
  racks,
  selected,
  palette,
}: {
  racks: RackPlacement[];
  selected: ReadonlySet<string>;
  palette: Palette;
}) {
  const invalidate = useThree((s) => s.invalidate);
  const shown = useFacility((s) => s.shown);
  const geometry = useMemo(() => {
    const g = new THREE.BufferGeometry();
    const picked = shown ? racks.filter((p) => selected.has(p.id) || selected.has(p.rowId)) : [];
    g.setAttribute("position", new THREE.BufferAttribute(outlineSegments(picked), 3));
    return g;
  }, [racks, selected, shown]);
  useEffect(() => {
    invalidate();
    return () => geometry.dispose();
  }, [geometry, invalidate]);
  return (
    <lineSegments geometry={geometry} raycast={() => null} frustumCulled={false}>
      <lineBasicMaterial color={palette.draft} />
    </lineSegments>
  );
}
