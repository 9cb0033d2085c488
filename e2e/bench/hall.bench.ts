/**
 * Loads a 2,000-rack hall with ~100,000 cables and reports the time to first render and the draw
 * calls (`renderer.info.render.calls`). Targets: under 3 s and at most 50 draw calls.
 *
 * Setup through the API (not timed in the result): the big hall of bigHall.ts (2,000 racks, a
 * single-homed plan of 104,000 cables). Orbit frame times: orbit.bench.ts.
 * Writes artifacts/bench.json and artifacts/bench-hall.png.
 */
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";
import { buildBigHall, findBigHall } from "./bigHall";

test("2,000 racks, 100,000 cables: time to first render and draw calls", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  // LOOPLINE_BENCH_REUSE=1 (bench_editor.py --compare): open a big hall built earlier on this stack.
  const reuse = process.env.LOOPLINE_BENCH_REUSE === "1" ? await findBigHall(api) : null;
  const { projectId, hallId, planId, planCables, layoutApiS, planApiS } = reuse ?? (await buildBigHall(api));

  // Timed: open the editor on that hall and plan (session cookie already set).
  await page.goto(`/?project=${projectId}&hall=${hallId}&plan=${planId}`);
  await page.waitForFunction(() => window.__loopline?.stats.firstRenderMs != null, undefined, { timeout: 300_000 });
  // Let a few frames settle, then read the counters of a fresh frame.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  const result = await page.evaluate(() => {
    const h = window.__loopline!;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const res = (part: string) => {
      const e = performance.getEntriesByType("resource").find((r) => r.name.includes(part)) as PerformanceResourceTiming | undefined;
      return e ? { start: Math.round(e.startTime), end: Math.round(e.responseEnd), bytes: e.encodedBodySize } : null;
    };
    return {
      firstRenderMs: h.stats.firstRenderMs!,
      navStart: nav?.startTime ?? 0,
      render: h.render(),
      stats: { ...h.stats },
      fetches: { layout: res("/layout"), cables: res("/render"), script: res("/assets/index") },
      marks: Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("loopline:")).map((m) => [m.name.slice(9), Math.round(m.startTime)])),
    };
  });
  // Responsiveness: hover picking over every cable segment, and one edit (nudge a row) to its next frame.
  const box = (await page.locator("canvas").first().boundingBox())!;
  const picks: number[] = [];
  for (let i = 0; i < 6; i++) {
    await page.mouse.move(box.x + box.width * (0.3 + i * 0.08), box.y + box.height * 0.5);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    picks.push((await page.evaluate(() => window.__loopline!.stats.lastPickMs)) ?? NaN);
  }
  const frameMs = await page.evaluate(async () => {
    const h = window.__loopline! as unknown as { redraw: () => void };
    const t = performance.now();
    h.redraw();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t;
  });
  // Edit to frame: a keyboard nudge (the edit applied in the keydown, then two animation frames).
  // One row of 50 racks, five times right then back; one rack (the last of row R01, so the move is free)
  // ten times, right then left. Medians.
  const nudge = (ids: string[], key: string) =>
    page.evaluate(
      async ({ ids, key }) => {
        const h = window.__loopline!;
        (h.session as unknown as { setState: (p: object) => void }).setState({ selection: ids });
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        const t = performance.now();
        window.dispatchEvent(new KeyboardEvent("keydown", { key }));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t;
      },
      { ids, key },
    );
  const records = () => page.evaluate(() => Object.values(window.__loopline!.store.records) as unknown as { id: string; typeName: string; name: string; rowId?: string; positionMm?: number }[]);
  const all = await records();
  const row = all.find((r) => r.typeName === "row" && r.name === "R01")!;
  const lastRack = all.filter((r) => r.typeName === "rack" && r.rowId === row.id).sort((a, b) => b.positionMm! - a.positionMm!)[0]!;
  const rowEdits: number[] = [];
  for (let i = 0; i < 10; i++) rowEdits.push(await nudge([row.id], i % 2 ? "ArrowLeft" : "ArrowRight"));
  const rackEdits: number[] = [];
  const rackAt: number[] = [];
  for (let i = 0; i < 10; i++) {
    rackEdits.push(await nudge([lastRack.id], i % 2 ? "ArrowLeft" : "ArrowRight"));
    rackAt.push((await records()).find((r) => r.id === lastRack.id)!.positionMm!);
  }
  const medianOf = (xs: number[]) => {
    const v = [...xs].sort((a, b) => a - b);
    return (v[(v.length - 1) >> 1]! + v[v.length >> 1]!) / 2;
  };
  const editMs = medianOf(rowEdits);
  // JS heap after a garbage collection (DevTools protocol), and the renderer WebGL runs on.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();
  const renderer = await page.evaluate(() => {
    const gl = (window.__loopline as unknown as { renderer: { getContext: () => WebGLRenderingContext } }).renderer.getContext();
    const ext = gl.getExtension("WEBGL_debug_renderer_info");
    return ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
  });
  const lod = await page.evaluate(() => {
    const s = window.__loopline!.stats as unknown as Record<string, unknown>;
    return { device_racks: s.deviceRacks, devices: s.devices, cable_lod: s.cableLod, cable_lines_drawn: s.cableLinesDrawn };
  });
  const report = {
    build: process.env.LOOPLINE_BENCH_BUILD ?? "current",
    racks: 2000,
    cables: result.stats.cables,
    cable_segments: result.stats.cableSegments,
    // From navigation start to the first frame with every rack and every cable drawn.
    time_to_first_render_ms: Math.round(result.firstRenderMs - result.navStart),
    // From navigation start to the first frame with the 2,000 racks (cables still loading).
    time_to_first_hall_render_ms: Math.round((result.stats.firstHallRenderMs ?? 0) - result.navStart),
    draw_calls: result.render?.calls,
    triangles: result.render?.triangles,
    lines: result.render?.lines,
    fetches_ms: result.fetches,
    marks_ms: result.marks,
    hover_pick_ms: picks.map((x) => Math.round(x * 10) / 10),
    // A row of 50 racks nudged one tile (median of 10).
    edit_to_frame_ms: Math.round(editMs),
    // The last rack of a row moved one rack along it and back (median of 10).
    rack_move_to_frame_ms: Math.round(medianOf(rackEdits)),
    js_heap_mb: Math.round(heap.usedSize / 1e5) / 10,
    renderer,
    lod,
    // A redraw with nothing changed: the GPU (here SwiftShader, software) share of the edit.
    redraw_frame_ms: Math.round(frameMs),
    setup: { layout_api_s: layoutApiS, plan_generation_api_s: planApiS, plan_cables: planCables },
    targets: { time_to_first_render_ms: 3000, draw_calls: 50 },
  };
  console.log(`BENCH ${JSON.stringify(report)}`);
  writeFileSync(`${ARTIFACTS}/bench.json`, JSON.stringify(report, null, 2));
  await page.screenshot({ path: `${ARTIFACTS}/bench-hall.png` });
  expect(result.stats.cables).toBe(planCables);
  // The rack moved: one rack width (600 mm) on, then back, each time.
  expect(rackAt).toEqual(Array.from({ length: 10 }, (_, i) => lastRack.positionMm! + (i % 2 ? 0 : 600)));
  await (page.evaluate(() => (window.__loopline!.sync as { idle: () => Promise<void> }).idle()));
});
