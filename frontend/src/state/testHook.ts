/**
 * Test/bench hook: `window.__loopline` exposes the renderer's counters, scene stats and the stores.
 * Read by e2e tests and `e2e/bench/`; nothing in the app depends on it. It lives on the state floor so
 * that every floor above can fill its part: the scene (renderer, counters, `project`, `viewReady`),
 * sync (`sync`).
 */
import type * as THREE from "three";
import { editor } from "./editor";
import { useSession } from "./session";

export interface LooplineDebug {
  renderer: THREE.WebGLRenderer | null;
  scene: THREE.Scene | null;
  /** `renderer.info.render` after the last frame. */
  render: () => { calls: number; triangles: number; lines: number; frame: number } | null;
  stats: {
    racks: number;
    devices: number;
    cables: number;
    cableSegments: number;
    firstRenderMs: number | null;
    firstHallRenderMs: number | null;
    hoveredCable: string | null;
    lastPickMs: number | null;
    /** Level of detail (scene/lod.ts): racks drawn with their devices, cables as "full" or "bundles" and the lines drawn. */
    deviceRacks: number;
    cableLod: "full" | "bundles" | null;
    cableLinesDrawn: number;
    /** Rack instances the last matrix write touched (an edit rewrites only the changed ones). */
    rackInstancesWritten: number;
  };
  store: typeof editor;
  session: typeof useSession;
  /** Request one frame (frameloop="demand"); the bench times a redraw with it. */
  redraw?: () => void;
  /** Screen position (page CSS pixels) of a floor point in millimetres, for tests that click the floor. */
  project?: (xMm: number, yMm: number, zMm?: number) => { x: number; y: number };
  /** `<view>:<frame request>` once the camera of that view has been framed (tests wait on it). */
  viewReady?: string;
  /** The layout sync of the open hall (`idle()` resolves when every edit is saved). */
  sync?: unknown;
  /**
   * The camera controls of the current view (drei's OrbitControls): the orbit benchmark turns the camera
   * through them, so each step invalidates a frame exactly as a left-drag does.
   */
  controls?: OrbitHandle | null;
}

export interface OrbitHandle {
  getAzimuthalAngle: () => number;
  setAzimuthalAngle: (radians: number) => void;
  getPolarAngle: () => number;
  setPolarAngle: (radians: number) => void;
}

declare global {
  interface Window {
    __loopline?: LooplineDebug;
  }
}

export const sceneStats: LooplineDebug["stats"] = {
  racks: 0,
  devices: 0,
  cables: 0,
  cableSegments: 0,
  firstRenderMs: null,
  firstHallRenderMs: null,
  hoveredCable: null,
  lastPickMs: null,
  deviceRacks: 0,
  cableLod: null,
  cableLinesDrawn: 0,
  rackInstancesWritten: 0,
};

export function debugHandle(): LooplineDebug {
  if (!window.__loopline) {
    window.__loopline = {
      renderer: null,
      scene: null,
      render: () => {
        const r = window.__loopline?.renderer;
        if (!r) return null;
        const { calls, triangles, lines, frame } = r.info.render;
        return { calls, triangles, lines, frame };
      },
      stats: sceneStats,
      store: editor,
      session: useSession,
    };
  }
  return window.__loopline;
}

export function registerRenderer(gl: THREE.WebGLRenderer, scene: THREE.Scene): void {
  const h = debugHandle();
  h.renderer = gl;
  h.scene = scene;
}
