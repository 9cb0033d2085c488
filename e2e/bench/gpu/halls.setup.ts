/**
 * The halls the GPU benchmark (gpubench.py) records, built through the API the way the editor's own
 * benchmarks build them (bigHall.ts), or found when a benchmark already built them on this stack:
 * the 2,000-rack hall with its 104,000-cable plan and the p = 1 plan edits.bench.ts switches to, and the
 * 10,000-rack / 500,000-cable campus hall. Writes their ids to LOOPLINE_GPU_HALLS (a JSON file).
 *
 *   cd e2e && LOOPLINE_E2E_URL=... LOOPLINE_GPU_HALLS=/abs/halls.json npx playwright test -c bench/gpu/playwright.gpu.config.ts
 */
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { DEMO } from "../../tests/helpers";
import { BIG_HALL_CABLES, BIG_HALL_RACKS, buildBigHall, CAMPUS_HALL, CAMPUS_HALL_CABLES, CAMPUS_HALL_RACKS, findBigHall } from "../bigHall";

// The second plan of the 2,000-rack hall, named as edits.bench.ts names it so either reuses the other's.
const P1_PLAN = "bench edits single-homed p=1";

test("the GPU benchmark's halls", async ({ page }) => {
  const out = process.env.LOOPLINE_GPU_HALLS;
  expect(out, "LOOPLINE_GPU_HALLS: where to write the halls' ids").toBeTruthy();
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const big = (await findBigHall(api)) ?? (await buildBigHall(api));
  expect(big.planCables).toBe(BIG_HALL_CABLES);
  const plans = (await (await api.get(`/api/v1/projects/${big.projectId}/wiring-plans?hall_id=${big.hallId}&limit=100`)).json()).items as {
    id: number;
    name: string;
    summary: { cables: number };
  }[];
  let p1 = plans.find((p) => p.name === P1_PLAN);
  if (!p1) {
    const res = await api.post(`/api/v1/halls/${big.hallId}/wiring-plans`, { data: { name: P1_PLAN, pattern: "single-homed", ports: 1 }, timeout: 900_000 });
    expect(res.status(), await res.text()).toBe(201);
    p1 = await res.json();
  }
  expect(p1!.summary.cables).toBe(BIG_HALL_CABLES / 2);
  const campus = (await findBigHall(api, CAMPUS_HALL)) ?? (await buildBigHall(api, CAMPUS_HALL));
  expect(campus.planCables).toBe(CAMPUS_HALL_CABLES);
  const halls = {
    login: DEMO,
    big: { ...big, racks: BIG_HALL_RACKS + 1, p1PlanId: p1!.id, p1Cables: p1!.summary.cables },
    campus: { ...campus, racks: CAMPUS_HALL_RACKS + 1 },
  };
  writeFileSync(out!, JSON.stringify(halls, null, 2));
  console.log(`GPU_HALLS ${JSON.stringify(halls)}`);
});
