/**
 * Orbit frame times in the open editor. Two ways of turning the camera around the hall:
 *
 * - `orbit`: programmatic. On every animation frame the camera's azimuth moves by `stepDeg` through the
 *   view's OrbitControls (`window.__loopline.controls`), whose change event invalidates the next frame
 *   exactly as a left-drag does. A frame's time is the gap between consecutive animation frames
 *   (requestAnimationFrame timestamps), so it covers the main thread's work and the wait for the
 *   (software) rasteriser, the time a user waits between two pictures.
 * - `drag`: a real left-drag with the mouse (pointer events, the controls' own handlers, the scene's
 *   pointer-move handlers). Only frames that rendered count: the gap from an animation frame in which
 *   the renderer drew to the next one.
 *
 * Also the main thread's share: the time inside `renderer.render` per frame (WebGL calls are queued to
 * the GPU process; under SwiftShader the rasterising happens there, after this returns).
 */
import type { Page } from "@playwright/test";
import { readdirSync, readFileSync } from "node:fs";

export interface FrameStats {
  frames: number;
  seconds: number;
  median_ms: number;
  p90_ms: number;
  max_ms: number;
  /** Median time inside renderer.render per drawn frame (main thread only). */
  render_call_median_ms: number;
  /**
   * CPU time of the whole browser (every Chromium process: renderer, GPU process with SwiftShader,
   * compositor) per frame. On a shared machine the wall-clock frame time swings with the load; the
   * CPU a frame costs much less.
   */
  cpu_ms_per_frame: number;
}

/**
 * CPU time (user + system, ms) used so far by every process below this one, i.e. the browser this
 * test worker launched. Linux /proc; clock ticks of 10 ms.
 */
export function browserCpuMs(root = process.pid): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid ... utime(14) stime(15): split after the command, which may hold spaces.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    parent.set(Number(name), Number(f[1]));
    cpu.set(Number(name), (Number(f[11]) + Number(f[12])) * 10);
  }
  const below = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, ms] of cpu) if (below(pid)) total += ms;
  return total;
}

/** Median of a non-empty list (mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Nearest-rank percentile: the smallest value with at least q of the list at or below it. */
export function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(q * s.length) - 1)]!;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function stats(deltas: number[], renderMs: number[], cpuMs: number, drawn: number): FrameStats {
  return {
    frames: deltas.length,
    seconds: round1(deltas.reduce((a, b) => a + b, 0) / 1000),
    median_ms: round1(median(deltas)),
    p90_ms: round1(percentile(deltas, 0.9)),
    max_ms: round1(Math.max(...deltas)),
    render_call_median_ms: renderMs.length ? round1(median(renderMs)) : NaN,
    cpu_ms_per_frame: round1(cpuMs / Math.max(1, drawn)),
  };
}

interface PageHook {
  renderer: { render: (scene: unknown, camera: unknown) => void; info: { render: { frame: number } } };
  controls?: { getAzimuthalAngle: () => number; setAzimuthalAngle: (a: number) => void } | null;
}

/**
 * Orbit for at least `minSeconds` and `minFrames` (at most `maxSeconds`), `stepDeg` per frame. The first
 * two frames are left out (the first picks up whatever was pending before the orbit started).
 */
export async function orbit(page: Page, { minSeconds = 4, minFrames = 40, maxSeconds = 60, stepDeg = 1.5 } = {}): Promise<FrameStats> {
  const cpu0 = browserCpuMs();
  const { deltas, renderMs, drawn } = await page.evaluate(
    async (o) => {
      const h = (window as unknown as { __loopline: PageHook }).__loopline;
      const c = h.controls;
      if (!c) throw new Error("the editor exposes no camera controls (window.__loopline.controls)");
      const r = h.renderer;
      const renderMs: number[] = [];
      const original = r.render;
      r.render = function (scene, camera) {
        const t = performance.now();
        original.call(this, scene, camera);
        renderMs.push(performance.now() - t);
      };
      const deltas: number[] = [];
      const step = (o.stepDeg * Math.PI) / 180;
      await new Promise<void>((resolve) => {
        let start = -1;
        let last = -1;
        const tick = (t: number) => {
          if (start < 0) start = t;
          else deltas.push(t - last);
          last = t;
          const elapsed = (t - start) / 1000;
          if ((elapsed >= o.minSeconds && deltas.length >= o.minFrames + 2) || elapsed >= o.maxSeconds) return resolve();
          c.setAzimuthalAngle(c.getAzimuthalAngle() + step);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      r.render = original;
      return { deltas: deltas.slice(2), renderMs: renderMs.slice(2), drawn: renderMs.length };
    },
    { minSeconds, minFrames, maxSeconds, stepDeg },
  );
  return stats(deltas, renderMs, browserCpuMs() - cpu0, drawn);
}

/**
 * A left-drag across the canvas from (x0, y) to (x1, y) in page pixels, in `steps` mouse moves, with
 * the frames drawn meanwhile timed. The drag must start where the select tool leaves the pointer to the
 * camera (the sky or empty floor, not a rack).
 */
export async function drag(page: Page, from: { x: number; y: number }, toX: number, steps = 60): Promise<FrameStats> {
  await page.mouse.move(from.x, from.y);
  await page.evaluate(() => {
    const h = (window as unknown as { __loopline: PageHook }).__loopline;
    const r = h.renderer;
    const rec = { on: true, deltas: [] as number[], renderMs: [] as number[], done: null as Promise<void> | null };
    const original = r.render;
    r.render = function (scene, camera) {
      const t = performance.now();
      original.call(this, scene, camera);
      rec.renderMs.push(performance.now() - t);
    };
    rec.done = new Promise<void>((resolve) => {
      let last = -1;
      let drewLast = false;
      let frame = r.info.render.frame;
      const tick = (t: number) => {
        // The frame that started at `last` drew: its time is from then to now.
        if (drewLast) rec.deltas.push(t - last);
        drewLast = r.info.render.frame !== frame;
        frame = r.info.render.frame;
        last = t;
        if (!rec.on) {
          r.render = original;
          return resolve();
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    (window as unknown as { __orbitDrag: typeof rec }).__orbitDrag = rec;
  });
  const cpu0 = browserCpuMs();
  await page.mouse.down({ button: "left" });
  for (let i = 1; i <= steps; i++) await page.mouse.move(from.x + ((toX - from.x) * i) / steps, from.y);
  await page.mouse.up({ button: "left" });
  const { deltas, renderMs, drawn } = await page.evaluate(async () => {
    const rec = (window as unknown as { __orbitDrag: { on: boolean; deltas: number[]; renderMs: number[]; done: Promise<void> } }).__orbitDrag;
    rec.on = false;
    await rec.done;
    return { deltas: rec.deltas.slice(1), renderMs: rec.renderMs.slice(1), drawn: rec.renderMs.length };
  });
  return stats(deltas, renderMs, browserCpuMs() - cpu0, drawn);
}

/** One summary of several runs: the median of their medians and of their p90s. */
export function summarise(runs: FrameStats[]): { median_ms: number; p90_ms: number; cpu_ms_per_frame: number; runs: FrameStats[] } {
  const of = (k: "median_ms" | "p90_ms" | "cpu_ms_per_frame") => round1(median(runs.map((r) => r[k])));
  return { median_ms: of("median_ms"), p90_ms: of("p90_ms"), cpu_ms_per_frame: of("cpu_ms_per_frame"), runs };
}
