/**
 * Level of detail for big halls, decided in the scene only (the editor's records stay whole): device
 * plates only on racks near the camera, cables as bundles until the view is close. The choice follows
 * the camera through a throttled test on the controls' change event, never per frame, and React
 * renders only when the choice itself changes.
 */
import { useThree } from "@react-three/fiber";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import * as THREE from "three";
import type { CableSet } from "../state/wiring";
import type { RackPlacement } from "./selectors";

/** Halls of up to this many racks draw every rack's devices: the plates of so few cost nothing. */
export const ALL_DEVICES_MAX_RACKS = 300;
/** In a bigger hall, device plates on the racks within this distance of the eye (metres)... */
export const DEVICES_NEAR_M = 30;
/** ...and on at most this many of them, the nearest. */
export const DEVICES_NEAR_MAX = 300;
/** Plans of up to this many route segments are always drawn in full. */
export const ALL_CABLES_MAX_SEGMENTS = 60_000;
/** A bigger plan is drawn in full once the view spans at most this much floor (metres, on screen's height). */
export const FULL_CABLES_SPAN_M = 30;
/** Cables whose two ends fall in the same two floor cells of this size (metres) share one bundle line. */
export const BUNDLE_CELL_M = 3;
/** The camera test runs at most this often while the camera moves. */
export const LOD_THROTTLE_MS = 150;

/** Where the view is: the eye (metres, world space) and the floor height it spans on screen (metres). */
export interface ViewPoint {
  x: number;
  y: number;
  z: number;
  span: number;
}

const target = new THREE.Vector3();

/** The view of a camera looking at `at`; an orthographic (plan) camera's eye is put `span` above it. */
export function viewPoint(camera: THREE.Camera, at: THREE.Vector3): ViewPoint {
  if (camera instanceof THREE.OrthographicCamera) {
    const span = (camera.top - camera.bottom) / Math.max(camera.zoom, 1e-6);
    return { x: at.x, y: span, z: at.z, span };
  }
  const fov = camera instanceof THREE.PerspectiveCamera ? camera.fov : 45;
  const dist = camera.position.distanceTo(at);
  return {
    x: camera.position.x,
    y: camera.position.y,
    z: camera.position.z,
    span: 2 * dist * Math.tan((fov * Math.PI) / 360),
  };
}

/**
 * The racks that get device plates: all in a small hall, else the nearest (to the eye, from the rack's
 * middle) within DEVICES_NEAR_M, at most DEVICES_NEAR_MAX, in the racks' own order.
 */
export function nearRacks(racks: readonly RackPlacement[], v: ViewPoint): readonly RackPlacement[] {
  if (racks.length <= ALL_DEVICES_MAX_RACKS) return racks;
  const near: { i: number; d2: number }[] = [];
  const r2 = DEVICES_NEAR_M * DEVICES_NEAR_M;
  racks.forEach((p, i) => {
    const dx = p.x - v.x;
    const dy = p.h / 2 - v.y;
    const dz = p.z - v.z;
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 <= r2) near.push({ i, d2 });
  });
  if (near.length > DEVICES_NEAR_MAX) {
    near.sort((a, b) => a.d2 - b.d2 || a.i - b.i);
    near.length = DEVICES_NEAR_MAX;
    near.sort((a, b) => a.i - b.i);
  }
  return near.map((n) => racks[n.i] as RackPlacement);
}

/** Same racks, same order (placements are memoised per record, so identity is enough). */
export function sameRacks(a: readonly RackPlacement[], b: readonly RackPlacement[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** Whether the plan is drawn cable by cable (true) or as bundles (false) from this view. */
export function fullCables(set: CableSet, v: ViewPoint): boolean {
  return set.segCable.length <= ALL_CABLES_MAX_SEGMENTS || v.span <= FULL_CABLES_SPAN_M;
}

/**
 * The bundles of a plan: cables grouped by the floor cells of their two ends (BUNDLE_CELL_M squares,
 * the ends in route order), each group drawn as the route of its first cable. Returns those cables.
 */
export function bundleCables(set: CableSet): number[] {
  const seg = set.segments;
  const seen = new Set<number>();
  const out: number[] = [];
  const cell = (m: number) => Math.max(0, Math.min(1023, Math.floor(m / BUNDLE_CELL_M)));
  const n = set.segStart.length - 1;
  for (let i = 0; i < n; i++) {
    const a = set.segStart[i] ?? 0;
    const b = set.segStart[i + 1] ?? a;
    if (b <= a) continue;
    const x0 = cell(seg[a * 6] ?? 0);
    const z0 = cell(seg[a * 6 + 2] ?? 0);
    const x1 = cell(seg[(b - 1) * 6 + 3] ?? 0);
    const z1 = cell(seg[(b - 1) * 6 + 5] ?? 0);
    // Four 10-bit cells: 40 bits, exact in a double.
    const key = ((x0 * 1024 + z0) * 1024 + x1) * 1024 + z1;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(i);
  }
  return out;
}

/**
 * A level-of-detail choice that follows the camera: `choose` runs at once (during the render) when it
 * is new (its inputs changed), and at most every LOD_THROTTLE_MS while the camera moves; the component
 * renders again only when `same` says the choice changed.
 */
export function useLod<T>(choose: (v: ViewPoint) => T, same: (a: T, b: T) => boolean): T {
  const get = useThree((s) => s.get);
  const controls = useThree((s) => s.controls);
  const evaluate = (f: (v: ViewPoint) => T): T => {
    const { camera, controls: c } = get();
    const t = (c as unknown as { target?: THREE.Vector3 } | null)?.target;
    return f(viewPoint(camera, t ? target.copy(t) : target.set(0, 0, 0)));
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fresh = useMemo(() => evaluate(choose), [choose]);
  const [moved, setMoved] = useState<{ by: (v: ViewPoint) => T; value: T } | null>(null);
  const shown = moved && moved.by === choose ? moved.value : fresh;
  const latest = useRef({ choose, shown, same, evaluate });
  useLayoutEffect(() => {
    latest.current = { choose, shown, same, evaluate };
  });
  useEffect(() => {
    const c = controls as unknown as THREE.EventDispatcher<{ change: object }> | null;
    if (!c) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const run = () => {
      timer = null;
      const l = latest.current;
      const next = l.evaluate(l.choose);
      if (!l.same(l.shown, next)) setMoved({ by: l.choose, value: next });
    };
    const onChange = () => {
      if (!timer) timer = setTimeout(run, LOD_THROTTLE_MS);
    };
    c.addEventListener("change", onChange);
    return () => {
      c.removeEventListener("change", onChange);
      if (timer) clearTimeout(timer);
    };
  }, [controls]);
  return shown;
}
