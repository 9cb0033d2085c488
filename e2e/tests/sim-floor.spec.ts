/**
 * A simulation on the hall's floor, as a planner uses it on the demo hall: the rack-to-rack form's
 * receivers picked by clicking two racks in the plan view (a second click takes one back out), a ToR
 * failed by clicking its rack and a cable by clicking the one lit under the pointer, the choice back
 * in the form and in the request sent; then the finished run's heat map: the legend's scale, the hottest cable and rack drawn in the colour of their
 * utilisation (the API's numbers, read back from the scene's buffers), the time slider moved to the
 * end with the time and the colours following, and Clear giving the racks their own colour back.
 */
import { expect, test, type Page } from "@playwright/test";
import { generate } from "./planning";
import { layout, login, view } from "./helpers";

/** The heat scale's stops (0, 25, 50, 75, 100 %), per channel; colours at whole percent. */
const STOPS: [number, [number, number, number]][] = [
  [0, [0x1e, 0x3a, 0x8a]],
  [25, [0x0e, 0xa5, 0xe9]],
  [50, [0x84, 0xcc, 0x16]],
  [75, [0xf5, 0x9e, 0x0b]],
  [100, [0xdc, 0x26, 0x26]],
];
function expectedColour(u: number): string {
  const p = Math.max(0, Math.min(100, Math.round(u * 100)));
  const i = Math.min(STOPS.length - 2, Math.max(0, STOPS.findIndex(([at]) => at >= p) - 1));
  const [a, ca] = STOPS[i]!;
  const [b, cb] = STOPS[i + 1]!;
  const t = (p - a) / (b - a);
  return `#${ca.map((c, k) => Math.round(c + (cb[k]! - c) * t).toString(16).padStart(2, "0")).join("")}`;
}

interface Link {
  id: string;
  from: string;
  to: string;
  util: number[] | null;
}

type Hook = {
  heat?: { cableBucket: number | null; rackBucket: number | null; cableColour: (id: string) => string | null; rackColour: (n: string) => string | null } | null;
  rackColour?: (name: string) => string | null;
};
const hook = (page: Page) => ({
  rackColour: (name: string) => page.evaluate((n) => (window.__loopline as unknown as Hook).rackColour?.(n) ?? null, name),
  cableColour: (id: string) => page.evaluate((c) => (window.__loopline as unknown as Hook).heat?.cableColour(c) ?? null, id),
  heatDrawnAt: (bucket: number) =>
    page.waitForFunction((b) => {
      const h = (window.__loopline as unknown as Hook).heat;
      return h?.cableBucket === b && h?.rackBucket === b;
    }, bucket),
});

