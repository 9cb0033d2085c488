/**
 * The 3D/plan canvas. frameloop="demand": nothing renders unless something calls invalidate().
 * Pointer events become tool events (tools/tools.ts); no React state changes on pointer move.
 */
import { Grid, OrbitControls, OrthographicCamera, PerspectiveCamera } from "@react-three/drei";
import { Canvas, invalidate as invalidateAll, useThree, type ThreeEvent } from "@react-three/fiber";
import { useEffect, useMemo, type ReactNode } from "react";
import * as THREE from "three";
import { rackBox, rowBox, type Box } from "../model/geometry";
import { hallOf, isRack, isRow, racksOf, rowsOf, type HallRecord, type Records } from "../model/records";
import { formatLength } from "../model/units";
import { editor, useRecords } from "../state/editor";
import { setLabelGroup } from "../state/overlays";
import { PALETTES } from "../state/palette";
import { useSession } from "../state/session";
import { debugHandle, registerRenderer, type OrbitHandle } from "../state/testHook";
import { useFloorPick } from "../state/floorPick";
import { aisleLabel, reportedAisles, useValidation } from "../sync/validation";
import { PICK_TOOL } from "../tools/pick";
import { TOOLS, type Target } from "../tools/tools";
import { Cables } from "./Cables";
import { FacilitySelection } from "./FacilitySelection";
import { FacilityTrays } from "./FacilityTrays";
import { Plant } from "./Plant";
import { Aisles, BoxPreview, DrawPreview, LabelProjector } from "./Overlays";
import { Devices, Racks, type RackPointerHandlers } from "./Racks";
import { placements } from "./selectors";

const floorPlane = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
const hitPoint = new THREE.Vector3();

function floorPoint(e: ThreeEvent<PointerEvent>): { x: number; y: number } {
  const p = e.ray.intersectPlane(floorPlane, hitPoint);
  return p ? { x: p.x * 1000, y: p.z * 1000 } : { x: e.point.x * 1000, y: e.point.z * 1000 };
}

function clientOf(e: ThreeEvent<PointerEvent>): { x: number; y: number } {
  return { x: e.nativeEvent.clientX, y: e.nativeEvent.clientY };
}

let captured = false;
/** The camera controls (set from inside the canvas): a captured drag switches them off until pointer-up. */
const controlsRef: { current: { enabled: boolean } | null } = { current: null };

function ControlsRef() {
  const controls = useThree((s) => s.controls) as unknown as { enabled: boolean } | null;
  useEffect(() => {
    controlsRef.current = controls;
    debugHandle().controls = controls as unknown as OrbitHandle | null;
  }, [controls]);
  return null;
}

function usePointerHandlers(): RackPointerHandlers & { onFloorDown: (e: ThreeEvent<PointerEvent>) => void } {
  return useMemo(() => {
    // Picking a simulation's racks on the floor takes the clicks from the editing tools.
    const tool = () => (useFloorPick.getState().session ? PICK_TOOL : TOOLS[useSession.getState().tool]);
    const down = (e: ThreeEvent<PointerEvent>, target: Target) => {
      if (e.button !== 0) return;
      e.stopPropagation();
      const heightMm = e.point.y * 1000;
      const res = tool().down({ floor: floorPoint(e), target, shift: e.shiftKey, client: clientOf(e), heightMm });
      if (res === "capture") {
        captured = true;
        // r3f sees the pointer-down before the controls do: a drag that moves things must not also orbit.
        if (controlsRef.current) controlsRef.current.enabled = false;
        (e.target as unknown as Element).setPointerCapture(e.pointerId);
      }
    };
    return {
      onPointerDown: (e, rackId) => down(e, { kind: "rack", id: rackId }),
      onFloorDown: (e) => down(e, { kind: "floor" }),
      onPointerMove: (e) => {
        tool().move({ floor: floorPoint(e), target: { kind: "floor" }, shift: e.shiftKey, client: clientOf(e) });
      },
      onPointerUp: (e) => {
        if (e.button !== 0) return;
        e.stopPropagation();
        if (captured) (e.target as unknown as Element).releasePointerCapture(e.pointerId);
        captured = false;
        if (controlsRef.current) controlsRef.current.enabled = true;
        tool().up({ floor: floorPoint(e), target: { kind: "floor" }, shift: e.shiftKey, client: clientOf(e) });
      },
    };
  }, []);
}

