/**
 * Structured cabling as a planner uses it (issue 29): a hall whose spines have 400G ports (a catalog
 * switch the planner adds: no builtin switch has ports that break out into the ToRs' 100G uplinks),
 * a plan generated from the Wiring tab with structured cabling and breakouts, its panels and trunks in
 * 3D (the scene's test hook against the API's plant), a link's chain followed step by step, a panel's
 * port map opened from the chain, and the panel map PDF and the trunk pull list downloaded and read.
 */
import { expect, test, type Page } from "@playwright/test";
import { ARTIFACTS, floorPoint, login, view, waitForEditor } from "./helpers";
import { download, parseCsv, plannedHall, plansOf, printedText } from "./planning";

interface PlantItem {
  item_id: string;
  kind: string;
  label: string;
  part: string;
  a_end: string;
  a_port: string;
  b_end: string;
  b_port: string;
}
interface Plant {
  counts: Record<string, number>;
  panels: { panel_id: string }[];
  trunks: PlantItem[];
}
interface Chain {
  cable_id: string;
  steps: { position: number; detail: string; item: PlantItem }[];
}
interface PlantReport {
  planId: number;
  panels: number;
  trunks: number;
  trunksRouted: number;
  trunksStraight: number;
  chain: { cableId: string; panels: string[]; trunks: string[]; cords: number } | null;
}

const drawnPlant = (page: Page) =>
  page.evaluate(() => (window as unknown as { __loopline: { plant?: PlantReport | null } }).__loopline.plant ?? null);