test("pick receivers and a failed ToR on the floor; the run's heat map with its time slider", async ({ page }) => {
  test.setTimeout(180_000);
  await login(page);
  const m = /\/projects\/(\d+)\/halls\/(\d+)/.exec(new URL(page.url()).pathname)!;
  const [projectId, hallId] = [Number(m[1]), Number(m[2])];
  const plan = await generate(page, projectId, hallId, "paired-row");
  const scenario = await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/scenario`)).json();
  const nodes = scenario.network.nodes as { id: string; role: string; logical_rack?: string }[];
  const serversOf = (lrs: string[]) => nodes.filter((n) => n.role === "server" && lrs.includes(n.logical_rack ?? "")).map((n) => n.id);

  // Where the racks stand: rows run along +x from (x_m, y_m), racks 0.6 m wide and 1.2 m deep towards +y.
  const { rows } = await layout(page.request, hallId);
  const centre = (rackName: string): [number, number] => {
    const row = rows.find((r) => r.racks.some((k) => k.name === rackName))!;
    expect(row.direction).toBe(0);
    const rack = row.racks.find((k) => k.name === rackName) as unknown as { position_m: number };
    return [row.x_m + rack.position_m + 0.3, row.y_m + 0.6];
  };
  const click = async (rackName: string) => {
    const [x, y] = centre(rackName);
    const p = await page.evaluate(([a, b]) => window.__loopline!.project!(a * 1000, b * 1000, 0), [x, y] as const);
    await page.mouse.click(p.x, p.y);
  };

  // --- The form: rack to rack, receivers picked on the floor
  await page.getByRole("tab", { name: "Plans" }).click();
  const plansPanel = page.getByTestId("plans-panel");
  for (const box of await plansPanel.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await plansPanel.getByTestId(`plan-select-${plan.id}`).check();
  await plansPanel.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");
  await form.getByTestId("preset-many-to-many").check();
  await expect(form.getByTestId("sim-set-receivers-chosen")).toHaveText("None chosen: the racks after the senders.");
  await form.getByTestId("sim-pick-receivers").click();
  const bar = page.getByTestId("pick-bar");
  await expect(bar).toBeVisible();
  await expect(form).toBeHidden();
  await expect(bar.getByTestId("pick-mode-receivers")).toBeChecked();
  await view(page, "plan");

  await click("R03-06");
  await click("R03-07");
  await expect(bar.getByTestId("pick-count-receivers")).toHaveAttribute("data-racks", "2");
  await expect(bar.getByTestId("pick-count-receivers")).toHaveAttribute("data-logical", "4");
  expect(await hook(page).rackColour("R03-06")).toBe("#22c55e");
  expect(await hook(page).rackColour("R03-07")).toBe("#22c55e");
  // A second click takes a rack out (its own colour back), a third puts it back.
  await click("R03-06");
  await expect(bar.getByTestId("pick-count-receivers")).toHaveAttribute("data-racks", "1");
  expect(await hook(page).rackColour("R03-06")).not.toBe("#22c55e");
  await click("R03-06");
  await expect(bar.getByTestId("pick-count-receivers")).toHaveAttribute("data-racks", "2");

  // A failure: the ToR at the clicked height; from above (plan view) the rack's top one, L2's.
  await bar.getByTestId("pick-mode-failures").check();
  await click("R04-08");
  await expect(bar.getByTestId("pick-failure-0")).toHaveAttribute("data-id", "H1.R04.R04-08.L2.TOR1");
  expect(await hook(page).rackColour("R04-08")).toBe("#ef4444");
  // And a cable: what lights up under the pointer is what a click fails (one of R04-08's own cables,
  // at its first port, so the run's traffic does not need it).
  await bar.getByTestId("pick-failkind-cable").check();
  const render = await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/render`)).json();
  const own = (render.labels as string[]).findIndex((l) => l.split(" / ").every((end) => end.startsWith("H1.R04.R04-08.")));
  expect(own).toBeGreaterThanOrEqual(0);
  const at = (render.offsets as number[])[own]! * 3;
  const [px, py, pz] = (render.points as number[]).slice(at, at + 3);
  const p = await page.evaluate(([x, y, z]) => window.__loopline!.project!(x, y, z), [px!, py!, pz!] as const);
  await page.mouse.move(p.x - 3, p.y);
  await page.mouse.move(p.x, p.y);
  await page.waitForFunction(() => (window.__loopline as unknown as { stats: { hoveredCable: string | null } }).stats.hoveredCable !== null);
  const hovered = await page.evaluate(() => (window.__loopline as unknown as { stats: { hoveredCable: string } }).stats.hoveredCable);
  await page.mouse.down();
  await page.mouse.up();
  await expect(bar.getByTestId("pick-failure-1")).toHaveAttribute("data-kind", "link");
  await expect(bar.getByTestId("pick-failure-1")).toHaveAttribute("data-id", hovered);
  await expect(bar.getByTestId("pick-count-failures")).toHaveText("2");
  await page.screenshot({ path: "artifacts/sim-floor-pick.png" });
  await page.keyboard.press("Escape");
  await expect(bar).toBeHidden();

  // --- Back in the form with the choice; the request names the racks' servers and the ToR
  await expect(form).toBeVisible();
  const receivers = ["H1.R03.R03-07.L1", "H1.R03.R03-07.L2", "H1.R03.R03-06.L1", "H1.R03.R03-06.L2"];
  await expect(form.getByTestId("sim-set-receivers-chosen")).toHaveAttribute("data-logical", receivers.join(" "));
  await expect(form.getByTestId("sim-set-receivers-chosen")).toContainText("2 racks chosen (4 logical): R03-06, R03-07");
  await expect(form.getByTestId("param-receiver_racks")).toBeDisabled();
  await expect(form.getByTestId("sim-fail-node")).toHaveValue("H1.R04.R04-08.L2.TOR1");
  await expect(form.getByTestId("sim-failure-1")).toHaveAttribute("data-kind", "link");
  await form.screenshot({ path: "artifacts/sim-floor-form.png" });
  await form.getByTestId("sim-fail-at").fill("1");
  await form.getByTestId("param-sender_racks").fill("1");
  await form.getByTestId("param-bytes").fill("4");
  await form.getByTestId("sim-seeds").fill("1");
  const [sent] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith(`/wiring-plans/${plan.id}/simulations`)),
    form.getByTestId("sim-run").click(),
  ]);
  const body = sent.postDataJSON();
  expect(body.name).toBe(`rack-to-rack 1→4 chosen × 4 MB · H1.R04.R04-08.L2.TOR1 down at 1 ms, cable ${hovered} down at 0 ms · ECMP · seed 1`);
  // The preset, its params and the racks chosen by name, in the order they were picked (R03-07 first:
  // R03-06 was taken out and put back); the server builds the workload.
  expect(body).toMatchObject({ preset: "many-to-many", params: { sender_racks: 1, bytes: 4_000_000 } });
  expect(body.racks).toEqual({ receivers });
  expect(body).not.toHaveProperty("workload");
  expect(serversOf(receivers)).toHaveLength(60);
  expect(body.engine.failures).toEqual([
    { node: "H1.R04.R04-08.L2.TOR1", at_s: 0.001 },
    { link: hovered, at_s: 0 },
  ]);
  const jobId: number = (await (await sent.response())!.json()).id;

  // --- The run's heat map
  const sims = page.getByTestId("simulations-panel");
  await expect(sims.getByTestId(`sim-status-${jobId}`)).toHaveAttribute("data-status", "succeeded", { timeout: 90_000 });
  const job = await (await page.request.get(`/api/v1/simulations/${jobId}`)).json();
  const links = job.result.links.links as Link[];
  // Senders: the first logical rack of the plan that is not a receiver, each to every receiver.
  expect(job.result.flows.total).toBe(15 * 60);
  const sending = (job.result.servers as { id: string; bytes_sent: number }[]).filter((s) => s.bytes_sent > 0).map((s) => s.id);
  expect(sending.sort()).toEqual(serversOf(["H1.R01.R01-01.L1"]).sort());
  await sims.getByTestId(`sim-open-${jobId}`).click();
  await page.getByTestId("sim-result").getByTestId("sim-heatmap").click();
  await expect(page.getByTestId("sim-result")).toBeHidden();
  const panel = page.getByTestId("heat-panel");
  await expect(panel).toHaveAttribute("data-job", String(jobId));
  // The legend: the scale from 0 % (idle) to 100 % (saturated).
  await expect(panel.getByTestId("heat-stop-0")).toHaveAttribute("data-colour", "#1e3a8a");
  await expect(panel.getByTestId("heat-stop-50")).toHaveAttribute("data-colour", "#84cc16");
  await expect(panel.getByTestId("heat-stop-100")).toHaveAttribute("data-colour", "#dc2626");
  await expect(panel.getByTestId("heat-stop-100")).toHaveText("100%");

  const cableAt = (id: string, b: number) => Math.max(0, ...links.filter((l) => l.id === id).map((l) => l.util?.[b] ?? 0));
  const torAt = (tor: string, b: number) => Math.max(0, ...links.filter((l) => l.from === tor || l.to === tor).map((l) => l.util?.[b] ?? 0));
  const time = panel.getByTestId("heat-time");
  const first = Number(await time.getAttribute("data-bucket"));
  await hook(page).heatDrawnAt(first);

  // The hottest cable at this time is the API's busiest (its busier direction), drawn in its colour:
  // the senders' server links run at line rate, so it is the scale's red.
  const hotCable = panel.getByTestId("heat-hottest-cable");
  const hotId = (await hotCable.getAttribute("data-cable-id"))!;
  const best = Math.max(...[...new Set(links.map((l) => l.id))].map((id) => cableAt(id, first)));
  expect(cableAt(hotId, first)).toBe(best);
  expect(best).toBe(1);
  expect(await hook(page).cableColour(hotId)).toBe("#dc2626");
  // A cable nothing crossed is the idle end of the scale.
  const idle = (scenario.network.links as { id: string }[]).find((l) => !links.some((x) => x.id === l.id && (x.util?.length ?? 0) > 0))!;
  expect(await hook(page).cableColour(idle.id)).toBe("#1e3a8a");

  // The hottest rack: its busiest ToR link (either way) is the API's; the rack is drawn in that colour.
  const hotRack = panel.getByTestId("heat-hottest-rack");
  const rackName = (await hotRack.getAttribute("data-rack"))!;
  const rackTors = nodes.filter((n) => n.role === "tor" && n.id.split(".")[2] === rackName).map((n) => n.id);
  const rackUtil = Math.max(...rackTors.map((t) => torAt(t, first)));
  expect(rackUtil).toBe(1);
  expect(await hook(page).rackColour(rackName)).toBe(expectedColour(rackUtil));
  await page.screenshot({ path: "artifacts/sim-heat-map.png" });

  // --- The time slider, as a person moves it with the keyboard: End (the run's last step), then left
  // to the last step where the hot cable is no longer saturated (the API's series say which).
  const before = await time.textContent();
  const buckets = Math.max(...links.map((l) => l.util?.length ?? 0), Math.ceil(job.result.simulated_time_s / job.result.links.interval_s - 1e-9));
  const cooler = [...Array(buckets).keys()].filter((b) => expectedColour(cableAt(hotId, b)) !== "#dc2626").at(-1)!;
  expect(cooler, "the hot cable is below line rate at some step").toBeGreaterThan(first);
  await panel.getByTestId("heat-slider").focus();
  await page.keyboard.press("End");
  await expect(time).toHaveAttribute("data-bucket", String(buckets - 1));
  await expect(time).toContainText(`step ${buckets} of ${buckets}`);
  for (let b = buckets - 1; b > cooler; b--) await page.keyboard.press("ArrowLeft");
  await expect(time).toHaveAttribute("data-bucket", String(cooler));
  await expect(time).not.toHaveText(before!);
  await hook(page).heatDrawnAt(cooler);
  // The same cable and rack now have the colours of their utilisation then.
  expect(await hook(page).cableColour(hotId)).toBe(expectedColour(cableAt(hotId, cooler)));
  expect(await hook(page).cableColour(hotId)).not.toBe("#dc2626");
  expect(await hook(page).rackColour(rackName)).toBe(expectedColour(Math.max(...rackTors.map((t) => torAt(t, cooler)))));

  // --- Clear: the racks' own colour back, the heat report gone
  await panel.getByTestId("heat-clear").click();
  await expect(panel).toBeHidden();
  await page.waitForFunction(() => (window.__loopline as unknown as Hook).heat === null);
  expect(await hook(page).rackColour(rackName)).toBe("#475569");
});
