/** Racks and their devices: one InstancedMesh each, rebuilt only when the records change. */
import type { ThreeEvent } from "@react-three/fiber";
import { useThree } from "@react-three/fiber";
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from "react";
import * as THREE from "three";
import { rackFacilityColour, reportFacility, useFacility } from "../state/facility";
import { rackPickColour, useFloorPick } from "../state/floorPick";
import { heatColour, rackUtil, reportHeat, useHeat } from "../state/heatMap";
import type { Palette } from "../state/palette";
import { debugHandle, sceneStats } from "../state/testHook";
import { live } from "../tools/live";
import { deviceGeometry } from "./deviceGeometry";
import { nearRacks, sameRacks, useLod, type ViewPoint } from "./lod";
import { RackInstances } from "./rackInstances";
import { devicesOf, type RackPlacement } from "./selectors";

const colour = new THREE.Color();

export interface RackPointerHandlers {
  onPointerDown: (e: ThreeEvent<PointerEvent>, rackId: string) => void;
  onPointerMove: (e: ThreeEvent<PointerEvent>) => void;
  onPointerUp: (e: ThreeEvent<PointerEvent>) => void;
}

/**
 * The racks' instanced mesh, with room for `count` instances: the same object until the count outgrows
 * it, then a bigger one over the same geometry and material (scene/rackInstances.ts).
 */
function useRackMesh(count: number): { instances: RackInstances; mesh: THREE.InstancedMesh } {
  const [instances] = useState(() => new RackInstances());
  useEffect(() => () => instances.dispose(), [instances]);
  const mesh = useMemo(() => {
    instances.reserve(count);
    return instances.mesh;
  }, [instances, count]);
  return { instances, mesh };
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
  const invalidate = useThree((s) => s.invalidate);
  // One geometry and material for the component's life; growing replaces only the instanced mesh.
  const { instances, mesh } = useRackMesh(racks.length);
  // Overlays that recolour the racks: picking a simulation's racks, then a simulation's heat map, then
  // the facility heat map (each rack in its band's colour; instance colours, no material per rack).
  const pick = useFloorPick((s) => s.session);
  const heat = useHeat((s) => s.overlay);
  const bucket = useHeat((s) => s.bucket);
  const facility = useFacility((s) => (s.shown ? s.view : null));
  const facilityReport = useFacility((s) => s.received);

  const writeMatrices = (offset: { x: number; y: number } | null) => {
    const moving = offset ? (p: RackPlacement) => selected.has(p.id) || selected.has(p.rowId) : null;
    const written = instances.writeRacks(racks, offset ?? { x: 0, y: 0 }, moving);
    if (written === null) return;
    sceneStats.rackInstancesWritten = written;
    invalidate();
  };

  /**
   * Selected racks in the selection colour, or red while a move would put them where they cannot stand.
   * While picking, racks in a set take its colour; under a heat map, racks take their ToRs' heat (the
   * selection colour would hide it).
   */
  const paint = (blocked: boolean) => {
    const written = instances.paint(racks.length, (i) => {
      const p = racks[i] as RackPlacement;
      const sel = selected.has(p.id) || selected.has(p.rowId);
      let c = sel ? (blocked ? palette.draftBad : palette.rackSelected) : palette.rack;
      if (pick) c = rackPickColour(pick, p.id) ?? palette.rack;
      else if (heat && !(sel && blocked)) {
        const u = rackUtil(heat, p.id, bucket);
        c = u === null ? palette.rack : heatColour(u);
      } else if (facility && !(sel && blocked)) c = rackFacilityColour(facility, p.rack.name);
      return c;
    });
    if (written) invalidate();
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
  }, [racks, selected, palette, mesh, pick, heat, bucket, facility, facilityReport]);

  // Tests read the colours as drawn, by rack name.
  useEffect(() => {
    const drawn = (name: string) => {
      const i = racks.findIndex((p) => p.rack.name === name);
      const a = mesh.instanceColor?.array;
      if (!a || i < 0) return null;
      return `#${colour.setRGB(a[i * 3] ?? 0, a[i * 3 + 1] ?? 0, a[i * 3 + 2] ?? 0).getHexString()}`;
    };
    debugHandle().rackColour = drawn;
    if (heat) reportHeat(heat.jobId, { rackBucket: bucket, rackColour: drawn });
    else reportHeat(null, {});
  }, [racks, heat, bucket, pick, selected, palette, mesh]);

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
    <primitive
      object={mesh}
      onPointerDown={(e: ThreeEvent<PointerEvent>) => {
        if (e.instanceId === undefined) return;
        const p = racks[e.instanceId];
        if (p) handlers.onPointerDown(e, p.id);
      }}
      onPointerMove={handlers.onPointerMove}
      onPointerUp={handlers.onPointerUp}
    />
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
