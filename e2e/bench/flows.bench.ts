/**
 * The time for the browser to draw a result with 100,000 flows: from the click that opens the result
 * view to the frame where the flow-completion CDF is drawn from all 100,000 completion times and the
 * first page of the per-flow table is in place. Median of RUNS openings, each with the browser's JS
 * heap peak over the opening (precise memory info). Prints `BENCH_FLOWS {...}` and writes
 * artifacts/bench-flows.json.
 *
 * Setup (not timed): a paired-row plan of the demo hall and 100,000 web-search flows (Poisson, 40% load)
 * on it, submitted through the API; a real worker runs the engine with per-flow records and stores
 * them (`setup` in the report: submit to succeeded).
 */
import { expect, test } from "@playwright/test";
import { writeFileSync } from "node:fs";
import { ARTIFACTS, DEMO } from "../tests/helpers";

const FLOWS = 100_000;
const RUNS = 5;

// the suite's browser, with exact heap sizes (performance.memory is bucketed otherwise)
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--no-first-run", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--enable-precise-memory-info"],
  },
});

interface Run {
  ms: number;
  heap_peak_mb: number;
  heap_before_mb: number;
  fetches: { url: string; start: number; end: number; bytes: number }[];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

test("a result with 100,000 flows: time to the CDF and the flows table, JS heap peak", async ({ page }) => {
  const api = page.request;
  expect((await api.post("/api/v1/auth/login", { data: DEMO })).status()).toBe(200);
  const project = (await (await api.get("/api/v1/projects?limit=100")).json()).items[0];
  const hall = (await (await api.get(`/api/v1/projects/${project.id}/halls`)).json()).items[0];
  const planRes = await api.post(`/api/v1/halls/${hall.id}/wiring-plans`, { data: { name: "bench flows", pattern: "paired-row" }, timeout: 300_000 });
  expect(planRes.status(), await planRes.text()).toBe(201);
  const plan = await planRes.json();
  const t0 = Date.now();
  const workload = { type: "poisson", cdf: "websearch", load: 0.4, flows: FLOWS };
  const submitted = await api.post(`/api/v1/wiring-plans/${plan.id}/simulations`, { data: { name: "bench 100,000 web-search flows", workload } });
  expect(submitted.status(), await submitted.text()).toBe(202);
  const id = (await submitted.json()).id as number;
  let job: { status: string; flow_records: number | null; started_at: string; finished_at: string; result: { flows: { finished: number; total: number } } | null } | null = null;
  await expect
    .poll(async () => (job = await (await api.get(`/api/v1/simulations/${id}`)).json()).status, { timeout: 600_000, intervals: [500] })
    .toBe("succeeded");
  const runS = (Date.now() - t0) / 1000;
  const done = job!;
  expect(done.flow_records).toBe(FLOWS);
  const finished = done.result!.flows.finished;

  await page.goto(`/?project=${project.id}&hall=${hall.id}`);
  await page.getByRole("tab", { name: "Plans" }).click();
  const open = page.getByTestId(`sim-open-${id}`);
  await expect(open).toBeVisible({ timeout: 60_000 });

  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    // In the page: note the time and heap, click, and sample the heap every frame until the CDF (all
    // finished flows) and the table's first page are drawn.
    const run = await page.evaluate(
      ({ id, finished }) =>
        new Promise<Run>((resolve) => {
          const heap = () => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
          const before = heap();
          let peak = before;
          const t = performance.now();
          (document.querySelector(`[data-testid="sim-open-${id}"]`) as HTMLElement).click();
          const tick = () => {
            peak = Math.max(peak, heap());
            const chart = document.querySelector('[data-testid="chart-fct-cdf"]');
            const drawn =
              chart?.getAttribute("data-points") === String(finished) &&
              chart.querySelector("canvas") !== null &&
              document.querySelectorAll('[data-testid="flow-row"]').length === 50;
            if (drawn) {
              // where the time went: each request of this opening, start and end from the click
              const fetches = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
                .filter((e) => e.startTime >= t && e.name.includes("/api/"))
                .map((e) => ({ url: new URL(e.name).pathname.replace(/^\/api\/v1/, "") + new URL(e.name).search, start: Math.round(e.startTime - t), end: Math.round(e.responseEnd - t), bytes: e.encodedBodySize }));
              resolve({ ms: performance.now() - t, heap_peak_mb: peak / 2 ** 20, heap_before_mb: before / 2 ** 20, fetches });
            }
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
      { id, finished },
    );
    runs.push(run);
    if (i === 0) await page.screenshot({ path: `${ARTIFACTS}/bench-flows.png` });
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("sim-result")).toBeHidden();
  }
  const cdfBytes = (await (await api.get(`/api/v1/simulations/${id}/results/flows/cdf`)).body()).length;
  const report = {
    flows: FLOWS,
    finished_flows: finished,
    runs: RUNS,
    open_to_cdf_and_table_ms: { median: Math.round(median(runs.map((r) => r.ms))), each: runs.map((r) => Math.round(r.ms)) },
    js_heap_peak_mb: { median: Math.round(median(runs.map((r) => r.heap_peak_mb))), max: Math.round(Math.max(...runs.map((r) => r.heap_peak_mb))) },
    js_heap_before_open_mb: Math.round(median(runs.map((r) => r.heap_before_mb))),
    cdf_payload_bytes: cdfBytes,
    // the browser's own share: from the last response of an opening to its CDF and table drawn
    drawn_after_last_response_ms: {
      median: Math.round(median(runs.map((r) => r.ms - Math.max(0, ...r.fetches.map((f) => f.end))))),
    },
    requests_of_the_median_run: [...runs].sort((a, b) => a.ms - b.ms)[Math.floor(RUNS / 2)]?.fetches,
    setup: { submit_to_succeeded_s: runS, worker_s: (Date.parse(done.finished_at) - Date.parse(done.started_at)) / 1000 },
  };
  console.log(`BENCH_FLOWS ${JSON.stringify(report)}`);
  writeFileSync(`${ARTIFACTS}/bench-flows.json`, JSON.stringify(report, null, 2));
});
