/**
 * The simulate form is drawn from the server's preset table (GET /api/v1/simulation-presets): every
 * preset and field the table has, with its label and default; a default the engine owns is shown as
 * the engine's own schema states it; the request carries the preset and its params for the server to
 * build, and the server's refusal is shown under the field it names.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { login } from "./helpers";
import { generate } from "./planning";
import { ids } from "./simulating";

interface Param {
  name: string;
  label: string;
  kind: string;
  default: number | string | boolean | null;
  display_scale: number;
  engine_field: string | null;
}
interface Preset {
  name: string;
  label: string;
  params: Param[];
}

const ENGINE_SCHEMA = JSON.parse(readFileSync(new URL("../../sim-engine/schema/scenario.schema.json", import.meta.url), "utf8"));

/** A workload field's `default` in the engine's own scenario schema (`workload.<type>.<field>`). */
function engineDefault(path: string): unknown {
  const [, type, field] = path.split(".");
  const variant = ENGINE_SCHEMA.definitions.WorkloadSpec.oneOf.find((v: { properties: { type: { enum: string[] } } }) => v.properties.type.enum[0] === type);
  return variant.properties[field!].default;
}

test("the simulate form's presets, fields, labels and defaults are the server's table; engine defaults are the engine's", async ({ page }) => {
  test.setTimeout(120_000);
  await login(page);
  const { projectId, hallId } = ids(page);
  const plan = await generate(page, projectId, hallId, "single-homed");
  const res = await page.request.get("/api/v1/simulation-presets");
  expect(res.status()).toBe(200);
  const presets = (await res.json()).presets as Preset[];
  expect(presets.map((p) => p.name)).toEqual(["shuffle", "permutation", "all-to-all", "many-to-many", "poisson", "incast", "memcache", "collective", "training-step"]);

  await page.getByRole("tab", { name: "Plans" }).click();
  const plans = page.getByTestId("plans-panel");
  for (const box of await plans.locator('input[data-testid^="plan-select-"]').all()) await box.uncheck();
  await plans.getByTestId(`plan-select-${plan.id}`).check();
  await page.getByTestId("plans-simulate").click();
  const form = page.getByTestId("simulate-dialog");

  for (const preset of presets) {
    await form.getByTestId(`preset-${preset.name}`).check();
    await expect(form.getByTestId(`preset-${preset.name}`).locator("xpath=..")).toContainText(preset.label);
    // exactly the table's fields, in its order, each with its label and default (in the field's display unit)
    await expect(form.locator(".sim-params").first().locator('[data-testid^="param-"]')).toHaveCount(preset.params.length);
    for (const p of preset.params) {
      const field = form.getByTestId(`param-${p.name}`);
      await expect(field.locator("xpath=..")).toContainText(p.label);
      if (p.kind === "boolean") await expect(field).toBeChecked({ checked: p.default === true });
      // a choice the table leaves to the engine (or a node none is chosen for) shows no value
      else if (p.kind === "choice" || p.kind === "node") await expect(field).toHaveValue(p.default === null ? "" : String(p.default));
      else await expect(field).toHaveValue(p.default === null ? "" : String((p.default as number) / p.display_scale));
      if (p.engine_field) expect(p.default, `${preset.name}.${p.name}`).toEqual(engineDefault(p.engine_field) ?? null);
    }
  }
  // the engine's own incast fan-in, as its schema states it, is what the form shows
  await form.getByTestId("preset-incast").check();
  expect(engineDefault("workload.query.fan_in")).toBe(8);
  await expect(form.getByTestId("param-fan_in")).toHaveValue("8");
  await expect(form.getByTestId("param-fan_in").locator("xpath=..")).toContainText("Fan-in (servers answering)");

  // The request is the preset and its params; the estimate the server builds from it counts the flows
  await form.getByTestId("preset-shuffle").check();
  const asked = page.waitForResponse(
    (r) => r.url().endsWith("/simulations/estimate") && r.request().postDataJSON()?.params?.job_racks === 3,
  );
  await form.getByTestId("param-job_racks").fill("3");
  const answer = await asked;
  expect(answer.request().postDataJSON()).toMatchObject({
    preset: "shuffle",
    params: { job_racks: 3, placement: "contiguous", bytes: 15_000_000 },
  });
  expect((await answer.json()).workload.flows).toBe(45 * 44); // 3 logical racks of 15 servers, every ordered pair

  // A count beyond the plan's racks: only the server knows, and its refusal is shown under the field
  await form.getByTestId("param-job_racks").fill("999");
  await form.getByTestId("sim-run").click();
  const at = form.getByTestId("param-job_racks").locator("xpath=..");
  await expect(at.getByRole("alert")).toContainText("needs 1..");
  await expect(at.getByRole("alert")).toContainText("got 999");
  await expect(form).toBeVisible();
  // A bound the table states is mirrored before anything is sent
  await form.getByTestId("param-job_racks").fill("0");
  await form.getByTestId("sim-run").click();
  await expect(at.getByRole("alert")).toHaveText("must be at least 1");
});
