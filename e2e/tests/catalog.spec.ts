/**
 * Issue 24 item 10, as a person does it: the Device models page lists the builtin server, switch and
 * rack models read-only; a user creates their own, is told under the field what the API refused,
 * edits one, and deletes one.
 */
import { expect, request as apiRequest, test, type Locator } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = "violet tractor meadow 42";

/** The error shown under the field labelled `label` of `form`. */
async function fieldError(form: Locator, label: string): Promise<string> {
  const input = form.getByLabel(label, { exact: true });
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const ids = ((await input.getAttribute("aria-describedby")) ?? "").split(" ").filter((i) => i.endsWith("-error"));
  return (await form.page().locator(`[id="${ids[0]}"]`).textContent()) ?? "";
}

test("device models: builtin ones read-only, own ones created, refused on the field, edited and deleted", async ({ page, baseURL }) => {
  const email = `models-${unique()}@example.com`;
  const api = await apiRequest.newContext({ baseURL });
  expect((await api.post("/api/v1/auth/register", { data: { email, password: PASSWORD } })).status()).toBe(202);
  await page.goto("/");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("link", { name: "Device models" }).click();
  await expect(page).toHaveURL(/\/catalog$/);

  // Builtin entries: listed, marked read-only, no Edit or Delete.
  const servers = page.getByTestId("catalog-server-models");
  const builtin = servers.getByTestId("entry-2x25G server");
  await expect(builtin).toContainText("builtin (read-only)");
  await expect(builtin).toContainText("25 Gb/s");
  await expect(builtin.getByRole("button")).toHaveCount(0);

  // A new server model: the API's refusals show under their fields.
  await servers.getByRole("button", { name: "New server model" }).click();
  let form = servers.getByRole("form", { name: "New server model" });
  await form.getByLabel("Name", { exact: true }).fill("2x25G server");
  await form.getByLabel("NIC ports", { exact: true }).fill("0");
  await form.getByLabel("Port speed (Gb/s)").fill("100");
  await form.getByLabel("Height (U)").fill("2");
  await form.getByRole("button", { name: "Create" }).click();
  expect(await fieldError(form, "NIC ports")).toBe("NIC ports must be at least 1.");
  await form.getByLabel("NIC ports", { exact: true }).fill("4");
  await form.getByRole("button", { name: "Create" }).click();
  expect(await fieldError(form, "Name")).toBe("A server model named '2x25G server' already exists.");
  await form.getByLabel("Name", { exact: true }).fill("4x100G server");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(form).toBeHidden();
  const mine = servers.getByTestId("entry-4x100G server");
  await expect(mine).toHaveText(/^4x100G server4100 Gb\/s2 Uyours/);

  // Edit it: a speed that is not a number is refused on the field, then a good one is saved.
  await mine.getByRole("button", { name: "Edit" }).click();
  form = servers.getByRole("form", { name: "Edit server model “4x100G server”" });
  await expect(form.getByLabel("NIC ports", { exact: true })).toHaveValue("4");
  await form.getByLabel("Port speed (Gb/s)").fill("fast");
  await form.getByRole("button", { name: "Save" }).click();
  expect(await fieldError(form, "Port speed (Gb/s)")).toBe("Port speed must be a number.");
  await form.getByLabel("Port speed (Gb/s)").fill("200");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form).toBeHidden();
  await expect(mine).toContainText("200 Gb/s");
  const stored = (await (await page.request.get("/api/v1/catalog/server-models?limit=500")).json()).items as {
    name: string;
    nic_ports: number;
    port_gbps: number;
    height_u: number;
    version: number;
  }[];
  expect(stored.find((s) => s.name === "4x100G server")).toMatchObject({ nic_ports: 4, port_gbps: 200, height_u: 2, version: 2 });

  // A rack type: a width below the API's 0.3 m is refused on the field.
  const racks = page.getByTestId("catalog-rack-types");
  await expect(racks.getByTestId("entry-42U 600x1200")).toContainText("builtin (read-only)");
  await racks.getByRole("button", { name: "New rack type" }).click();
  form = racks.getByRole("form", { name: "New rack type" });
  await form.getByLabel("Name", { exact: true }).fill("47U 800x1200");
  await form.getByLabel("Width (m)").fill("0.2");
  await form.getByLabel("Depth (m)").fill("1.2");
  await form.getByLabel("Height (U)").fill("47");
  await form.getByRole("button", { name: "Create" }).click();
  expect(await fieldError(form, "Width (m)")).toBe("Width must be at least 0.3 m.");
  await form.getByLabel("Width (m)").fill("0.8");
  await form.getByRole("button", { name: "Create" }).click();
  await expect(racks.getByTestId("entry-47U 800x1200")).toHaveText(/^47U 800x12000.8 m1.2 m47 Uyours/);

  // A switch model, created and deleted after confirming.
  const switches = page.getByTestId("catalog-switch-models");
  await switches.getByRole("button", { name: "New switch model" }).click();
  form = switches.getByRole("form", { name: "New switch model" });
  await form.getByLabel("Name", { exact: true }).fill("32x100G leaf");
  await form.getByLabel("Server ports", { exact: true }).fill("24");
  await form.getByLabel("Server port speed (Gb/s)").fill("100");
  await form.getByLabel("Uplink ports", { exact: true }).fill("8");
  await form.getByLabel("Uplink speed (Gb/s)").fill("400");
  await form.getByLabel("Height (U)").fill("1");
  await form.getByRole("button", { name: "Create" }).click();
  const leaf = switches.getByTestId("entry-32x100G leaf");
  await expect(leaf).toContainText("yours");
  await page.screenshot({ path: "artifacts/catalog-page.png", fullPage: true });
  await leaf.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete switch model “32x100G leaf”?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(leaf).toHaveCount(0);
  const left = (await (await page.request.get("/api/v1/catalog/switch-models?limit=500")).json()).items as { name: string }[];
  expect(left.map((s) => s.name)).not.toContain("32x100G leaf");
});