test("structured cabling with breakouts: panels and trunks in 3D, a link's chain, a port map, the panel map and pull list", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await login(page);
  // A 32 x 400G spine, added to the catalog as a planner would (through the API the catalog page uses).
  const spine = await page.request.post("/api/v1/catalog/switch-models", {
    data: {
      name: `32x400G spine ${Date.now().toString(36)}`,
      server_ports: 32,
      server_port_gbps: 400,
      uplink_ports: 0,
      uplink_gbps: 400,
      height_u: 2,
    },
  });
  expect(spine.status(), await spine.text()).toBe(201);
  const { projectId, hallId } = await plannedHall(page.request, "structured", (await spine.json()).id);
  await page.goto(`/projects/${projectId}/halls/${hallId}`);
  await waitForEditor(page);

  // --- the Wiring tab: structured cabling, panels at the row end, breakouts (off until structured is chosen)
  await page.getByRole("tab", { name: "Wiring" }).click();
  const panel = page.getByTestId("wiring-panel");
  await panel.getByTestId("wiring-pattern").selectOption("single-homed");
  await expect(panel.getByTestId("wiring-breakouts")).toBeDisabled();
  await expect(panel.getByTestId("wiring-panel-at")).toHaveCount(0);
  await panel.getByTestId("wiring-cabling").selectOption("structured");
  await panel.getByTestId("wiring-panel-at").selectOption("row-end");
  await panel.getByTestId("wiring-breakouts").check();
  await panel.getByTestId("wiring-generate").click();
  await expect(panel.getByTestId("cable-count")).toBeVisible({ timeout: 60_000 });
  const plan = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  await expect(panel.getByTestId("wiring-plans")).toHaveValue(String(plan.id));
  const stored = await (await page.request.get(`/api/v1/wiring-plans/${plan.id}`)).json();
  expect([stored.spec.cabling, stored.spec.breakouts, stored.spec.structured?.panel_at]).toEqual([
    "structured",
    true,
    "row-end",
  ]);
  // Breakouts: the spines' 400G ports carry the ToRs' 100G uplinks lane by lane (`e<port>/<lane>`).
  const cables = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/render`)).json()) as {
    cable_ids: string[];
    labels: string[];
    offsets: number[];
    points: number[];
  };
  const laneLinks = cables.labels.filter((l) => /:e\d+\/[1-4]$/.test(l));
  expect(laneLinks.length).toBeGreaterThan(0);

  // --- panels and trunks in 3D: what the scene drew is the API's plant, every trunk along a routed link
  const plant = (await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/plant`)).json()) as Plant;
  expect(plant.panels.length).toBeGreaterThan(0);
  expect(plant.trunks.length).toBeGreaterThan(0);
  await expect.poll(async () => (await drawnPlant(page))?.planId).toBe(plan.id);
  await expect
    .poll(async () => {
      const d = await drawnPlant(page);
      return d && [d.panels, d.trunks, d.trunksRouted, d.trunksStraight];
    })
    .toEqual([plant.panels.length, plant.trunks.length, plant.trunks.length, 0]);
  await expect(panel.getByTestId("plant-counts")).toContainText(`${plant.counts.panels} panel`);
  await expect(panel.getByTestId("plant-trunks").locator("li")).toHaveCount(plant.trunks.length);
  for (const part of ["panel", "trunk", "chain"]) await expect(page.getByTestId(`plant-legend-${part}`)).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/structured-plant.png` });

  // --- a click on a ToR uplink in 3D selects it: its chain is lit (the middle of its longest leg, in the tray)
  const uplink = cables.labels.findIndex((l) => /:e\d+\/[1-4]$/.test(l));
  const from = cables.offsets[uplink]!;
  const to = cables.offsets[uplink + 1] ?? cables.points.length / 3;
  let mid = [0, 0, 0];
  let longestLeg = -1;
  for (let k = from; k + 1 < to; k++) {
    const [a, b] = [cables.points.slice(3 * k, 3 * k + 3), cables.points.slice(3 * k + 3, 3 * k + 6)];
    const len = Math.hypot(b[0]! - a[0]!, b[1]! - a[1]!, b[2]! - a[2]!);
    if (len > longestLeg) [longestLeg, mid] = [len, a.map((v, i) => (v + b[i]!) / 2)];
  }
  // The camera settled (framed), then the pointer onto the link's leg until it hovers a link (the tray holds
  // several side by side, a pixel or two apart), then a click there.
  await view(page, "3d");
  const onScreen = await floorPoint(page, mid[0]! / 1000, mid[1]! / 1000, mid[2]! / 1000);
  let hoverY: number | null = null;
  for (const dy of [0, 2, -2, 4, -4]) {
    await page.mouse.move(onScreen.x, onScreen.y + dy, { steps: 2 });
    const hovered = await expect
      .poll(() => page.evaluate(() => (window.__loopline!.stats as { hoveredCable?: string | null }).hoveredCable ?? null), { timeout: 1_000 })
      .not.toBeNull()
      .then(
        () => true,
        () => false,
      );
    if (hovered) {
      hoverY = onScreen.y + dy;
      break;
    }
  }
  expect(hoverY, "a link under the pointer on the tray").not.toBeNull();
  await page.mouse.click(onScreen.x, hoverY!);

  // The nearest link to the pointer: the tray carries several uplinks side by side, any of them is a fine pick.
  await expect.poll(async () => (await drawnPlant(page))?.chain?.cableId ?? null).not.toBeNull();
  const clicked = (await drawnPlant(page))!.chain!;
  expect(cables.labels[cables.cable_ids.indexOf(clicked.cableId)]).toMatch(/:e\d+\/[1-4]$/);
  expect(clicked.trunks.length).toBe(1);
  await expect(panel.getByTestId("chain-steps")).toBeVisible();

  // --- follow a link's chain: the longest link is a ToR uplink through the plant
  const longest = panel.locator("ol.cable-list button").first();
  const label = (await longest.getAttribute("title"))!;
  const cableId = cables.cable_ids[cables.labels.indexOf(label)]!;
  await longest.click();
  const chain = (await (
    await page.request.get(`/api/v1/wiring-plans/${plan.id}/cables/${encodeURIComponent(cableId)}/chain`)
  ).json()) as Chain;
  // Cord, panel port, trunk, panel port, cord (a broken-out lane then runs through its breakout module): ToR first.
  expect(chain.steps.map((s) => s.item.kind).slice(0, 3)).toEqual(["cord", "panel port", "trunk"]);
  expect(chain.steps[0]!.item.a_end).toBe(label.split(" / ")[0]!.split(":")[0]);
  const steps = panel.getByTestId("chain-steps");
  await expect(steps.locator("li")).toHaveCount(chain.steps.length);
  for (const s of chain.steps) {
    const li = steps.getByTestId(`chain-step-${s.position}`);
    await expect(li).toHaveAttribute("data-kind", s.item.kind);
    await expect(li).toContainText(s.item.label);
  }
  const trunk = chain.steps.find((s) => s.item.kind === "trunk")!.item;
  // The panels the link passes, in order: the row end's, the network rack's, and (a broken-out spine port)
  // the breakout module's panel beside the spine.
  const chainPanels = [...new Set(chain.steps.filter((s) => s.item.kind === "panel port").map((s) => s.item.a_end))];
  expect(chainPanels.length).toBeGreaterThanOrEqual(2);
  expect(chainPanels[0]).toBe(chain.steps[0]!.item.b_end);
  // The scene lit the same chain: its panels, its trunk, its cords.
  await expect
    .poll(async () => (await drawnPlant(page))?.chain)
    .toEqual({ cableId, panels: chainPanels, trunks: [trunk.item_id], cords: chain.steps.filter((s) => !["panel port", "trunk"].includes(s.item.kind)).length });
  await page.screenshot({ path: `${ARTIFACTS}/structured-chain.png` });

  // --- the first panel's port map, opened from the chain: the port the link uses, its cord and its link
  const portStep = chain.steps.find((s) => s.item.kind === "panel port")!;
  await steps.getByTestId(`chain-step-${portStep.position}-map`).click();
  const map = page.getByTestId("panel-map");
  await expect(map).toBeVisible();
  await expect(map.getByRole("heading")).toContainText(portStep.item.a_end);
  const front = [portStep.item.a_port, portStep.item.b_port].find((p) => p.startsWith("F"))!;
  const rear = [portStep.item.a_port, portStep.item.b_port].find((p) => p.startsWith("R"))!;
  const row = map.getByTestId(`panel-port-${front}`);
  await expect(row).toContainText(rear);
  await expect(row).toContainText(chain.steps[0]!.item.label);
  await expect(row).toContainText(label);
  await page.screenshot({ path: `${ARTIFACTS}/structured-port-map.png` });
  await map.getByRole("button", { name: "Close" }).click();
  await expect(map).toHaveCount(0);

  // --- a panel clicked in 3D opens its port map too: the network rack's panel of the chain (in sight)
  const netPanel = chainPanels[1]!;
  const at = await page.evaluate((id) => {
    const hook = (window as unknown as {
      __loopline: {
        plant: { panelPoint: (id: string) => { x: number; y: number; z: number } | null };
        project: (x: number, y: number, z: number) => { x: number; y: number };
      };
    }).__loopline;
    const p = hook.plant.panelPoint(id);
    return p && hook.project(p.x, p.y, p.z);
  }, netPanel);
  expect(at, `${netPanel} is drawn`).toBeTruthy();
  await page.mouse.click(at!.x, at!.y);
  await expect(map).toBeVisible();
  await expect(map.getByRole("heading")).toContainText(netPanel);
  await map.getByRole("button", { name: "Close" }).click();

  // --- and from the plant's panel list: every front port of the panel, as the API maps them
  const first = plant.panels[0]!.panel_id;
  const apiMap = (await (
    await page.request.get(`/api/v1/wiring-plans/${plan.id}/plant/panels/${encodeURIComponent(first)}`)
  ).json()) as { ports: { front_port: string; rear_port: string | null; cord_label: string | null }[] };
  await panel.getByTestId(`plant-panel-${first}`).click();
  await expect(map.getByRole("heading")).toContainText(first);
  await expect(map.getByTestId("panel-map-ports").locator("tbody tr")).toHaveCount(apiMap.ports.length);
  const used = apiMap.ports.find((p) => p.cord_label)!;
  await expect(map.getByTestId(`panel-port-${used.front_port}`)).toContainText(used.cord_label!);
  await map.getByRole("button", { name: "Close" }).click();

  // --- the downloads: the panel map PDF names a panel, the pull list has its header and a line per trunk
  await page.getByRole("tab", { name: "Plans" }).click();
  const downloads = page.getByTestId("structured-downloads");
  await expect(downloads).toBeVisible();
  const pdf = await download(page, "download-panel-map");
  expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
  const { text } = await printedText(pdf.body);
  expect(text).toContain(plant.panels[0]!.panel_id);
  const pull = parseCsv((await download(page, "download-trunk-pull-list")).body.toString("utf8")).filter((r) =>
    r.some((f) => f !== ""),
  );
  expect(pull[0]).toEqual([
    "trunk",
    "part",
    "fibres",
    "length_m",
    "ordered_length_m",
    "made_to_order",
    "from_panel",
    "from_port",
    "to_panel",
    "to_port",
    "links",
    "route",
    "item_id",
  ]);
  expect(pull.length - 1).toBe(plant.trunks.length);
  const line = pull.find((r) => r[0] === trunk.label)!;
  expect(line, `the pull list has ${trunk.label}`).toBeTruthy();
  expect([line[1], line[12]]).toEqual([trunk.part, trunk.item_id]);
  const segments = (await download(page, "download-wiring-segments")).body.toString("utf8");
  expect(parseCsv(segments).filter((r) => r[0] === cableId).length).toBe(chain.steps.length);

  // --- the same hall with a panel in each compute rack: the form kept the plan's options, and the
  // scene draws that plant (a panel per rack, trunks from every rack) along routed links
  await page.getByRole("tab", { name: "Wiring" }).click();
  await expect(panel.getByTestId("wiring-cabling")).toHaveValue("structured");
  await expect(panel.getByTestId("wiring-breakouts")).toBeChecked();
  await panel.getByTestId("wiring-panel-at").selectOption("rack");
  await panel.getByTestId("wiring-generate").click();
  await expect.poll(async () => (await plansOf(page.request, projectId, hallId)).length, { timeout: 60_000 }).toBe(2);
  const perRack = (await plansOf(page.request, projectId, hallId)).at(-1)!;
  const rackPlant = (await (await page.request.get(`/api/v1/wiring-plans/${perRack.id}/plant`)).json()) as Plant;
  expect(rackPlant.panels.length).toBeGreaterThan(plant.panels.length);
  await expect
    .poll(async () => {
      const d = await drawnPlant(page);
      return d && [d.planId, d.panels, d.trunks, d.trunksRouted];
    })
    .toEqual([perRack.id, rackPlant.panels.length, rackPlant.trunks.length, rackPlant.trunks.length]);
  await page.screenshot({ path: `${ARTIFACTS}/structured-per-rack.png` });
});
