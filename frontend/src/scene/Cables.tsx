/**
 * Cables of the chosen wiring plan: every route merged into ONE LineSegments buffer coloured per
 * vertex by medium (a big plan seen from afar: one route per bundle, scene/lod.ts), the Subways loops in one more, and the hovered/focused cable in a third.
 * Hover picking runs on pointer moves (at most once per animation frame) against the segment array
 * and writes the tooltip DOM and the highlight geometry directly: no React state on pointer move.
 */
import { useThree } from "@react-three/fiber";
import { useCallback, useEffect, useMemo, useRef } from "react";
import * as THREE from "three";
import { isRack, isRow, type Records } from "../model/records";
import { formatLength } from "../model/units";
import { useRecords } from "../state/editor";
import { tooltipRef } from "../state/overlays";
import { MEDIUM_COLOURS } from "../state/palette";
import { usePlant } from "../state/plant";
import { sceneStats } from "../state/testHook";
import { cableEnds, useWiring, type CableSet } from "../state/wiring";
import {
  DIFF_COLOURS,
  diffBuffers,
  drawnCounts,
  reportDiff,
  STATUS_CODE,
  useDiff,
  type DiffOverlay,
  type DiffReport,
} from "../state/planDiff";
import { FAILURE_COLOUR, pickCable, pickingCables, useFloorPick } from "../state/floorPick";
import { HEAT_LUT, heatPercent, reportHeat, useHeat, type HeatOverlay } from "../state/heatMap";
import { bundleCables, fullCables, useLod, type ViewPoint } from "./lod";
import { placeRack } from "./selectors";

export function describeCable(
  set: CableSet,
  i: number,
): { label: string; a: string; b: string; medium: string; length: string; id: string } {
  const b = set.buffers;
  const label = b.labels[i] ?? "";
  const medium = b.media[b.medium[i] ?? 0] ?? "?";
  return {
    id: b.cable_ids[i] ?? "",
    label,
    ...cableEnds(label),
    medium: MEDIUM_COLOURS[medium]?.label ?? medium,
    length: formatLength(b.raw_length_mm[i] ?? 0),
  };
}

/**
 * The plan's routes coloured by medium: every cable, or only the given ones (the bundles of a far view,
 * lod.ts) with their segments copied out.
 */
function cableGeometry(set: CableSet, only?: readonly number[]): THREE.BufferGeometry {
  performance.mark(only ? "loopline:cable-bundles" : "loopline:cable-geometry");
  const byMedium = set.buffers.media.map((m) => new THREE.Color(MEDIUM_COLOURS[m]?.colour ?? "#ffffff"));
  let positions = set.segments;
  let cableOf = (s: number) => set.segCable[s] ?? 0;
  if (only) {
    let n = 0;
    for (const i of only) n += (set.segStart[i + 1] ?? 0) - (set.segStart[i] ?? 0);
    positions = new Float32Array(n * 6);
    const owner = new Uint32Array(n);
    let at = 0;
    for (const i of only) {
      const a = set.segStart[i] ?? 0;
      const b = set.segStart[i + 1] ?? a;
      positions.set(set.segments.subarray(a * 6, b * 6), at * 6);
      owner.fill(i, at, at + b - a);
      at += b - a;
    }
    cableOf = (s: number) => owner[s] ?? 0;
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(positions, 3));
  const colours = new Float32Array(positions.length);
  const n = positions.length / 6;
  for (let s = 0; s < n; s++) {
    const c = byMedium[set.buffers.medium[cableOf(s)] ?? 0] ?? byMedium[0];
    if (!c) continue;
    for (let v = 0; v < 2; v++) {
      colours[s * 6 + v * 3] = c.r;
      colours[s * 6 + v * 3 + 1] = c.g;
      colours[s * 6 + v * 3 + 2] = c.b;
    }
  }
  g.setAttribute("color", new THREE.BufferAttribute(colours, 3));
  g.computeBoundingSphere();
  return g;
}

const linearRgb = (hex: string): [number, number, number] => {
  const c = new THREE.Color(hex);
  return [c.r, c.g, c.b];
};

/**
 * The diff of two plans: the newer plan's cables coloured kept / added / moved (same positions as
 * the plan's own buffer, so hover picking still works on it), and the older plan's removed cables.
 */