function Floor({
  hall,
  children,
  handlers,
}: {
  hall: HallRecord;
  children?: ReactNode;
  handlers: ReturnType<typeof usePointerHandlers>;
}) {
  const theme = useSession((s) => s.theme);
  const pal = PALETTES[theme];
  const w = hall.widthMm / 1000;
  const d = hall.depthMm / 1000;
  const t = hall.tileMm / 1000;
  return (
    <group>
      {/* A floor larger than the hall catches pointer events near the walls. */}
      <mesh
        rotation-x={-Math.PI / 2}
        position={[w / 2, -0.002, d / 2]}
        onPointerDown={handlers.onFloorDown}
        onPointerMove={handlers.onPointerMove}
        onPointerUp={handlers.onPointerUp}
      >
        <planeGeometry args={[w * 3, d * 3]} />
        <meshBasicMaterial visible={false} />
      </mesh>
      <mesh rotation-x={-Math.PI / 2} position={[w / 2, -0.001, d / 2]} raycast={() => null}>
        <planeGeometry args={[w, d]} />
        {/* Lambert for the floor too: it covers most of the picture, and the PBR material's per-pixel cost
            was a third of a frame under software GL. */}
        <meshLambertMaterial color={pal.floor} />
      </mesh>
      <Grid
        position={[w / 2, 0.001, d / 2]}
        args={[w, d]}
        cellSize={t}
        sectionSize={t * 5}
        cellColor={pal.gridCell}
        sectionColor={pal.gridSection}
        cellThickness={0.6}
        sectionThickness={1}
        fadeDistance={Math.max(400, w * 4)}
        raycast={() => null}
      />
      {children}
    </group>
  );
}

function selectionBox(records: Records, selection: readonly string[]): Box | null {
  let box: Box | null = null;
  const grow = (b: Box) => {
    box = box
      ? {
          x0: Math.min(box.x0, b.x0),
          y0: Math.min(box.y0, b.y0),
          x1: Math.max(box.x1, b.x1),
          y1: Math.max(box.y1, b.y1),
        }
      : b;
  };
  const ids = selection.length ? selection : rowsOf(records).map((r) => r.id);
  for (const id of ids) {
    const rec = records[id];
    if (isRow(rec)) grow(rowBox(rec, racksOf(records, rec.id)));
    else if (isRack(rec)) {
      const row = records[rec.rowId];
      if (isRow(row)) grow(rowBox(row, [rec]));
    }
  }
  return box;
}

