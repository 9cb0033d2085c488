/**
 * Issue 33's two edit measurements a planner feels, on the demo hall and on the 2,000-rack /
 * 104,000-cable hall of bigHall.ts (built once per stack, shared with hall.bench.ts):
 *
 * - Row duplicate: a row selected with a click on one of its racks (tools/tools.ts: the first click
 *   selects the row), then Ctrl+D ("Duplicate row at next aisle", commands/registry.ts), undone with
 *   Ctrl+Z between runs. Timed in the page from the keydown event (`event.timeStamp`) to the first
 *   animation frame after the scene drew the new racks: the moment `window.__loopline.stats.racks`
 *   (written by the scene's Devices layout effect in the commit that also sets the rack InstancedMesh's
 *   count) shows the copy's racks is noted with the renderer's frame counter (`render().frame`), and the
 *   clock stops at the first animation frame after that counter moved (the frame with the new racks
 *   was drawn and handed to the compositor).
 * - Plan switch: two plans of the hall, single-homed with p = 2 (the hall's cabled ports) and p = 1 (half
 *   the cables, so the two are told apart by `stats.cables`, which Cables.tsx writes when a plan's
 *   buffers are committed, after their geometry, whole or bundled per scene/lod.ts, was built). A click
 *   on the other plan in the Plans tab (`plan-view-<id>`), timed from the click event to the first
 *   animation frame after the renderer drew a frame with the other plan's cable count; alternating
 *   both ways. The render buffers are fetched on every switch (only the plan on screen is cached).
 *
 * `LOOPLINE_EDIT_RUNS` runs of each (default and least 5: duplicates, and switches each way). JS heap:
 * sampled every animation frame during each run (precise memory info), the peak printed. A switch also
 * gives when the render buffers' response ended (resource timing), which splits the API and the network
 * from the page's own work. `LOOPLINE_EDIT_PROFILE=1` adds a CPU profile of one more duplicate
 * (artifacts/edits-duplicate-<row>.cpuprofile) and its functions with the most self time. Prints `BENCH_EDITS {...}` per hall and writes artifacts/bench-edits-<hall>.json.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";
import { BIG_HALL_CABLES, BIG_HALL_RACKS, buildBigHall, findBigHall } from "./bigHall";
import { median } from "./orbit";

const RUNS = Math.max(5, Number(process.env.LOOPLINE_EDIT_RUNS ?? 5));
const PROFILE = process.env.LOOPLINE_EDIT_PROFILE === "1";

// The suite's browser, with exact heap sizes (performance.memory is bucketed otherwise).
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-background-networking",
      "--no-first-run",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--enable-precise-memory-info",
    ],
  },
});

interface Rec {
  id: string;
  typeName: string;
  name: string;
  rowId?: string;
  role?: string;
  positionMm?: number;
}

interface Timed {
  /** Input event to the first animation frame after the drawing frame. */
  ms: number;
  /** Input event to the first animation frame whose callbacks saw the change committed to the scene. */
  commit_ms: number;
  heap_peak_mb: number;
  heap_before_mb: number;
  /** The plan's render buffers' request (GET /wiring-plans/{id}/render), from the input event: start and response end. */
  render_fetch: { start_ms: number; end_ms: number; mb: number } | null;
}