function diffGeometry(
  o: DiffOverlay,
  showKept: boolean,
): { cables: THREE.BufferGeometry; removed: THREE.BufferGeometry | null; report: DiffReport } {
  const { colours, removed, removedColours } = diffBuffers(o, linearRgb);
  const cables = new THREE.BufferGeometry();
  if (showKept) {
    cables.setAttribute("position", new THREE.BufferAttribute(o.newSet.segments, 3));
    cables.setAttribute("color", new THREE.BufferAttribute(colours, 3));
  } else {
    // Only the change: the segments of cables that are not kept.
    const keep: number[] = [];
    o.newSet.segCable.forEach((c, seg) => {
      if (o.diff.status[c] !== STATUS_CODE.kept) keep.push(seg);
    });
    const pos = new Float32Array(keep.length * 6);
    const col = new Float32Array(keep.length * 6);
    keep.forEach((seg, k) => {
      pos.set(o.newSet.segments.subarray(seg * 6, seg * 6 + 6), k * 6);
      col.set(colours.subarray(seg * 6, seg * 6 + 6), k * 6);
    });
    cables.setAttribute("position", new THREE.BufferAttribute(pos, 3));
    cables.setAttribute("color", new THREE.BufferAttribute(col, 3));
  }
  cables.computeBoundingSphere();
  const report: DiffReport = {
    oldPlanId: o.oldPlanId,
    newPlanId: o.newPlanId,
    drawn: drawnCounts(o.newSet, colours, o.diff.removed.length, linearRgb),
    colours: {
      kept: DIFF_COLOURS.kept.colour,
      added: DIFF_COLOURS.added.colour,
      moved: DIFF_COLOURS.moved.colour,
      removed: DIFF_COLOURS.removed.colour,
    },
  };
  if (!removed.length) return { cables, removed: null, report };
  const gone = new THREE.BufferGeometry();
  gone.setAttribute("position", new THREE.BufferAttribute(removed, 3));
  gone.setAttribute("color", new THREE.BufferAttribute(removedColours, 3));
  gone.computeBoundingSphere();
  return { cables, removed: gone, report };
}

/**
 * One closed polyline per loop through its logical racks, drawn over the racks (on the port-face edge,
 * above the rack top; logical rack n one step higher than n-1) so the loop reads from any angle.
 */
function loopGeometry(records: Records, loops: unknown[]): THREE.BufferGeometry | null {
  const racksByName = new Map<string, ReturnType<typeof placeRack>>();
  for (const rec of Object.values(records)) {
    if (!isRack(rec)) continue;
    const row = records[rec.rowId];
    if (isRow(row)) racksByName.set(rec.name, placeRack(row, rec));
  }
  const pos: number[] = [];
  const col: number[] = [];
  const palette = ["#f472b6", "#facc15", "#4ade80", "#60a5fa", "#fb923c", "#c084fc"];
  (loops as { id: number; logical_racks: string[] }[]).forEach((loop, li) => {
    const pts: THREE.Vector3[] = [];
    for (const name of loop.logical_racks) {
      // `<hall>.<row>.<rack>.L<n>`
      const parts = name.split(".");
      const lr = Number((parts[parts.length - 1] ?? "L1").slice(1)) || 1;
      const p = racksByName.get(parts[parts.length - 2] ?? "");
      if (!p) continue;
      const y = p.h + 0.25 + 0.2 * (lr - 1);
      const depth = Math.abs(p.fx) > 0.5 ? p.sx : p.sz;
      pts.push(new THREE.Vector3(p.x + p.fx * (depth / 2 - 0.1), y, p.z + p.fz * (depth / 2 - 0.1)));
    }
    if (pts.length < 2) return;
    const c = new THREE.Color(palette[li % palette.length]);
    pts.forEach((a, i) => {
      const b = pts[(i + 1) % pts.length] ?? a;
      pos.push(a.x, a.y, a.z, b.x, b.y, b.z);
      col.push(c.r, c.g, c.b, c.r, c.g, c.b);
    });
  });
  if (!pos.length) return null;
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute("color", new THREE.Float32BufferAttribute(col, 3));
  return g;
}

let heatLinear: Float32Array | null = null;
/** The heat scale's 101 colours in the renderer's (linear) space, 3 floats each. */
function heatLut(): Float32Array {
  if (!heatLinear) {
    heatLinear = new Float32Array(HEAT_LUT.length * 3);
    HEAT_LUT.forEach((hex, i) => heatLinear?.set(linearRgb(hex), i * 3));
  }
  return heatLinear;
}