/** Frames the selection (or everything) when asked and when the view changes. */
function CameraRig({ hall }: { hall: HallRecord }) {
  const get = useThree((s) => s.get);
  const controls = useThree((s) => s.controls);
  const frameRequest = useSession((s) => s.frameRequest);
  const view = useSession((s) => s.view);
  useEffect(() => {
    const { camera, size, invalidate } = get();
    const s = useSession.getState();
    const box = s.frameTarget ??
      selectionBox(editor.records, s.selection) ?? { x0: 0, y0: 0, x1: hall.widthMm, y1: hall.depthMm };
    if (s.frameTarget) useSession.setState({ frameTarget: null });
    const cx = (box.x0 + box.x1) / 2000;
    const cz = (box.y0 + box.y1) / 2000;
    const bw = Math.max(3, (box.x1 - box.x0) / 1000);
    const bd = Math.max(3, (box.y1 - box.y0) / 1000);
    const ctl = controls as unknown as { target: THREE.Vector3; update: () => void } | null;
    if (camera instanceof THREE.OrthographicCamera) {
      camera.position.set(cx, 80, cz);
      camera.zoom = Math.min(size.width / (bw * 1.25), size.height / (bd * 1.25));
      camera.updateProjectionMatrix();
    } else {
      const r = Math.max(bw, bd);
      camera.position.set(cx + r * 0.55, r * 0.75 + 2, cz + r * 0.95 + 2);
    }
    if (ctl) {
      ctl.target.set(cx, 0, cz);
      ctl.update();
    } else camera.lookAt(cx, 0, cz);
    invalidate();
    debugHandle().viewReady = `${view}:${frameRequest}`;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [frameRequest, view, controls, hall.id]);
  return null;
}

function Stats() {
  const gl = useThree((s) => s.gl);
  const scene = useThree((s) => s.scene);
  const get = useThree((s) => s.get);
  useEffect(() => {
    registerRenderer(gl, scene);
    debugHandle().redraw = () => invalidateAll();
    debugHandle().project = (xMm, yMm, zMm = 0) => {
      const { camera } = get();
      const v = new THREE.Vector3(xMm / 1000, zMm / 1000, yMm / 1000).project(camera);
      const rect = gl.domElement.getBoundingClientRect();
      return { x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height };
    };
  }, [gl, scene, get]);
  return null;
}

export function EditorCanvas({ children }: { children?: ReactNode }) {
  const records = useRecords();
  const hall = hallOf(records);
  const view = useSession((s) => s.view);
  const tool = useSession((s) => s.tool);
  const picking = useFloorPick((s) => s.session !== null);
  const theme = useSession((s) => s.theme);
  const selection = useSession((s) => s.selection);
  const pal = PALETTES[theme];
  const handlers = usePointerHandlers();
  const racks = useMemo(() => placements(records), [records]);
  // Aisles are the server's: drawn from the hall's validation report (the last one until the edited
  // layout's arrives, its labels marked stale meanwhile).
  const hallId = useSession((s) => s.hallId);
  const saving = useSession((s) => s.saving);
  const report = useValidation((s) => (s.hallId === hallId ? s.report : null));
  const stale = useValidation((s) => s.pending) || saving > 0;
  const found = useMemo(() => reportedAisles(report), [report]);
  const selected = useMemo(() => new Set(selection), [selection]);
  const errors = useSession((s) => s.errors);
  const rowLabels = useMemo(
    () =>
      rowsOf(records).length > 80
        ? []
        : rowsOf(records).map((row) => {
            const b = rowBox(row, racksOf(records, row.id));
            const along = row.direction % 180 === 0;
            return {
              id: row.id,
              name: row.name,
              x: along ? b.x0 / 1000 - 0.5 : (b.x0 + b.x1) / 2000,
              z: along ? (b.y0 + b.y1) / 2000 : b.y0 / 1000 - 0.5,
              selected: selected.has(row.id),
            };
          }),
    [records, selected],
  );
  useEffect(() => {
    setLabelGroup(
      "rows",
      rowLabels.map((l) => ({
        key: `row-${l.id}`,
        x: l.x,
        y: 0.05,
        z: l.z,
        text: l.name,
        className: `row-label${l.selected ? " selected" : ""}`,
      })),
    );
    setLabelGroup(
      "aisles",
      found.length > 150
        ? []
        : found.map((a) => ({
            key: `aisle-${a.key}`,
            x: (a.box.x0 + a.box.x1) / 2000,
            y: 0.05,
            z: (a.box.y0 + a.box.y1) / 2000,
            text: aisleLabel(a),
            className: `aisle-label aisle-${a.kind}${a.tooNarrow ? " too-narrow" : ""}${stale ? " stale" : ""}`,
            title: stale
              ? "From the last check: the edited layout is being checked"
              : a.tooNarrow
                ? `narrower than the hall's ${formatLength(a.minWidthMm)} minimum`
                : undefined,
            data: { testid: "aisle-label", kind: a.kind, "width-mm": String(a.widthMm) },
          })),
    );
    invalidateAll();
  }, [rowLabels, found, stale]);
  // Errors about a row or rack (refused by the browser's checks or by the API) sit on the floor next
  // to it, as the sentence the planner reads; a row that was not laid has its message where it would be.
  useEffect(() => {
    const labels = errors.flatMap((e, i) => {
      const rec = records[e.target];
      const row = isRack(rec) ? records[rec.rowId] : rec;
      let at: { x: number; y: number } | null = e.at ?? null;
      if (isRow(row)) {
        const b = isRack(rec) ? rackBox(row, rec) : rowBox(row, racksOf(records, row.id));
        at = { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 };
      }
      if (!at) return [];
      return [
        {
          key: `error-${e.target}-${i}`,
          x: at.x / 1000,
          y: 2.2,
          z: at.y / 1000,
          text: `⚠ ${e.message}`,
          className: "error-label",
          data: { testid: "floor-error", target: e.target },
        },
      ];
    });
    setLabelGroup("errors", labels);
    invalidateAll();
  }, [errors, records]);
  const depthM = 1.2;
  if (!hall) return null;
  const plan = view === "plan";
  const leftButton = plan || tool === "draw-row" ? undefined : THREE.MOUSE.ROTATE;
  return (
    <Canvas
      data-testid="hall-canvas"
      frameloop="demand"
      gl={{ preserveDrawingBuffer: true, antialias: true }}
      onPointerMissed={() => undefined}
      style={{ cursor: tool === "draw-row" || picking ? "crosshair" : "default" }}
    >
      <Stats />
      <color attach="background" args={[pal.background]} />
      {plan ? (
        <OrthographicCamera
          key="plan"
          makeDefault
          position={[hall.widthMm / 2000, 80, hall.depthMm / 2000]}
          up={[0, 0, -1]}
          near={0.1}
          far={500}
          zoom={20}
        />
      ) : (
        <PerspectiveCamera
          key="persp"
          makeDefault
          fov={45}
          near={0.1}
          far={2000}
          position={[hall.widthMm / 1000, 20, hall.depthMm / 1000 + 10]}
        />
      )}
      <ambientLight intensity={0.75} />
      <directionalLight position={[10, 30, 15]} intensity={0.9} />
      <hemisphereLight args={["#ffffff", "#334155", 0.35]} />
      <Floor hall={hall} handlers={handlers}>
        <Aisles aisles={found} palette={pal} />
        <Racks racks={racks} selected={selected} palette={pal} handlers={handlers} />
        <Devices racks={racks} palette={pal} />
        <LabelProjector />
        <DrawPreview palette={pal} depthM={depthM} />
        <BoxPreview palette={pal} />
        <Cables />
        <Plant />
        <FacilityTrays />
        <FacilitySelection racks={racks} selected={selected} palette={pal} />
        {children}
      </Floor>
      <OrbitControls
        key={plan ? "plan-controls" : "orbit-controls"}
        makeDefault
        enableRotate={!plan}
        screenSpacePanning={plan}
        enableDamping={false}
        mouseButtons={{ LEFT: leftButton, MIDDLE: THREE.MOUSE.PAN, RIGHT: THREE.MOUSE.PAN }}
        maxPolarAngle={plan ? Math.PI : Math.PI / 2.05}
      />
      <CameraRig hall={hall} />
      <ControlsRef />
    </Canvas>
  );
}