interface Plan {
  id: number;
  name: string;
  summary: { cables: number };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function summary(runs: Timed[]): Record<string, unknown> {
  const ms = runs.map((r) => r.ms);
  const fetched = runs.flatMap((r) => (r.render_fetch ? [r.render_fetch.end_ms] : []));
  return {
    runs: runs.length,
    median_ms: round1(median(ms)),
    min_ms: round1(Math.min(...ms)),
    max_ms: round1(Math.max(...ms)),
    commit_median_ms: round1(median(runs.map((r) => r.commit_ms))),
    ...(fetched.length ? { render_fetch_end_median_ms: round1(median(fetched)) } : {}),
    js_heap_peak_mb: round1(Math.max(...runs.map((r) => r.heap_peak_mb))),
    js_heap_before_mb: round1(median(runs.map((r) => r.heap_before_mb))),
    all_ms: ms.map(round1),
  };
}

/**
 * Arms the page: on the next `kind` input event (capture phase on window) the clock starts; every
 * animation frame samples the heap, and the run ends one animation frame after the renderer drew a
 * frame in which `stat` equalled `want`. The result is read with `finish`.
 */
async function arm(page: Page, kind: "keydown" | "click", stat: "racks" | "cables", want: number): Promise<void> {
  await page.evaluate(
    ({ kind, stat, want }) => {
      const heap = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
      const h = window.__loopline!;
      const before = heap();
      let peak = before;
      const w = window as unknown as { __benchEdit: Promise<unknown> };
      w.__benchEdit = new Promise((resolve) => {
        let t0 = 0;
        let seenAt = -1;
        let drawnFrame = -1;
        const tick = () => {
          peak = Math.max(peak, heap());
          const frame = h.render()?.frame ?? 0;
          if (seenAt < 0 && h.stats[stat] === want) {
            seenAt = performance.now();
            drawnFrame = frame;
          } else if (seenAt >= 0 && frame > drawnFrame) {
            const mb = (b: number) => b / 2 ** 20;
            const render = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).find(
              (e) => e.startTime >= t0 && /\/wiring-plans\/\d+\/render/.test(e.name),
            );
            return resolve({
              ms: performance.now() - t0,
              commit_ms: seenAt - t0,
              heap_peak_mb: mb(peak),
              heap_before_mb: mb(before),
              render_fetch: render
                ? {
                    start_ms: render.startTime - t0,
                    end_ms: render.responseEnd - t0,
                    mb: render.encodedBodySize / 2 ** 20,
                  }
                : null,
            });
          }
          requestAnimationFrame(tick);
        };
        const start = (e: Event) => {
          window.removeEventListener(kind, start, true);
          t0 = e.timeStamp;
          requestAnimationFrame(tick);
        };
        window.addEventListener(kind, start, true);
      });
    },
    { kind, stat, want },
  );
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** A CPU profile of the page while `act` runs (artifacts/edits-<name>.cpuprofile); the functions with the most self time. */
async function profiled(
  page: Page,
  name: string,
  act: () => Promise<unknown>,
): Promise<{ fn: string; self_ms: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await act();
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  await cdp.detach();
  writeFileSync(`${ARTIFACTS}/edits-${name}.cpuprofile`, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop() ?? ""}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 20)
    .map(([fn, ms]) => ({ fn, self_ms: Math.round(ms) }));
}

const finish = (page: Page) => page.evaluate(() => (window as unknown as { __benchEdit: Promise<Timed> }).__benchEdit);
const idle = (page: Page) => page.evaluate(() => (window.__loopline!.sync as { idle: () => Promise<void> }).idle());

async function open(page: Page, projectId: number, hallId: number, planId: number, cables: number): Promise<void> {
  await page.goto(`/?project=${projectId}&hall=${hallId}&plan=${planId}`);
  await page.waitForFunction(
    (n) => window.__loopline?.stats.cables === n && window.__loopline.stats.firstRenderMs != null,
    cables,
    {
      timeout: 300_000,
    },
  );
  await page.waitForFunction(() => Boolean((window.__loopline as unknown as { controls?: unknown }).controls));
  await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
}

