/**
 * The facility heat map's tray segments: ONE InstancedMesh of flat boxes, each segment of the report
 * on its tray (at its height, from its start to its end), coloured by its fill against its limit.
 * Drawn only while the heat map is on and the report is of a plan (without one no cable is routed).
 * A click on a segment opens its panel (`selectTray`), in the 3D view (from above, a click is the rack's).
 */
import { useThree } from "@react-three/fiber";
import { useEffect, useLayoutEffect, useMemo, useRef } from "react";
import * as THREE from "three";
import { pctText, reportFacility, selectTray, trayColour, useFacility, type TraySegment } from "../state/facility";
import { setLabelGroup } from "../state/overlays";
import { useSession } from "../state/session";

const tmp = new THREE.Object3D();
const colour = new THREE.Color();
/** Drawn size of a tray across its run and its height, metres (the report gives the cables' line). */
const TRAY_WIDTH_M = 0.3;
const TRAY_HEIGHT_M = 0.05;

export function FacilityTrays() {
  const ref = useRef<THREE.InstancedMesh>(null);
  const invalidate = useThree((s) => s.invalidate);
  const view = useFacility((s) => (s.shown ? s.view : null));
  const received = useFacility((s) => s.received);
  const selectedTray = useFacility((s) => s.tray);
  // Seen from above (plan view) the trays lie over the racks: clicks there are the racks'.
  const plan = useSession((s) => s.view === "plan");
  const trays = useMemo(() => view?.trays ?? [], [view]);
  const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(trays.length + 1)));
  const geometry = useMemo(() => new THREE.BoxGeometry(1, 1, 1), []);
  useEffect(() => () => geometry.dispose(), [geometry]);

  useLayoutEffect(() => {
    const mesh = ref.current;
    if (!mesh) return;
    trays.forEach((t, i) => {
      place(t);
      mesh.setMatrixAt(i, tmp.matrix);
      mesh.setColorAt(i, colour.set(trayColour(t)));
    });
    mesh.count = trays.length;
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    mesh.computeBoundingSphere();
    invalidate();
    reportFacility({
      trays: view ? received : null,
      trayColour: (name) => {
        const i = trays.findIndex((t) => t.name === name);
        const a = mesh.instanceColor?.array;
        return i < 0 || !a ? null : readColour(a, i);
      },
    });
  }, [trays, capacity, plan, view, received, invalidate]);

  // The open segment is named on the floor, above its tray (its colour stays its band's).
  useEffect(() => {
    const t = selectedTray ? view?.byTray.get(selectedTray) : undefined;
    setLabelGroup(
      "facility",
      t
        ? [
            {
              key: `tray-${t.name}`,
              x: (t.start[0] + t.end[0]) / 2000,
              y: t.start[2] / 1000 + 0.25,
              z: (t.start[1] + t.end[1]) / 2000,
              text: `${t.name} · ${pctText(t.fillPct)} fill`,
              className: "tray-label",
              data: { testid: "tray-label", tray: t.name },
            },
          ]
        : [],
    );
    invalidate();
  }, [selectedTray, view, invalidate]);

  return (
    <instancedMesh
      key={`${capacity}:${plan}`}
      ref={ref}
      args={[geometry, undefined, capacity]}
      frustumCulled={false}
      visible={trays.length > 0}
      {...(plan ? { raycast: () => null } : {})}
      onPointerDown={(e) => {
        if (e.button !== 0 || e.instanceId === undefined) return;
        const t = trays[e.instanceId];
        if (!t) return;
        // The tray is above the racks: the click is the segment's, not the rack's below it.
        e.stopPropagation();
        selectTray(t.name);
      }}
    >
      <meshLambertMaterial transparent opacity={0.85} />
    </instancedMesh>
  );
}

function readColour(a: ArrayLike<number>, i: number): string {
  return `#${colour.setRGB(a[i * 3] ?? 0, a[i * 3 + 1] ?? 0, a[i * 3 + 2] ?? 0).getHexString()}`;
}

/**
 * A segment's box in world metres (x, up, z): along its run, one tray wide, its top at the cables' line
 * (mm -> m; hall y is world z).
 */
export function trayTransform(t: Pick<TraySegment, "start" | "end">): {
  position: [number, number, number];
  scale: [number, number, number];
} {
  const [x0, y0, z0] = t.start;
  const [x1, y1] = t.end;
  const alongX = Math.abs(x1 - x0) >= Math.abs(y1 - y0);
  const length = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)) / 1000;
  return {
    position: [(x0 + x1) / 2000, z0 / 1000 - TRAY_HEIGHT_M / 2, (y0 + y1) / 2000],
    scale: [alongX ? length : TRAY_WIDTH_M, TRAY_HEIGHT_M, alongX ? TRAY_WIDTH_M : length],
  };
}

function place(t: TraySegment): void {
  const { position, scale } = trayTransform(t);
  tmp.position.set(...position);
  tmp.rotation.set(0, 0, 0);
  tmp.scale.set(...scale);
  tmp.updateMatrix();
}
