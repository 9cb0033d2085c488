/**
 * Orbit frame times (issue 24 item 13): the camera turned around the hall, each frame timed (orbit.ts),
 * median and p90 per run and the median of the runs, on
 * - the demo hall (48 racks) with a single-homed plan: 3,264 cables;
 * - the big hall of bigHall.ts (2,000 racks, 104,000 cables), reused when one was built on this stack.
 * `LOOPLINE_ORBIT_RUNS` runs of each (default 5), programmatic orbits then real left-drags (40 frames
 * and 60 mouse moves a run on the demo hall, 20 and 30 on the big hall). Besides the wall-clock frame
 * times, each run reports the browser's CPU time per frame, steadier on a shared machine.
 * `LOOPLINE_ORBIT_PROFILE=1` also records a CPU profile of the main thread during one more orbit
 * (artifacts/orbit-<hall>.cpuprofile, open it in Chrome DevTools) and prints the functions with the
 * most self time.
 * Prints `BENCH_ORBIT {...}` per hall and writes artifacts/bench-orbit-<hall>.json.
 */
import { expect, test, type Page } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";
import { BIG_HALL_CABLES, buildBigHall, findBigHall } from "./bigHall";
import { drag, orbit, summarise, type FrameStats } from "./orbit";

const RUNS = Number(process.env.LOOPLINE_ORBIT_RUNS ?? 5);
const PROFILE = process.env.LOOPLINE_ORBIT_PROFILE === "1";
const DEMO_CABLES = 3264;

async function openPlan(page: Page, projectId: number, hallId: number, planId: number, cables: number): Promise<void> {
  await page.goto(`/?project=${projectId}&hall=${hallId}&plan=${planId}`);
  await page.waitForFunction((n) => window.__loopline?.stats.cables === n && window.__loopline.stats.firstRenderMs != null, cables, {
    timeout: 300_000,
  });
  await page.waitForFunction(() => Boolean((window.__loopline as unknown as { controls?: unknown }).controls));
  // Let the first frames and the labels settle.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}

/** A CPU profile of one more orbit; the functions with the most self time, in ms. */
async function profileOrbit(page: Page, name: string): Promise<{ fn: string; self_ms: number }[]> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  await orbit(page, { minSeconds: 4, minFrames: 20 });
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  writeFileSync(`${ARTIFACTS}/orbit-${name}.cpuprofile`, JSON.stringify(profile));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop() ?? ""}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  await cdp.detach();
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([fn, ms]) => ({ fn, self_ms: Math.round(ms) }));
}

/** Frames per orbit run and mouse moves per drag: fewer on the big hall, whose frames took seconds. */
async function measure(page: Page, name: string, extra: Record<string, unknown>, minFrames = 40, dragSteps = 60): Promise<void> {
  const orbits: FrameStats[] = [];
  for (let i = 0; i < RUNS; i++) orbits.push(await orbit(page, { minFrames }));
  const box = (await page.locator("canvas").first().boundingBox())!;
  const drags: FrameStats[] = [];
  // From the sky above the hall (no rack under the pointer: the select tool leaves the drag to the camera).
  for (let i = 0; i < RUNS; i++) drags.push(await drag(page, { x: box.x + box.width * 0.3, y: box.y + box.height * 0.08 }, box.x + box.width * 0.7, dragSteps));
  const report = {
    hall: name,
    build: process.env.LOOPLINE_BENCH_BUILD ?? "current",
    ...extra,
    draw_calls: await page.evaluate(() => window.__loopline!.render()?.calls),
    canvas_px: [Math.round(box.width), Math.round(box.height)],
    runs: RUNS,
    orbit: summarise(orbits),
    drag: summarise(drags),
    profile_top_self: PROFILE ? await profileOrbit(page, name) : undefined,
  };
  console.log(`BENCH_ORBIT ${JSON.stringify(report)}`);
  writeFileSync(`${ARTIFACTS}/bench-orbit-${name}.json`, JSON.stringify(report, null, 2));
  await page.screenshot({ path: `${ARTIFACTS}/bench-orbit-${name}.png` });
}

test("orbit the demo hall (3,264 cables): frame times", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const project = ((await (await api.get("/api/v1/projects?limit=100")).json()).items as { id: number; name: string }[]).find(
    (p) => p.name === "Demo hall",
  )!;
  expect(project, "the seeded demo project").toBeTruthy();
  const hall = ((await (await api.get(`/api/v1/projects/${project.id}/halls`)).json()).items as { id: number }[])[0]!;
  const plans = (await (await api.get(`/api/v1/projects/${project.id}/wiring-plans?hall_id=${hall.id}`)).json()).items as {
    id: number;
    name: string;
    summary: { cables: number };
  }[];
  let plan = plans.find((p) => p.name === "bench orbit single-homed");
  if (!plan) {
    const res = await api.post(`/api/v1/halls/${hall.id}/wiring-plans`, { data: { name: "bench orbit single-homed", pattern: "single-homed" } });
    expect(res.status(), await res.text()).toBe(201);
    plan = await res.json();
  }
  expect(plan!.summary.cables).toBe(DEMO_CABLES);
  await openPlan(page, project.id, hall.id, plan!.id, DEMO_CABLES);
  await measure(page, "demo", { racks: await page.evaluate(() => window.__loopline!.stats.racks), cables: DEMO_CABLES });
});

test("orbit the 2,000-rack hall (104,000 cables): frame times", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const big = (await findBigHall(api)) ?? (await buildBigHall(api));
  expect(big.planCables).toBe(BIG_HALL_CABLES);
  await openPlan(page, big.projectId, big.hallId, big.planId, BIG_HALL_CABLES);
  await measure(page, "2000-racks", { racks: await page.evaluate(() => window.__loopline!.stats.racks), cables: BIG_HALL_CABLES }, 20, 30);
});
