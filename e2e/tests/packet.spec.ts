/**
 * Packet mode as a planner uses it, on the demo hall: the simulation form's Flow / Packet choice with
 * DCTCP, its run-time estimate (what the API answered, refreshed as the form changes, and a warning
 * for a run the worker could not finish), a packet run's progress to the end, its queue and drop
 * statistics and note in the result, the heat map switched to queue occupancy, and a second packet
 * run cancelled while the engine runs it; failures picked in the form in packet mode (a ToR down until
 * a recovery, a spine for good), the run succeeding. A real Celery worker runs the compiled engine.
 */
import { expect, test, type Locator, type Page, type Response } from "@playwright/test";
import { generate } from "./planning";
import { login } from "./helpers";
import { ids, simulationJobs, simulationJob } from "./simulating";

interface ModeEstimate {
  wall_s: number;
  memory_mb: number;
  fits: boolean;
  reason: string | null;
}
interface Estimate {
  workload: { flows: number; packets: number };
  flow: ModeEstimate;
  packet: ModeEstimate;
}
interface Queue {
  link: string;
  from: string;
  to: string;
  max_bytes: number;
  p99_bytes: number;
}
interface Job {
  id: number;
  name: string;
  status: string;
  model: string;
  note: string;
  result: {
    model: string;
    note: string;
    job_completion_s: number | null;
    flows: { total: number; finished: number; stalled: number; rerouted: number };
    packet: { transport: string; drops: number; retransmissions: number; timeouts: number; ecn_marks: number; queues: Queue[] };
  } | null;
}

const jobs = simulationJobs<Job>;
const job = simulationJob<Job>;

const PACKET_NOTE = "packet-level simulation: TCP with drop-tail queues (see sim-engine/README.md)";