/** The plan's segments with a colour buffer of their own, recoloured in place for each time bucket. */
function heatGeometry(set: CableSet, o: HeatOverlay) {
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(set.segments, 3));
  const colours = new Float32Array(set.segments.length);
  const attr = new THREE.BufferAttribute(colours, 3);
  g.setAttribute("color", attr);
  g.computeBoundingSphere();
  const ids = set.buffers.cable_ids;
  const series = ids.map((id) => o.cables.get(id));
  const index = new Map(ids.map((id, i) => [id, i] as const));
  const paint = (bucket: number) => {
    const lut = heatLut();
    for (let i = 0; i < ids.length; i++) {
      const p = heatPercent(series[i]?.[bucket] ?? 0) * 3;
      for (let s = set.segStart[i] ?? 0, e = set.segStart[i + 1] ?? s; s < e; s++) {
        colours.set(lut.subarray(p, p + 3), s * 6);
        colours.set(lut.subarray(p, p + 3), s * 6 + 3);
      }
    }
    attr.needsUpdate = true;
  };
  const drawn = (id: string): string | null => {
    const i = index.get(id);
    if (i === undefined || (set.segStart[i + 1] ?? 0) === (set.segStart[i] ?? 0)) return null;
    const o6 = (set.segStart[i] ?? 0) * 6;
    return `#${new THREE.Color().setRGB(colours[o6] ?? 0, colours[o6 + 1] ?? 0, colours[o6 + 2] ?? 0).getHexString()}`;
  };
  return { geometry: g, paint, drawn };
}

