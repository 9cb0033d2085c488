import { expect, test, type APIRequestContext } from "@playwright/test";
import { ARTIFACTS, floorPoint, freshHall, login, openHall, view } from "./helpers";

/** Two facing rows of ten racks (2 logical racks of 15 2x25G servers each) and a network rack with 4 spines. */
async function pairedRowHall(request: APIRequestContext) {
  const hall = await freshHall(request, "wiring");
  const models = async (kind: string) => (await (await request.get(`/api/v1/catalog/${kind}?limit=100`)).json()).items as { id: number; name: string }[];
  const servers = await models("server-models");
  const switches = await models("switch-models");
  const racks = await models("rack-types");
  const id = (xs: { id: number; name: string }[], name: string) => xs.find((x) => x.name === name)!.id;
  const lr = { servers: 15, server_model_id: id(servers, "2x25G server"), ports_used: 2, tor_model_id: id(switches, "48x25G+8x100G ToR"), tor_position: "top" };
  const pair = await request.post(`/api/v1/halls/${hall.id}/row-pairs`, {
    data: { name_a: "R01", name_b: "R02", x_m: 1.2, y_m: 1.2, rack_count: 10, rack_template: { rack_type_id: id(racks, "42U 600x1200"), logical_racks: [lr, lr] } },
  });
  expect(pair.status(), await pair.text()).toBe(201);
  const spine = id(switches, "64x100G spine");
  const net = await request.post(`/api/v1/halls/${hall.id}/rows`, {
    data: {
      name: "N01",
      x_m: 1.2,
      y_m: 7.2,
      racks: [
        {
          name: "N01-01",
          role: "network",
          rack_type_id: id(racks, "42U 600x1200"),
          fabric_switches: [20, 22, 24, 26].map((u, i) => ({ name: `SP${i + 1}`, role: "spine", switch_model_id: spine, u })),
        },
      ],
    },
  });
  expect(net.status(), await net.text()).toBe(201);
  return hall;
}

test("generate Subways paired-row wiring: the cable count matches the API, hovering a cable shows its label", async ({ page }) => {
  await login(page);
  const hall = await pairedRowHall(page.request);
  await openHall(page, hall);
  await page.getByRole("tab", { name: "Wiring" }).click();
  const panel = page.getByTestId("wiring-panel");
  await panel.getByTestId("wiring-pattern").selectOption("paired-row");
  await panel.getByTestId("wiring-type").selectOption("1");
  await panel.getByTestId("wiring-generate").click();
  await expect(panel.getByTestId("cable-count")).toBeVisible({ timeout: 60_000 });

  // The API's own count for the plan just generated.
  const plans = (await (await page.request.get(`/api/v1/projects/${hall.projectId}/wiring-plans?limit=500`)).json()).items as {
    id: number;
    hall_id: number;
    summary: { cables: number; media: Record<string, number> };
  }[];
  const plan = plans.filter((p) => p.hall_id === hall.id).sort((a, b) => b.id - a.id)[0]!;
  const cables = await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/cables?limit=1`)).json();
  expect(cables.total).toBe(plan.summary.cables);
  await expect(panel.getByTestId("cable-count")).toHaveText(plan.summary.cables.toLocaleString("en"));
  for (const [medium, n] of Object.entries(plan.summary.media)) await expect(panel.getByTestId(`media-${medium}`)).toContainText(n.toLocaleString("en"));
  // Every cable is in the scene, in one merged buffer.
  expect(await page.evaluate(() => window.__loopline!.stats.cables)).toBe(plan.summary.cables);
  await page.screenshot({ path: `${ARTIFACTS}/wiring-paired-row.png` });

  // Hover the middle of the longest cable's longest segment.
  const render = await (await page.request.get(`/api/v1/wiring-plans/${plan.id}/render`)).json();
  const n: number = render.cable_ids.length;
  let best = 0;
  for (let i = 1; i < n; i++) if (render.raw_length_mm[i] > render.raw_length_mm[best]) best = i;
  const start = render.offsets[best];
  const end = best + 1 < n ? render.offsets[best + 1] : render.points.length / 3;
  let mid: [number, number, number] = [0, 0, 0];
  let longest = -1;
  for (let k = start; k < end - 1; k++) {
    const [x0, y0, z0, x1, y1, z1] = render.points.slice(3 * k, 3 * k + 6);
    const len = Math.abs(x1 - x0) + Math.abs(y1 - y0) + Math.abs(z1 - z0);
    if (len > longest) {
      longest = len;
      mid = [(x0 + x1) / 2000, (y0 + y1) / 2000, (z0 + z1) / 2000];
    }
  }
  await view(page, "3d");
  const p = await floorPoint(page, mid[0], mid[1], mid[2]);
  await page.mouse.move(p.x - 3, p.y - 3);
  await page.mouse.move(p.x, p.y);
  const tooltip = page.getByTestId("cable-tooltip");
  await expect(tooltip).toBeVisible();
  const hovered = await tooltip.getAttribute("data-cable-id");
  const index = render.cable_ids.indexOf(hovered);
  expect(index).toBeGreaterThanOrEqual(0);
  await expect(page.getByTestId("cable-tooltip-label")).toHaveText(render.labels[index]);
  await expect(tooltip).toContainText(/ · \d+\.\d\d m/);
  await page.screenshot({ path: `${ARTIFACTS}/wiring-hover.png` });
});
