/** Racks and their devices: one InstancedMesh each, rebuilt only when the records change. */
import type { ThreeEvent } from "@react-three/fiber";
import { useThree } from "@react-three/fiber";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import * as THREE from "three";
import { rackFacilityColour, reportFacility, useFacility } from "../state/facility";
import { rackPickColour, useFloorPick } from "../state/floorPick";
import { heatColour, rackUtil, reportHeat, useHeat } from "../state/heatMap";
import type { Palette } from "../state/palette";
import { debugHandle, sceneStats } from "../state/testHook";
import { live } from "../tools/live";
import { deviceGeometry } from "./deviceGeometry";
import { nearRacks, sameRacks, useLod, type ViewPoint } from "./lod";
import { devicesOf, type RackPlacement } from "./selectors";

const tmp = new THREE.Object3D();
const colour = new THREE.Color();

export interface RackPointerHandlers {
  onPointerDown: (e: ThreeEvent<PointerEvent>, rackId: string) => void;
  onPointerMove: (e: ThreeEvent<PointerEvent>) => void;
  onPointerUp: (e: ThreeEvent<PointerEvent>) => void;
}

export function Racks({
  racks,
  selected,
  palette,
  handlers,
}: {
  racks: RackPlacement[];
  selected: ReadonlySet<string>;
  palette: Palette;
  handlers: RackPointerHandlers;
}) {
  const ref = useRef<THREE.InstancedMesh>(null);
  const invalidate = useThree((s) => s.invalidate);
  const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(racks.length + 1)));
  const geometry = useMemo(() => new THREE.BoxGeometry(1, 1, 1).translate(0, 0.5, 0), []);
  // Overlays that recolour the racks: picking a simulation's racks, then a simulation's heat map, then
  // the facility heat map (each rack in its band's colour; instance colours, no material per rack).
  const pick = useFloorPick((s) => s.session);
  const heat = useHeat((s) => s.overlay);
  const bucket = useHeat((s) => s.bucket);
  const facility = useFacility((s) => (s.shown ? s.view : null));
  const facilityReport = useFacility((s) => s.received);

  // The placement each instance shows (undefined: shifted by a move preview, or not written yet), so
  // an edit rewrites only the instances whose placement changed (placements are memoised per record).
  const drawn = useRef<{ mesh: THREE.InstancedMesh | null; at: (RackPlacement | undefined)[] }>({ mesh: null, at: [] });
  const writeMatrices = (offset: { x: number; y: number } | null) => {
    const mesh = ref.current;
    if (!mesh) return;
    if (drawn.current.mesh !== mesh) drawn.current = { mesh, at: [] };
    const at = drawn.current.at;
    let written = 0;
    racks.forEach((p, i) => {
      const moving = offset && (selected.has(p.id) || selected.has(p.rowId));
      if (!moving && at[i] === p) return;
      tmp.position.set(p.x + (moving ? offset.x / 1000 : 0), 0, p.z + (moving ? offset.y / 1000 : 0));
      tmp.scale.set(p.sx * 0.985, p.h, p.sz * 0.985);
      tmp.updateMatrix();
      mesh.setMatrixAt(i, tmp.matrix);
      at[i] = moving ? undefined : p;
      written++;
    });
    at.length = racks.length;
    if (!written && mesh.count === racks.length) return;
    sceneStats.rackInstancesWritten = written;
    mesh.count = racks.length;
    mesh.instanceMatrix.needsUpdate = true;
    mesh.computeBoundingSphere();
    invalidate();
  };

  /**
   * Selected racks in the selection colour, or red while a move would put them where they cannot stand.
   * While picking, racks in a set take its colour; under a heat map, racks take their ToRs' heat (the
   * selection colour would hide it).
   */
  const paint = (blocked: boolean) => {
    const mesh = ref.current;
    if (!mesh) return;
    racks.forEach((p, i) => {
      const sel = selected.has(p.id) || selected.has(p.rowId);
      let c = sel ? (blocked ? palette.draftBad : palette.rackSelected) : palette.rack;
      if (pick) c = rackPickColour(pick, p.id) ?? palette.rack;
      else if (heat && !(sel && blocked)) {
        const u = rackUtil(heat, p.id, bucket);
        c = u === null ? palette.rack : heatColour(u);
      } else if (facility && !(sel && blocked)) c = rackFacilityColour(facility, p.rack.name);
      colour.set(c);
      mesh.setColorAt(i, colour);
    });
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    invalidate();
  };

  useLayoutEffect(() => {
    writeMatrices(null);
    paint(false);
    if (facility) {
      reportFacility({ racks: facilityReport });
      // The first frame with the heat map's colours (the benchmark times it from the toggle).
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const f = window.__loopline?.facility;
          if (f && f.paintedAt === null) f.paintedAt = performance.now();
        }),
      );
    } else reportFacility({ racks: null, paintedAt: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [racks, selected, palette, capacity, pick, heat, bucket, facility, facilityReport]);

  // Tests read the colours as drawn, by rack name.
  useEffect(() => {
    const drawn = (name: string) => {
      const mesh = ref.current;
      const i = racks.findIndex((p) => p.rack.name === name);
      const a = mesh?.instanceColor?.array;
      if (!a || i < 0) return null;
      return `#${colour.setRGB(a[i * 3] ?? 0, a[i * 3 + 1] ?? 0, a[i * 3 + 2] ?? 0).getHexString()}`;
    };
    debugHandle().rackColour = drawn;
    if (heat) reportHeat(heat.jobId, { rackBucket: bucket, rackColour: drawn });
    else reportHeat(null, {});
  }, [racks, heat, bucket, pick, selected, palette]);

  // Move preview: shift the selected instances while dragging, without React renders.
  useEffect(
    () =>
      live.subscribe((s, prev) => {
        if (s.move !== prev.move) writeMatrices(s.move);
        if (Boolean(s.move && s.problem) !== Boolean(prev.move && prev.problem)) paint(Boolean(s.move && s.problem));
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [racks, selected, palette],
  );

  return (
    <instancedMesh
      key={capacity}
      ref={ref}
      args={[geometry, undefined, capacity]}
      frustumCulled={false}
      onPointerDown={(e) => {
        if (e.instanceId === undefined) return;
        const p = racks[e.instanceId];
        if (p) handlers.onPointerDown(e, p.id);
      }}
      onPointerMove={handlers.onPointerMove}
      onPointerUp={handlers.onPointerUp}
    >
      {/* Lambert, not the PBR standard material: under software GL (SwiftShader) the racks' pixels cost
          most of a frame with it; the picture differs only by the faint specular highlight. */}
      <meshLambertMaterial />
    </instancedMesh>
  );
}

/**
 * Servers and ToRs on the port face of every rack (of the racks near the camera in a big hall), as ONE plain mesh (scene/deviceGeometry.ts says why
 * not instanced); not pickable, rebuilt when the racks or the palette change.
 */
export function Devices({ racks, palette }: { racks: RackPlacement[]; palette: Palette }) {
  const invalidate = useThree((s) => s.invalidate);
  // Level of detail: in a big hall only the racks near the camera show their devices.
  const choose = useCallback((v: ViewPoint) => nearRacks(racks, v), [racks]);
  const near = useLod(choose, sameRacks);
  const devices = useMemo(() => near.flatMap(devicesOf), [near]);
  const geometry = useMemo(
    () => deviceGeometry(devices, new THREE.Color(palette.server), new THREE.Color(palette.tor)),
    [devices, palette],
  );
  useEffect(() => () => geometry.dispose(), [geometry]);
  useLayoutEffect(() => {
    performance.mark("loopline:racks-instanced");
    sceneStats.racks = racks.length;
    sceneStats.devices = devices.length;
    sceneStats.deviceRacks = near.length;
    if (racks.length && sceneStats.firstHallRenderMs === null) {
      // Time to the first frame showing the racks (the cables may still be loading).
      requestAnimationFrame(() => requestAnimationFrame(() => (sceneStats.firstHallRenderMs ??= performance.now())));
    }
    invalidate();
  }, [devices, near, racks, geometry, invalidate]);
  return (
    <mesh geometry={geometry} frustumCulled={false} raycast={() => null}>
      <meshLambertMaterial vertexColors />
    </mesh>
  );
}