/** The segments of the given cables (picked failures), or null when there is none. */
function cablesGeometry(set: CableSet, ids: ReadonlySet<string>): THREE.BufferGeometry | null {
  const parts: Float32Array[] = [];
  set.buffers.cable_ids.forEach((id, i) => {
    if (ids.has(id)) parts.push(set.segments.subarray((set.segStart[i] ?? 0) * 6, (set.segStart[i + 1] ?? 0) * 6));
  });
  const n = parts.reduce((m, p) => m + p.length, 0);
  if (!n) return null;
  const pos = new Float32Array(n);
  let at = 0;
  for (const p of parts) {
    pos.set(p, at);
    at += p.length;
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute("position", new THREE.BufferAttribute(pos, 3));
  g.computeBoundingSphere();
  return g;
}

function setHighlight(line: THREE.LineSegments | null, set: CableSet, i: number | null) {
  if (!line) return;
  if (i === null) {
    line.visible = false;
    return;
  }
  const a = set.segStart[i] ?? 0;
  const b = set.segStart[i + 1] ?? a;
  line.geometry.setAttribute("position", new THREE.BufferAttribute(set.segments.slice(a * 6, b * 6), 3));
  line.geometry.computeBoundingSphere();
  line.visible = true;
}

const ray = new THREE.Raycaster();
const ndc = new THREE.Vector2();
const v0 = new THREE.Vector3();
const v1 = new THREE.Vector3();
const onRay = new THREE.Vector3();
const onSeg = new THREE.Vector3();

/** Nearest cable within `px` pixels of the pointer, or null. */
export function pick(
  set: CableSet,
  camera: THREE.Camera,
  el: HTMLElement,
  clientX: number,
  clientY: number,
  px = 6,
): number | null {
  const rect = el.getBoundingClientRect();
  ndc.set(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  ray.setFromCamera(ndc, camera);
  const r = ray.ray;
  const seg = set.segments;
  let best = -1;
  let bestScore = Infinity;
  const ortho = camera instanceof THREE.OrthographicCamera;
  const perPixel = ortho
    ? 1 / (camera as THREE.OrthographicCamera).zoom
    : (2 * Math.tan(((camera as THREE.PerspectiveCamera).fov * Math.PI) / 360)) / rect.height;
  for (let s = 0, n = set.segCable.length; s < n; s++) {
    const o = s * 6;
    v0.fromArray(seg, o);
    v1.fromArray(seg, o + 3);
    const d2 = r.distanceSqToSegment(v0, v1, onRay, onSeg);
    const dist = ortho ? 1 : onRay.distanceTo(r.origin);
    const tol = px * perPixel * dist;
    if (d2 <= tol * tol) {
      // Prefer the nearest to the pointer, then the nearest to the eye. A ray through the segment can give a
      // slightly negative squared distance (three's rounding): its square root was NaN and the cable never won.
      const score = Math.sqrt(Math.max(0, d2)) / tol + dist * 1e-4;
      if (score < bestScore) {
        bestScore = score;
        best = set.segCable[s] ?? -1;
      }
    }
  }
  return best < 0 ? null : best;
}

export function Cables() {
  const cables = useWiring((s) => s.cables);
  const plan = useWiring((s) => s.plan);
  const showLoops = useWiring((s) => s.showLoops);
  const showCables = useWiring((s) => s.showCables);
  const focus = useWiring((s) => s.focus);
  const records = useRecords();
  const { gl, invalidate, get } = useThree();
  const hoverLine = useRef<THREE.LineSegments>(null);
  const focusLine = useRef<THREE.LineSegments>(null);
  const overlay = useDiff((s) => s.overlay);
  const showKept = useDiff((s) => s.showKept);
  const heatMap = useHeat((s) => s.overlay);
  const bucket = useHeat((s) => s.bucket);
  const picking = useFloorPick((s) => s.session);
  // A simulation's heat map colours the cables when it is of the plan on screen.
  const heatOn = heatMap !== null && cables !== null && heatMap.planId === cables.planId;
  // The diff colours the cables when it is the diff of the plan on screen.
  const diffOn = !heatOn && overlay !== null && cables !== null && overlay.newSet === cables;
  // Level of detail: a big plan far from the camera is drawn as bundles; both geometries are built once
  // per plan, when first shown, and kept while only the camera moves.
  const chooseFull = useCallback((v: ViewPoint) => (cables ? fullCables(cables, v) : true), [cables]);
  const full = useLod(chooseFull, (a, b) => a === b);
  const lod = useMemo(
    () => ({ full: null as THREE.BufferGeometry | null, bundles: null as THREE.BufferGeometry | null }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [cables],
  );
  useEffect(
    () => () => {
      lod.full?.dispose();
      lod.bundles?.dispose();
    },
    [lod],
  );
  const geometry = useMemo(() => {
    if (!cables) return null;
    if (full) return (lod.full ??= cableGeometry(cables));
    return (lod.bundles ??= cableGeometry(cables, bundleCables(cables)));
  }, [cables, full, lod]);
  const diff = useMemo(() => (diffOn ? diffGeometry(overlay, showKept) : null), [diffOn, overlay, showKept]);
  const heat = useMemo(() => (heatOn ? heatGeometry(cables, heatMap) : null), [heatOn, cables, heatMap]);
  const failedLinks = useMemo(() => {
    if (!picking || !cables || picking.planId !== cables.planId) return null;
    const ids = new Set(picking.failures.filter((f) => f.kind === "link").map((f) => f.id));
    return ids.size ? cablesGeometry(cables, ids) : null;
  }, [picking, cables]);
  const loops = useMemo(
    () => (plan && cables && plan.id === cables.planId ? loopGeometry(records, plan.loops) : null),
    [plan, cables, records],
  );

  useEffect(() => {
    sceneStats.cables = cables?.buffers.cable_ids.length ?? 0;
    sceneStats.cableSegments = cables?.segCable.length ?? 0;
    if (cables && sceneStats.firstRenderMs === null) {
      // Time to first render: from navigation start to the first frame that has the cables.
      requestAnimationFrame(() => requestAnimationFrame(() => (sceneStats.firstRenderMs = performance.now())));
    }
    invalidate();
  }, [cables, invalidate]);
  useEffect(() => {
    sceneStats.cableLod = cables ? (full ? "full" : "bundles") : null;
    sceneStats.cableLinesDrawn = geometry ? geometry.getAttribute("position").count / 2 : 0;
    invalidate();
  }, [cables, full, geometry, invalidate]);

  useEffect(() => {
    invalidate();
    reportDiff(diff ? diff.report : null);
    return () => {
      diff?.cables.dispose();
      diff?.removed?.dispose();
    };
  }, [diff, invalidate]);

  useEffect(() => {
    if (!heat || !heatMap) return;
    heat.paint(bucket);
    invalidate();
    reportHeat(heatMap.jobId, { cableBucket: bucket, cableColour: heat.drawn });
  }, [heat, heatMap, bucket, invalidate]);
  useEffect(() => () => heat?.geometry.dispose(), [heat]);
  useEffect(() => {
    invalidate();
    return () => failedLinks?.dispose();
  }, [failedLinks, invalidate]);

  useEffect(() => {
    if (cables) setHighlight(focusLine.current, cables, focus);
    invalidate();
  }, [cables, focus, invalidate]);

  useEffect(() => {
    if (!cables) return;
    const el = gl.domElement;
    let pending: PointerEvent | null = null;
    let raf = 0;
    let current: number | null = null;
    const run = () => {
      raf = 0;
      const e = pending;
      pending = null;
      if (!e || !useWiring.getState().showCables) return;
      const t0 = performance.now();
      const hit = pick(cables, get().camera, el, e.clientX, e.clientY);
      sceneStats.lastPickMs = performance.now() - t0;
      const tip = tooltipRef.current;
      if (hit !== current) {
        current = hit;
        setHighlight(hoverLine.current, cables, hit);
        invalidate();
        sceneStats.hoveredCable = hit === null ? null : (cables.buffers.cable_ids[hit] ?? null);
      }
      if (!tip) return;
      if (hit === null) {
        tip.style.display = "none";
        return;
      }
      const d = describeCable(cables, hit);
      const rect = el.getBoundingClientRect();
      tip.style.display = "block";
      tip.style.left = `${e.clientX - rect.left + 14}px`;
      tip.style.top = `${e.clientY - rect.top + 14}px`;
      tip.dataset.cableId = d.id;
      const [label, ends, medium] = Array.from(tip.children) as HTMLElement[];
      if (label) label.textContent = d.label;
      if (ends) ends.textContent = `A ${d.a} · B ${d.b}`;
      if (medium) medium.textContent = `${d.medium} · ${d.length}`;
    };
    const onMove = (e: PointerEvent) => {
      if (e.buttons) return; // no picking while orbiting or dragging
      pending = e;
      if (!raf) raf = requestAnimationFrame(run);
    };
    const onLeave = () => {
      if (tooltipRef.current) tooltipRef.current.style.display = "none";
    };
    // Picking a simulation's failures: a click (not a drag) on a cable fails that link. On a structured
    // plan's plant, a click selects the link (its chain is lit and listed: scene/Plant.tsx).
    const selectingLinks = () => {
      const p = usePlant.getState();
      return p.plant !== null && p.planId === cables.planId;
    };
    let pressed: { x: number; y: number } | null = null;
    const onDown = (e: PointerEvent) => {
      pressed = e.button === 0 && (pickingCables() || selectingLinks()) ? { x: e.clientX, y: e.clientY } : null;
    };
    const onUp = (e: PointerEvent) => {
      const p = pressed;
      pressed = null;
      if (!p || Math.hypot(e.clientX - p.x, e.clientY - p.y) > 5) return;
      const picking = pickingCables();
      if (!picking && !selectingLinks()) return;
      const hit = pick(cables, get().camera, el, e.clientX, e.clientY, 8);
      if (hit === null) return;
      if (!picking) {
        useWiring.setState({ focus: hit });
        return;
      }
      const d = describeCable(cables, hit);
      pickCable(d.id, `${d.label} (${d.medium}, ${d.length})`);
    };
    el.addEventListener("pointermove", onMove);
    el.addEventListener("pointerleave", onLeave);
    el.addEventListener("pointerdown", onDown);
    el.addEventListener("pointerup", onUp);
    return () => {
      el.removeEventListener("pointermove", onMove);
      el.removeEventListener("pointerleave", onLeave);
      el.removeEventListener("pointerdown", onDown);
      el.removeEventListener("pointerup", onUp);
      if (raf) cancelAnimationFrame(raf);
    };
  }, [cables, gl, get, invalidate]);

  if (!cables || !geometry) return null;
  return (
    <group>
      <lineSegments
        geometry={geometry}
        visible={showCables && !diff && !heat}
        raycast={() => null}
        frustumCulled={false}
      >
        <lineBasicMaterial vertexColors transparent opacity={0.85} />
      </lineSegments>
      {heat && (
        <lineSegments geometry={heat.geometry} visible={showCables} raycast={() => null} frustumCulled={false}>
          <lineBasicMaterial vertexColors transparent opacity={0.95} />
        </lineSegments>
      )}
      {failedLinks && (
        <lineSegments geometry={failedLinks} raycast={() => null} frustumCulled={false} renderOrder={9}>
          <lineBasicMaterial color={FAILURE_COLOUR} depthTest={false} />
        </lineSegments>
      )}
      {diff && (
        <lineSegments geometry={diff.cables} visible={showCables} raycast={() => null} frustumCulled={false}>
          <lineBasicMaterial vertexColors transparent opacity={0.9} />
        </lineSegments>
      )}
      {diff?.removed && (
        <lineSegments geometry={diff.removed} visible={showCables} raycast={() => null} frustumCulled={false}>
          <lineBasicMaterial vertexColors transparent opacity={0.9} />
        </lineSegments>
      )}
      {loops && (
        <lineSegments geometry={loops} visible={showLoops} raycast={() => null} renderOrder={5}>
          <lineBasicMaterial vertexColors depthTest={false} transparent opacity={0.95} />
        </lineSegments>
      )}
      <lineSegments ref={hoverLine} visible={false} raycast={() => null} frustumCulled={false} renderOrder={10}>
        <bufferGeometry />
        <lineBasicMaterial color="#ffffff" depthTest={false} />
      </lineSegments>
      <lineSegments ref={focusLine} visible={false} raycast={() => null} frustumCulled={false} renderOrder={11}>
        <bufferGeometry />
        <lineBasicMaterial color="#f59e0b" depthTest={false} />
      </lineSegments>
    </group>
  );
}
