/**
 * The campus-scale hall (issue 33): 10,000 racks and 500,000 cables (bigHall.ts CAMPUS_HALL, built
 * through the API). Opens it with its plan, reports the time to first render, draw calls, JS heap and
 * what the level of detail drew, then checks the editor still works at that size: a far rack is picked
 * on the floor by clicks (against the instanced rack boxes: its row, then the rack), moved one rack along its row with the
 * keyboard, and the move reaches the API. Correctness is asserted, timings are only printed
 * (`BENCH_CAMPUS {...}`, artifacts/bench-campus.json). Long: `make bench`, not `make test`.
 */
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";
import { buildBigHall, CAMPUS_HALL, CAMPUS_HALL_CABLES, CAMPUS_HALL_RACKS, findBigHall } from "./bigHall";

interface RackRec {
  id: string;
  typeName: string;
  name: string;
  rowId: string;
  positionMm: number;
}

test("10,000 racks, 500,000 cables: opens, a far rack is picked and moved", async ({ page }) => {
  test.setTimeout(60 * 60_000);
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const hall = (await findBigHall(api, CAMPUS_HALL)) ?? (await buildBigHall(api, CAMPUS_HALL));
  expect(hall.planCables).toBe(CAMPUS_HALL_CABLES);

  await page.goto(`/?project=${hall.projectId}&hall=${hall.hallId}&plan=${hall.planId}`);
  await page.waitForFunction((n) => window.__loopline?.stats.cables === n && window.__loopline.stats.firstRenderMs != null, CAMPUS_HALL_CABLES, {
    timeout: 30 * 60_000,
  });
  await page.waitForFunction(() => Boolean((window.__loopline as unknown as { controls?: unknown }).controls));
  await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
  const opened = await page.evaluate(() => {
    const h = window.__loopline!;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    const s = h.stats as unknown as Record<string, number | string | null>;
    return {
      first_render_ms: Math.round((h.stats.firstRenderMs ?? 0) - (nav?.startTime ?? 0)),
      first_hall_render_ms: Math.round((h.stats.firstHallRenderMs ?? 0) - (nav?.startTime ?? 0)),
      racks: h.stats.racks,
      cables: h.stats.cables,
      draw_calls: h.render()?.calls,
      lod: { device_racks: s.deviceRacks, devices: s.devices, cable_lod: s.cableLod, cable_lines_drawn: s.cableLinesDrawn },
    };
  });
  expect(opened.racks).toBe(CAMPUS_HALL_RACKS + 1); // and the network rack
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await cdp.detach();

  // The last rack of the middle row R50, far from the camera that frames the whole hall: click the
  // middle of its top face (visible from above whatever stands around it).
  const recs = await page.evaluate(() => Object.values(window.__loopline!.store.records) as unknown as RackRec[]);
  const row = recs.find((r) => r.typeName === "row" && r.name === "R50")!;
  const rack = recs.filter((r) => r.typeName === "rack" && r.rowId === row.id).sort((a, b) => b.positionMm - a.positionMm)[0]!;
  const rackApi = async () => {
    const res = await api.get(`/api/v1/halls/${hall.hallId}/layout`);
    expect(res.status()).toBe(200);
    const layout = (await res.json()) as { rows: { name: string; racks: { name: string; position_m: number }[] }[] };
    return layout.rows.find((r) => r.name === "R50")!.racks.find((r) => r.name === rack.name)!;
  };
  const before = await rackApi();
  // Where the scene drew it: its instance in the rack boxes (the one InstancedMesh with an instance per
  // rack, in the records' order), top centre in page pixels.
  const px = await page.evaluate((id) => {
    const h = window.__loopline as unknown as {
      scene: { traverse: (f: (o: unknown) => void) => void };
      store: { records: Record<string, RackRec> };
      project: (xMm: number, yMm: number, zMm?: number) => { x: number; y: number };
    };
    const racks = Object.values(h.store.records).filter((r) => r.typeName === "rack");
    let matrices: Float32Array | null = null;
    h.scene.traverse((o) => {
      const m = o as { isInstancedMesh?: boolean; count: number; instanceMatrix: { array: Float32Array } };
      if (m.isInstancedMesh && m.count === racks.length) matrices = m.instanceMatrix.array;
    });
    if (!matrices) throw new Error("no instanced mesh with one instance per rack");
    const i = racks.findIndex((r) => r.id === id);
    const e = (matrices as Float32Array).subarray(i * 16, i * 16 + 16);
    // Column-major: translation in 12..14, the height (y scale, no rotation) in 5.
    return h.project(e[12]! * 1000, e[14]! * 1000, e[5]! * 1000);
  }, rack.id);
  // A click on a rack selects its row first, the rack itself with a second click (tools/tools.ts).
  const selection = () => page.evaluate(() => window.__loopline!.session.getState().selection);
  await page.mouse.click(px.x, px.y);
  await expect.poll(selection).toEqual([row.id]);
  await page.mouse.click(px.x, px.y);
  await expect.poll(selection).toEqual([rack.id]);

  // One rack width along the row (the last rack: the place is free), then saved.
  await page.keyboard.press("ArrowRight");
  await expect
    .poll(() => page.evaluate((id) => (window.__loopline!.store.records as unknown as Record<string, RackRec>)[id]!.positionMm, rack.id))
    .toBe(rack.positionMm + 600);
  const written = await page.evaluate(() => (window.__loopline!.stats as unknown as { rackInstancesWritten: number }).rackInstancesWritten);
  await page.evaluate(() => (window.__loopline!.sync as { idle: () => Promise<void> }).idle());
  expect((await rackApi()).position_m).toBeCloseTo(before.position_m + 0.6, 6);

  const report = { ...opened, js_heap_mb: Math.round(heap.usedSize / 1e5) / 10, rack_instances_written_by_the_move: written, setup: { layout_api_s: hall.layoutApiS, plan_api_s: hall.planApiS } };
  console.log(`BENCH_CAMPUS ${JSON.stringify(report)}`);
  writeFileSync(`${ARTIFACTS}/bench-campus.json`, JSON.stringify(report, null, 2));
  await page.screenshot({ path: `${ARTIFACTS}/bench-campus.png` });
});