/** Wall time as the form writes it (packet.ts `formatDuration`). */
/** The simulate dialog of plan `planId` alone (from the Plans tab), set to a shuffle of 2 racks. */
async function simulateShuffleOf(page: Page, planId: number): Promise<Locator> {
  await page.getByRole("tab", { name: "Plans" }).click();
  const panel = page.getByTestId("plans-panel");
  for (const box of await panel.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await panel.getByTestId(`plan-select-${planId}`).check();
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");
  await form.getByTestId("preset-shuffle").check();
  await form.getByTestId("param-job_racks").fill("2");
  return form;
}

function duration(s: number): string {
  if (s < 10) return `${s.toLocaleString("en", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toLocaleString("en", { maximumFractionDigits: 1 })} h`;
}
const estimateText = (e: ModeEstimate) => `about ${duration(e.wall_s)}, ${Math.ceil(e.memory_mb).toLocaleString("en")} MB`;
const kb = (bytes: number) => `${(bytes / 1000).toLocaleString("en", { maximumFractionDigits: bytes < 10_000 ? 1 : 0 })} KB`;

interface Asked {
  mode: string;
  packet?: { transport?: string; buffer_bytes?: number; ecn_threshold_bytes?: number } | null;
  preset: string;
  params: { bytes?: number };
}

/** The form's estimate request for the request `matches` says (earlier ones may still be answering). */
function estimateFor(page: Page, matches: (body: Asked) => boolean): Promise<Response> {
  return page.waitForResponse(
    (r) => r.url().endsWith("/simulations/estimate") && r.request().method() === "POST" && matches(r.request().postDataJSON() as Asked),
  );
}
const perPair = (mb: number) => (b: Asked) => b.preset === "shuffle" && b.params.bytes === mb * 1_000_000;

test("packet mode: the estimate before submitting, a DCTCP run's queue statistics, a long packet run's progress and its cancel", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page);
  const { projectId, hallId } = ids(page);
  const plan = await generate(page, projectId, hallId, "paired-row");

  const form = await simulateShuffleOf(page, plan.id);

  // --- The estimate: both modes, as the API answered for the form as it stands
  let answer = estimateFor(page, perPair(1));
  await form.getByTestId("param-bytes").fill("1");
  let est: Estimate = await (await answer).json();
  expect(est.workload.flows).toBe(30 * 29); // 2 racks x 15 servers, every ordered pair
  await expect(form.getByTestId("sim-estimate-flow")).toHaveText(`flow ${estimateText(est.flow)}`);
  await expect(form.getByTestId("sim-estimate-packet")).toHaveText(`packet ${estimateText(est.packet)}`);

  // Packet mode with DCTCP, a 100 KB buffer and marking at 20 KB: the request carries them
  await form.getByTestId("sim-mode-packet").check();
  await expect(form).toContainText("Packet-level runs: TCP, queues and losses; slower.");
  await form.getByTestId("sim-transport").selectOption("dctcp");
  await form.getByTestId("sim-buffer-kb").fill("100");
  answer = estimateFor(page, (b) => b.packet?.ecn_threshold_bytes === 20_000);
  await form.getByTestId("sim-ecn-kb").fill("20");
  const asked = await answer;
  expect(asked.request().postDataJSON()).toMatchObject({
    mode: "packet",
    packet: { transport: "dctcp", buffer_bytes: 100_000, ecn_threshold_bytes: 20_000 },
  });
  est = await asked.json();
  await expect(form.getByTestId("sim-estimate-packet")).toHaveText(`packet ${estimateText(est.packet)}`);

  // Refreshed as the form changes: ten times the bytes, ten times the packets
  answer = estimateFor(page, perPair(10));
  await form.getByTestId("param-bytes").fill("10");
  const bigger: Estimate = await (await answer).json();
  expect(bigger.workload.packets).toBeCloseTo(est.workload.packets * (Math.ceil(10e6 / 1500) / Math.ceil(1e6 / 1500)), 0);
  await expect(form.getByTestId("sim-estimate-packet")).toHaveText(`packet ${estimateText(bigger.packet)}`);

  // A run the worker could not finish is flagged before submitting (and refused if submitted)
  answer = estimateFor(page, perPair(100_000));
  await form.getByTestId("param-bytes").fill("100000");
  est = await (await answer).json();
  expect(est.packet.fits).toBe(false);
  await expect(form.getByTestId("sim-estimate-warning")).toContainText("over the worker's limit");
  await form.getByTestId("sim-run").click();
  await expect(form.getByTestId("sim-error")).toContainText("mode");
  await expect(form.getByTestId("sim-error")).toContainText("use flow mode, a smaller workload or a stop time");

  // --- Run: 3 MB per pair in packet mode, to the end
  answer = estimateFor(page, perPair(3));
  await form.getByTestId("param-bytes").fill("3");
  est = await (await answer).json();
  expect(est.packet.fits).toBe(true);
  await expect(form.getByTestId("sim-estimate-warning")).toBeHidden();
  const before = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(1);
  const run = (await jobs(page, projectId)).find((j) => !before.has(j.id))!;
  expect(run.model).toBe("packet");
  const sims = page.getByTestId("simulations-panel");
  // (this run may end before its first report on a fast machine: the long run below shows progress mid-run)
  await expect(sims.getByTestId(`sim-progress-${run.id}`)).toHaveAttribute("aria-valuenow", "100", { timeout: 120_000 });
  await expect(sims.getByTestId(`sim-status-${run.id}`)).toHaveAttribute("data-status", "succeeded");

  // --- Read: the packet statistics are the engine's, the busiest queue first, the note says what it is
  const done = await job(page, run.id);
  const res = done.result!;
  expect([res.model, res.packet.transport]).toEqual(["packet", "dctcp"]);
  expect(res.flows.finished).toBe(30 * 29);
  await sims.getByTestId(`sim-open-${run.id}`).click();
  const view = page.getByTestId("sim-result");
  const stats = view.getByTestId("packet-stats");
  await expect(stats.getByTestId("packet-drops")).toHaveText(res.packet.drops.toLocaleString("en"));
  await expect(stats.getByTestId("packet-retransmissions")).toHaveText(res.packet.retransmissions.toLocaleString("en"));
  await expect(stats.getByTestId("packet-timeouts")).toHaveText(res.packet.timeouts.toLocaleString("en"));
  await expect(stats.getByTestId("packet-ecn")).toHaveText(res.packet.ecn_marks.toLocaleString("en"));
  expect(res.packet.ecn_marks).toBeGreaterThan(0); // 30 servers sending to 29 at once fill queues past 20 KB
  const busiest = [...res.packet.queues].sort((a, b) => b.max_bytes - a.max_bytes || b.p99_bytes - a.p99_bytes)[0]!;
  // the buffer is the switches' (a server's NIC queue never drops: the host holds back what it cannot send)
  const scenario = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/scenario`)).json()) as {
    network: { nodes: { id: string; role: string }[] };
  };
  const servers = new Set(scenario.network.nodes.filter((n) => n.role === "server").map((n) => n.id));
  const switchQueues = res.packet.queues.filter((q) => !servers.has(q.from));
  expect(switchQueues.length).toBeGreaterThan(0);
  for (const q of switchQueues) expect(q.max_bytes).toBeLessThanOrEqual(100_000);
  // Switch ports and server NIC queues are listed apart, each table saying which buffer holds them
  const byLoad = (qs: typeof res.packet.queues) => [...qs].sort((a, b) => b.max_bytes - a.max_bytes || b.p99_bytes - a.p99_bytes);
  const nicQueues = res.packet.queues.filter((q) => servers.has(q.from));
  for (const [at, qs] of [["switch", switchQueues], ["nic", nicQueues]] as const) {
    const table = stats.getByTestId(`packet-queues-${at}`);
    if (qs.length === 0) {
      await expect(table).toHaveCount(0);
      continue;
    }
    await expect(table.locator("caption")).toContainText(at === "switch" ? "Busiest switch ports" : "Busiest server NIC queues");
    await expect(table.locator("caption")).toContainText(at === "switch" ? "switch buffer per port" : "never drops");
    const first = table.getByTestId("packet-queue-row").first();
    await expect(first).toContainText(kb(byLoad(qs)[0]!.max_bytes));
    await expect(first).toContainText(kb(byLoad(qs)[0]!.p99_bytes));
  }
  expect(busiest.max_bytes).toBe(byLoad([...switchQueues, ...nicQueues])[0]!.max_bytes);
  await expect(view.getByTestId("sim-note")).toHaveText(`${PACKET_NOTE}.`);

  // The heat map, switched to queue occupancy, is painted on the hall with its scale named
  await view.getByTestId("sim-heatmap-metric").selectOption("queues");
  await view.getByTestId("sim-heatmap").click();
  const heat = page.getByTestId("heat-panel");
  await expect(heat.getByTestId("heat-metric")).toContainText(
    `queue occupancy: 100 % = ${Math.round(Math.max(...res.packet.queues.map((q) => q.max_bytes)) / 1000)} KB`,
  );
  await page.screenshot({ path: "artifacts/packet-queue-heat.png" });
  await heat.getByTestId("heat-clear").click();

  // --- Cancel: a long packet run (300 MB per pair, NewReno): its progress mid-run, then cancelled
  await page.getByRole("tab", { name: "Plans" }).click();
  await page.getByTestId("plans-simulate").click();
  await form.getByTestId("preset-shuffle").check();
  await form.getByTestId("param-job_racks").fill("2");
  await form.getByTestId("sim-mode-packet").check();
  await form.getByTestId("sim-transport").selectOption("newreno");
  answer = estimateFor(page, (b) => perPair(300)(b) && b.packet?.transport === "newreno");
  await form.getByTestId("param-bytes").fill("300");
  est = await (await answer).json();
  expect(est.packet.fits && est.packet.wall_s > 90).toBe(true);
  const beforeLong = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !beforeLong.has(j.id)).length).toBe(1);
  const long = (await jobs(page, projectId)).find((j) => !beforeLong.has(j.id))!;
  await expect(sims.getByTestId(`sim-status-${long.id}`)).toContainText(`of ${(30 * 29).toLocaleString("en")} flows done`, {
    timeout: 60_000,
  });
  await sims.getByTestId(`sim-cancel-${long.id}`).click();
  await expect(sims.getByTestId(`sim-status-${long.id}`)).toHaveAttribute("data-status", "cancelled");
  const cancelled = await job(page, long.id);
  expect([cancelled.status, cancelled.model, cancelled.result]).toEqual(["cancelled", "packet", null]);
});

test("packet mode with failures: a ToR down until a recovery and a spine down for good, picked in the form; the run succeeds", async ({ page }) => {
  test.setTimeout(300_000);
  await login(page);
  const { projectId, hallId } = ids(page);
  const plan = await generate(page, projectId, hallId, "single-homed");
  const scenario = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/scenario`)).json()) as {
    network: { nodes: { id: string; role: string; logical_rack?: string }[] };
  };
  const nodes = scenario.network.nodes;
  const firstRack = nodes.find((n) => n.role === "server")!.logical_rack;
  const tor = nodes.find((n) => n.role === "tor" && n.logical_rack === firstRack)!;
  const spine = nodes.find((n) => n.role === "spine")!;

  const form = await simulateShuffleOf(page, plan.id);
  await form.getByTestId("param-bytes").fill("1");
  await form.getByTestId("sim-mode-packet").check();
  // Packet mode offers failures as flow mode does: the first rack's ToR down from 1 ms to 3 ms, a spine from 1 ms on
  await expect(form.getByTestId("sim-fail-node")).toBeEnabled();
  await form.getByTestId("sim-fail-node").selectOption(tor.id);
  await form.getByTestId("sim-fail-at").fill("1");
  await form.getByTestId("sim-fail-recover").fill("3");
  await form.getByTestId("sim-fail-node-1").selectOption(spine.id);
  await form.getByTestId("sim-fail-at-1").fill("1");
  const before = new Set((await jobs(page, projectId)).map((j) => j.id));
  await form.getByTestId("sim-run").click();
  await expect(form).toBeHidden();
  await expect.poll(async () => (await jobs(page, projectId)).filter((j) => !before.has(j.id)).length).toBe(1);
  const run = (await jobs(page, projectId)).find((j) => !before.has(j.id))!;
  expect(run.model).toBe("packet");
  expect(run.name).toContain(`${tor.id} down at 1 ms, ${spine.id} down at 1 ms`);
  const sims = page.getByTestId("simulations-panel");
  await expect(sims.getByTestId(`sim-status-${run.id}`)).toHaveAttribute("data-status", "succeeded", { timeout: 180_000 });
  await expect(sims.getByTestId(`sim-status-${run.id}`)).not.toHaveAttribute("data-outcome", "partial");

  const res = (await job(page, run.id)).result!;
  expect(res.model).toBe("packet");
  // every flow finishes: those of the first rack stalled at 1 ms and went on after the ToR came back
  expect([res.flows.finished, res.flows.stalled]).toEqual([30 * 29, 0]);
  // every pair with a server of the first rack (15 x 29 sending, 15 x 15 more receiving) lost its path at 1 ms
  expect(res.flows.rerouted).toBeGreaterThanOrEqual(15 * 29 + 15 * 15);
  expect(res.job_completion_s!).toBeGreaterThan(0.003);
  // the packets the ToR was sending to its servers at 1 ms were lost, and TCP sent them again
  expect(res.packet.drops).toBeGreaterThan(0);
  expect(res.packet.retransmissions).toBeGreaterThan(0);
  await sims.getByTestId(`sim-open-${run.id}`).click();
  const view = page.getByTestId("sim-result");
  await expect(view.getByTestId("packet-stats").getByTestId("packet-drops")).toHaveText(res.packet.drops.toLocaleString("en"));
});
