/**
 * Loads a 2,000-rack hall with ~100,000 cables and reports the time to first render and the draw
 * calls (`renderer.info.render.calls`). Targets: under 3 s and at most 50 draw calls.
 *
 * Setup through the API (not timed in the result): a project whose ToRs have no fabric uplinks (so the
 * plan is the server cables), a 100 x 100 m hall with 40 rows of 50 racks (20 facing pairs), each rack
 * 2 logical racks of 13 servers with p = 2, one network rack with a spine; a single-homed plan:
 * 2,000 x 2 x 13 x 2 = 104,000 cables.
 * Writes artifacts/bench.json and artifacts/bench-hall.png.
 */
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";

test("2,000 racks, 100,000 cables: time to first render and draw calls", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const t0 = Date.now();
  const project = await (
    await api.post("/api/v1/projects", {
      data: { name: `bench ${new Date().toISOString()}`, fabric: { fabric_type: "leaf_spine", tor_uplinks: 0, spines: 1 } },
    })
  ).json();
  expect(project.id, JSON.stringify(project)).toBeTruthy();
  const hallRes = await api.post(`/api/v1/projects/${project.id}/halls`, { data: { name: "BH", width_m: 100, depth_m: 100 } });
  expect(hallRes.status(), await hallRes.text()).toBe(201);
  const hall = await hallRes.json();
  const items = async (kind: string) => (await (await api.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const [servers, switches, racks] = [await items("server-models"), await items("switch-models"), await items("rack-types")];
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const lr = { servers: 13, server_model_id: id(servers, "2x25G server"), ports_used: 2, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const template = { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr, lr] };
  const rows = Array.from({ length: 40 }, (_, i) => ({
    name: `R${String(i + 1).padStart(2, "0")}`,
    x_m: 2,
    // Facing pairs across 1.2 m cold aisles, 1.2 m hot aisles between pairs.
    y_m: 2 + i * 2.4,
    direction: 0,
    front: i % 2 === 0 ? "left" : "right",
    rack_count: 50,
    rack_template: template,
  }));
  rows.push({
    name: "N01",
    x_m: 40,
    y_m: 2,
    direction: 0,
    front: "left",
    racks: [{ name: "N01-01", role: "network", rack_type_id: template.rack_type_id, fabric_switches: [{ name: "SP1", role: "spine", switch_model_id: id(switches, "64x100G spine"), u: 20 }] }],
  } as unknown as (typeof rows)[number]);
  const bulk = await api.post(`/api/v1/halls/${hall.id}/rows/bulk`, { data: { rows }, timeout: 300_000 });
  expect(bulk.status(), await bulk.text()).toBe(201);
  const tLayout = Date.now();
  const planRes = await api.post(`/api/v1/halls/${hall.id}/wiring-plans`, { data: { name: "bench single-homed", pattern: "single-homed" }, timeout: 900_000 });
  expect(planRes.status(), await planRes.text()).toBe(201);
  const plan = await planRes.json();
  const tPlan = Date.now();

  // Timed: open the editor on that hall and plan (session cookie already set).
  await page.goto(`/?project=${project.id}&hall=${hall.id}&plan=${plan.id}`);
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
  const editMs = await page.evaluate(async () => {
    const h = window.__loopline!;
    const row = Object.values(h.store.records).find((r) => r.typeName === "row")!;
    (h.session as unknown as { setState: (p: object) => void }).setState({ selection: [row.id] });
    const t = performance.now();
    window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t;
  });
  const report = {
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
    edit_to_frame_ms: Math.round(editMs),
    // A redraw with nothing changed: the GPU (here SwiftShader, software) share of the edit.
    redraw_frame_ms: Math.round(frameMs),
    setup: { layout_api_s: (tLayout - t0) / 1000, plan_generation_api_s: (tPlan - tLayout) / 1000, plan_cables: plan.summary.cables },
    targets: { time_to_first_render_ms: 3000, draw_calls: 50 },
  };
  console.log(`BENCH ${JSON.stringify(report)}`);
  writeFileSync(`${ARTIFACTS}/bench.json`, JSON.stringify(report, null, 2));
  await page.screenshot({ path: `${ARTIFACTS}/bench-hall.png` });
  expect(result.stats.cables).toBe(plan.summary.cables);
  await (page.evaluate(() => (window.__loopline!.sync as { idle: () => Promise<void> }).idle()));
});