/** The row named `rowName` selected with a click on the top of its first rack, duplicated RUNS times (undone each time). */
async function rowDuplicates(
  page: Page,
  api: APIRequestContext,
  hallId: number,
  rowName: string,
): Promise<Record<string, unknown>> {
  const recs = await page.evaluate(() => Object.values(window.__loopline!.store.records) as unknown as Rec[]);
  const row = recs.find((r) => r.typeName === "row" && r.name === rowName)!;
  expect(row, `row ${rowName}`).toBeTruthy();
  const copied = recs.filter((r) => r.typeName === "rack" && r.rowId === row.id && r.role === "compute").length;
  const rack = recs
    .filter((r) => r.typeName === "rack" && r.rowId === row.id)
    .sort((a, b) => a.positionMm! - b.positionMm!)[0]!;
  const racksBefore = await page.evaluate(() => window.__loopline!.stats.racks);
  const rowsApi = async () =>
    ((await (await api.get(`/api/v1/halls/${hallId}/layout`)).json()) as { rows: unknown[] }).rows.length;
  const rowsBefore = await rowsApi();
  // Where the scene drew the rack (its instance in the one rack InstancedMesh, records' order): top centre.
  const px = await page.evaluate((id) => {
    const h = window.__loopline as unknown as {
      scene: { traverse: (f: (o: unknown) => void) => void };
      store: { records: Record<string, Rec> };
      project: (xMm: number, yMm: number, zMm?: number) => { x: number; y: number };
    };
    const racks = Object.values(h.store.records).filter((r) => r.typeName === "rack");
    let matrices: Float32Array | null = null;
    h.scene.traverse((o) => {
      const m = o as { isInstancedMesh?: boolean; count: number; instanceMatrix: { array: Float32Array } };
      if (m.isInstancedMesh && m.count === racks.length) matrices = m.instanceMatrix.array;
    });
    if (!matrices) throw new Error("no instanced mesh with one instance per rack");
    const e = (matrices as Float32Array).subarray(racks.findIndex((r) => r.id === id) * 16);
    return h.project(e[12]! * 1000, e[14]! * 1000, e[5]! * 1000);
  }, rack.id);
  await page.mouse.click(px.x, px.y);
  const selection = () => page.evaluate(() => window.__loopline!.session.getState().selection);
  await expect.poll(selection).toEqual([row.id]);

  const duplicate = async (): Promise<Timed> => {
    await arm(page, "keydown", "racks", racksBefore + copied);
    await page.keyboard.press("Control+d");
    return finish(page);
  };
  const undo = async () => {
    await idle(page);
    // Undo (the copy deleted through the API), the original row selected again.
    await page.keyboard.press("Control+z");
    await page.waitForFunction((n) => window.__loopline!.stats.racks === n, racksBefore);
    await idle(page);
    await expect.poll(selection).toEqual([row.id]);
  };
  const runs: Timed[] = [];
  const written: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await duplicate());
    written.push(
      await page.evaluate(
        () => (window.__loopline!.stats as unknown as { rackInstancesWritten: number }).rackInstancesWritten,
      ),
    );
    if (i === 0) {
      await idle(page);
      expect(await rowsApi(), "the copy was saved").toBe(rowsBefore + 1);
    }
    await undo();
  }
  // LOOPLINE_EDIT_PROFILE=1: one more duplicate (not in the figures) under the CPU profiler.
  const profile = PROFILE ? await profiled(page, `duplicate-${rowName}`, duplicate) : undefined;
  if (PROFILE) await undo();
  expect(await rowsApi(), "every copy undone").toBe(rowsBefore);
  return {
    row: rowName,
    racks_copied: copied,
    rack_instances_written: written,
    ...summary(runs),
    profile_top_self: profile,
  };
}

/** 2 x RUNS clicks in the Plans tab, alternating between the two plans (the first click leaves `from`). */
async function planSwitches(page: Page, from: Plan, to: Plan): Promise<Record<string, unknown>> {
  expect(from.summary.cables).not.toBe(to.summary.cables);
  await page.getByRole("tab", { name: "Plans" }).click();
  await expect(page.getByTestId(`plan-view-${to.id}`)).toBeVisible({ timeout: 60_000 });
  const there: Timed[] = [];
  const back: Timed[] = [];
  for (let i = 0; i < 2 * RUNS; i++) {
    const target = i % 2 === 0 ? to : from;
    await arm(page, "click", "cables", target.summary.cables);
    await page.getByTestId(`plan-view-${target.id}`).click();
    (i % 2 === 0 ? there : back).push(await finish(page));
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  }
  const lod = await page.evaluate(() => {
    const s = window.__loopline!.stats as unknown as Record<string, unknown>;
    return { cable_lod: s.cableLod, cable_lines_drawn: s.cableLinesDrawn };
  });
  return {
    [`to_${to.summary.cables}_cables`]: summary(there),
    [`to_${from.summary.cables}_cables`]: summary(back),
    both: summary([...there, ...back]),
    lod_after_last: lod,
  };
}

/** The hall's plan named `name` (single-homed, `ports` per server), generated when missing. */
async function plan(
  api: APIRequestContext,
  projectId: number,
  hallId: number,
  name: string,
  ports: number | null,
): Promise<Plan> {
  const plans = (await (await api.get(`/api/v1/projects/${projectId}/wiring-plans?hall_id=${hallId}&limit=100`)).json())
    .items as Plan[];
  const found = plans.find((p) => p.name === name);
  if (found) return found;
  const res = await api.post(`/api/v1/halls/${hallId}/wiring-plans`, {
    data: { name, pattern: "single-homed", ports },
    timeout: 900_000,
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Plan;
}

async function renderer(page: Page): Promise<string> {
  return page.evaluate(() => {
    const gl = (
      window.__loopline as unknown as { renderer: { getContext: () => WebGLRenderingContext } }
    ).renderer.getContext();
    const ext = gl.getExtension("WEBGL_debug_renderer_info");
    return ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : String(gl.getParameter(gl.RENDERER));
  });
}

function print(hall: string, report: Record<string, unknown>): void {
  console.log(`BENCH_EDITS ${JSON.stringify({ hall, ...report })}`);
  writeFileSync(`${ARTIFACTS}/bench-edits-${hall}.json`, JSON.stringify({ hall, ...report }, null, 2));
}

test("demo hall: row duplicate and plan switch to frame", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const project = (
    (await (await api.get("/api/v1/projects?limit=100")).json()).items as { id: number; name: string }[]
  ).find((p) => p.name === "Demo hall")!;
  expect(project, "the seeded demo project").toBeTruthy();
  const hall = ((await (await api.get(`/api/v1/projects/${project.id}/halls`)).json()).items as { id: number }[])[0]!;
  const p2 = await plan(api, project.id, hall.id, "bench edits single-homed p=2", null);
  const p1 = await plan(api, project.id, hall.id, "bench edits single-homed p=1", 1);
  await open(page, project.id, hall.id, p2.id, p2.summary.cables);
  // The last of the demo's four rows: its copy goes to the free floor beyond it.
  const duplicate = await rowDuplicates(page, api, hall.id, "R04");
  const switches = await planSwitches(page, p2, p1);
  print("demo", {
    racks: await page.evaluate(() => window.__loopline!.stats.racks),
    cables: [p2.summary.cables, p1.summary.cables],
    renderer: await renderer(page),
    row_duplicate: duplicate,
    plan_switch: switches,
  });
});

test("2,000-rack hall: row duplicate and plan switch to frame", async ({ page }) => {
  test.setTimeout(40 * 60_000);
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const big = (await findBigHall(api)) ?? (await buildBigHall(api));
  expect(big.planCables).toBe(BIG_HALL_CABLES);
  const p2 = { id: big.planId, name: "bench single-homed", summary: { cables: big.planCables } };
  const p1 = await plan(api, big.projectId, big.hallId, "bench edits single-homed p=1", 1);
  expect(p1.summary.cables).toBe(BIG_HALL_CABLES / 2);
  await open(page, big.projectId, big.hallId, p2.id, p2.summary.cables);
  expect(await page.evaluate(() => window.__loopline!.stats.racks)).toBe(BIG_HALL_RACKS + 1);
  // The last of the 40 rows (50 racks): its copy goes to the free floor beyond it.
  const duplicate = await rowDuplicates(page, api, big.hallId, "R40");
  const switches = await planSwitches(page, p2, p1);
  print("2000-racks", {
    racks: BIG_HALL_RACKS + 1,
    cables: [p2.summary.cables, p1.summary.cables],
    renderer: await renderer(page),
    row_duplicate: duplicate,
    plan_switch: switches,
  });
});
