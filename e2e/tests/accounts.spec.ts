/**
 * Accounts and projects in the browser, as a new user would: sign up, land on the empty state,
 * create a project and a hall, open it, rename the project, add a member, create / copy / revoke an
 * API token (checked against the API with the copied secret), export and import a project, delete
 * one, log out and back in. Every step is done through the page; the API is only asked to check.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from "@playwright/test";
import { readFileSync, writeFileSync } from "node:fs";
import { ARTIFACTS, waitForEditor } from "./helpers";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = "violet tractor meadow 42";

/** A request context of its own (no cookies of the page), optionally with a bearer token. */
async function apiAs(baseURL: string, token?: string): Promise<APIRequestContext> {
  return playwrightRequest.newContext({
    baseURL,
    extraHTTPHeaders: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

async function projectRows(page: Page) {
  return page.getByRole("table", { name: "Projects" }).locator("tbody tr");
}

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

test("a new account: sign up, projects, halls, members, tokens, export/import, delete, log out and in", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const email = `ada-${unique()}@example.com`;
  const projectName = `Frankfurt DC2 ${unique()}`;

  // ---- sign up (a weak password is refused with the reason under the field)
  await page.goto("/");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  const signUp = page.getByRole("form", { name: "Create an account" });
  await signUp.getByLabel("Email").fill(email);
  await signUp.getByLabel("Your name").fill("Ada");
  await signUp.getByLabel("Password").fill("password1");
  await signUp.getByRole("button", { name: "Create account" }).click();
  const passwordError = signUp.locator(".field.has-error").filter({ has: page.getByLabel("Password") }).getByRole("alert");
  await expect(passwordError).toContainText("Too easy to guess");
  await expect(passwordError).not.toContainText("password:");
  // Too short is said before anything is sent.
  await signUp.getByLabel("Password").fill("short");
  await signUp.getByRole("button", { name: "Create account" }).click();
  await expect(passwordError).toHaveText("Password needs at least 8 characters.");
  await signUp.getByLabel("Password").fill(PASSWORD);
  await signUp.getByRole("button", { name: "Create account" }).click();

  // ---- the empty state says what to do next
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId("me")).toHaveText(email);
  const empty = page.getByTestId("empty-state");
  await expect(empty).toContainText("Start with a project");
  await expect(empty).toContainText("Add a hall");
  await page.screenshot({ path: `${ARTIFACTS}/accounts-empty-state.png` });

  // ---- create a project (an empty name is refused next to the field)
  const newProject = page.getByRole("form", { name: "New project" });
  await newProject.getByRole("button", { name: "Create project" }).click();
  await expect(newProject.getByRole("alert")).toHaveText("Project name is required.");
  await newProject.getByLabel("Project name").fill(projectName);
  await newProject.getByRole("button", { name: "Create project" }).click();
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  const projectId = Number(/\/projects\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(projectName);
  await expect(page.getByTestId("empty-halls")).toContainText("no hall yet");

  // ---- create a hall: a bad size is refused in words, then it opens in the editor
  const newHall = page.getByRole("form", { name: "New hall" });
  await newHall.getByLabel("Hall name").fill("H1");
  await newHall.getByLabel("Floor width (m)").fill("0");
  await newHall.getByLabel("Floor depth (m)").fill("16");
  await newHall.getByLabel("Minimum cold aisle (m)").fill("1.5");
  await newHall.getByRole("button", { name: "Create hall" }).click();
  await expect(newHall.getByText("Floor width must be more than 0 m.")).toBeVisible();
  await newHall.getByLabel("Floor width (m)").fill("24");
  await newHall.getByRole("button", { name: "Create hall" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/halls/\\d+$`));
  await waitForEditor(page);
  const hallId = Number(/\/halls\/(\d+)$/.exec(page.url())![1]);
  const hall = await (await page.request.get(`/api/v1/halls/${hallId}`)).json();
  expect([hall.name, hall.width_m, hall.depth_m, hall.min_cold_aisle_m, hall.min_hot_aisle_m]).toEqual(["H1", 24, 16, 1.5, 0.9]);
  const crumbs = page.getByTestId("crumbs");
  const hallPicker = crumbs.getByRole("combobox", { name: "Hall" });
  await expect(crumbs.getByRole("link", { name: projectName })).toBeVisible();
  await expect(hallPicker).toHaveValue(String(hallId));
  await expect(hallPicker.locator("option:checked")).toHaveText("H1");
  // The address survives a reload: the same hall opens again.
  await page.reload();
  await waitForEditor(page);
  await expect(hallPicker).toHaveValue(String(hallId));
  await page.screenshot({ path: `${ARTIFACTS}/accounts-new-hall-editor.png` });

  // The breadcrumb leads back to the project (its hall listed) and to the list.
  await page.getByTestId("crumbs").getByRole("link", { name: projectName }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}$`));
  await expect(page.getByTestId(`hall-${hallId}`)).toContainText("24 × 16 m");
  // A second hall (the list has one now: "New hall" opens the form), then the picker switches halls.
  await page.getByRole("button", { name: "New hall" }).click();
  await newHall.getByLabel("Hall name").fill("H2");
  await newHall.getByRole("button", { name: "Create hall" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/halls/\\d+$`));
  await waitForEditor(page);
  const hall2Id = Number(/\/halls\/(\d+)$/.exec(page.url())![1]);
  expect(hall2Id).not.toBe(hallId);
  await expect(hallPicker.locator("option")).toHaveText(["H1", "H2"]);
  await hallPicker.selectOption("H1");
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/halls/${hallId}$`));
  await waitForEditor(page);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/halls/${hall2Id}$`));
  await expect(hallPicker).toHaveValue(String(hall2Id));
  // Delete H2 from the project page (after confirming).
  await crumbs.getByRole("link", { name: projectName }).click();
  await page.getByRole("button", { name: "Delete hall H2" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete hall" }).click();
  await expect(page.getByTestId(`hall-${hall2Id}`)).toHaveCount(0);
  expect((await page.request.get(`/api/v1/halls/${hall2Id}`)).status()).toBe(404);
  await page.getByTestId("crumbs").getByRole("link", { name: "Projects" }).click();
  await expect(page).toHaveURL(/\/projects$/);

  // ---- rename the project
  const renamed = `${projectName} (25G study)`;
  const row = page.getByTestId(`project-${projectId}`);
  await row.getByRole("button", { name: "Rename" }).click();
  await row.getByLabel("New name").fill("");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("alert")).toHaveText("Project name is required.");
  await row.getByLabel("New name").fill(renamed);
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByRole("link", { name: renamed })).toBeVisible();
  expect((await (await page.request.get(`/api/v1/projects/${projectId}`)).json()).name).toBe(renamed);

  // ---- invite a member: a second account, created through the API; the invitation's answer is the
  // same for an address without an account, so the form tells nothing about who is registered.
  const bobEmail = `bob-${unique()}@example.com`;
  const bob = await apiAs(baseURL!);
  expect((await bob.post("/api/v1/auth/register", { data: { email: bobEmail, password: PASSWORD, display_name: "Bob" } })).ok()).toBe(true);
  await row.getByRole("link", { name: renamed }).click();
  const members = page.getByTestId("members");
  const inviteForm = members.getByRole("form", { name: "Invite a member" });
  await inviteForm.getByLabel("Invite by email").fill(`nobody-${unique()}@example.com`);
  await inviteForm.getByRole("button", { name: "Invite" }).click();
  await expect(members.getByTestId("invitation-link")).toContainText("Invitation for nobody-");
  await inviteForm.getByLabel("Invite by email").fill(bobEmail);
  await inviteForm.getByLabel("Role").selectOption("viewer");
  await inviteForm.getByRole("button", { name: "Invite" }).click();
  await expect(members.getByTestId("invitation-link")).toContainText(`Invitation for ${bobEmail} as Viewer`);
  const link = await members.getByLabel("Invitation link").inputValue();
  const inviteSecret = link.split("#")[1]!;
  expect((await bob.post("/api/v1/auth/login", { data: { email: bobEmail, password: PASSWORD } })).ok()).toBe(true);
  expect((await bob.post("/api/v1/auth/invitations/accept", { data: { token: inviteSecret } })).ok()).toBe(true);
  await page.reload();
  await expect(members.getByTestId(`member-${email}`)).toContainText("Ada (you)");
  const bobRow = members.getByTestId(`member-${bobEmail}`);
  await expect(bobRow).toContainText("Bob");
  await expect(bobRow.getByLabel(`Role of ${bobEmail}`)).toHaveValue("viewer");
  await bobRow.getByLabel(`Role of ${bobEmail}`).selectOption("editor");
  await expect
    .poll(async () => {
      const list = (await (await page.request.get(`/api/v1/projects/${projectId}/members`)).json()).items as { email: string; role: string }[];
      return list.find((m) => m.email === bobEmail)?.role;
    })
    .toBe("editor");
  // Bob (logged in through the API) now sees the project.
  const bobProjects = (await (await bob.get("/api/v1/projects")).json()).items as { id: number; role: string }[];
  expect(bobProjects.find((p) => p.id === projectId)?.role).toBe("editor");
  await page.screenshot({ path: `${ARTIFACTS}/accounts-project-page.png` });

  // ---- API tokens: create one with chosen scopes, copy its secret, use it
  await page.getByRole("link", { name: "API tokens" }).click();
  await expect(page).toHaveURL(/\/account\/tokens$/);
  const newToken = page.getByRole("form", { name: "New API token" });
  // Every scope the API offers (its OpenAPI document) can be chosen, and nothing else.
  const offered: string[] = (await (await page.request.get("/openapi.json")).json()).components.schemas.Scope.enum;
  expect(offered).toContain("layout:read");
  await expect(newToken.locator('input[name="scope"]')).toHaveCount(offered.length);
  for (const scope of offered) await expect(newToken.locator(`input[name="scope"][value="${scope}"]`)).toBeVisible();
  await newToken.getByLabel("Name").fill("procurement export");
  await newToken.locator('input[value="layout:read"]').uncheck();
  await newToken.getByRole("button", { name: "Create token" }).click();
  await expect(newToken.getByRole("alert")).toHaveText("Choose at least one scope.");
  await newToken.locator('input[value="layout:read"]').check();
  await newToken.locator('input[value="bom:read"]').check();
  await newToken.getByRole("button", { name: "Create token" }).click();
  const secretBox = page.getByTestId("token-secret");
  await expect(secretBox).toContainText("not shown again");
  await secretBox.getByRole("button", { name: "Copy", exact: true }).click();
  await expect(secretBox.getByRole("button", { name: "Copied", exact: true })).toBeVisible();
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toMatch(/^llt_/);
  await expect(secretBox.getByLabel("Token secret")).toHaveValue(secret);
  await page.screenshot({ path: `${ARTIFACTS}/accounts-token-secret.png`, fullPage: true });
  const program = await apiAs(baseURL!, secret);
  const read = await program.get("/api/v1/projects");
  expect(read.status()).toBe(200);
  expect(((await read.json()).items as { id: number }[]).map((p) => p.id)).toContain(projectId);
  // layout:write was not chosen: creating a project is refused.
  expect((await program.post("/api/v1/projects", { data: { name: "not allowed" } })).status()).toBe(403);
  // Listed, with its last use.
  await page.reload();
  const tokens = (await (await page.request.get("/api/v1/tokens")).json()).items as { id: number; name: string; scopes: string[] }[];
  const token = tokens.find((t) => t.name === "procurement export")!;
  expect(token.scopes.sort()).toEqual(["bom:read", "layout:read"]);
  const tokenRow = page.getByTestId(`token-${token.id}`);
  await expect(tokenRow).toContainText("procurement export");
  await expect(tokenRow).toContainText(secret.slice(0, 8));
  await expect(tokenRow.getByTestId("last-used")).not.toHaveText("never");
  await expect(page.getByTestId("token-secret")).toHaveCount(0);
  // Revoke: the token stops working.
  await tokenRow.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(tokenRow.getByTestId("token-state")).toContainText("Revoked");
  expect((await program.get("/api/v1/projects")).status()).toBe(401);

  // ---- export the project and import it back
  await page.getByTestId("crumbs").getByRole("link", { name: "Projects" }).click();
  await expect(await projectRows(page)).toHaveCount(1);
  const downloading = page.waitForEvent("download");
  await page.getByTestId(`project-${projectId}`).getByRole("link", { name: "Export" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.loopline\.json$/);
  const file = `${ARTIFACTS}/accounts-export.json`;
  await download.saveAs(file);
  const doc = JSON.parse(readFileSync(file, "utf8"));
  expect([doc.format, doc.project.name]).toEqual(["loopline.project", renamed]);
  expect(doc.halls.map((h: { name: string }) => h.name)).toEqual(["H1"]);
  await page.getByTestId("import-file").setInputFiles(file);
  await expect(page).toHaveURL(/\/projects\/\d+$/);
  const importedId = Number(/\/projects\/(\d+)$/.exec(page.url())![1]);
  expect(importedId).not.toBe(projectId);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await expect(page.getByRole("list", { name: "Halls" })).toContainText("H1");
  await page.getByTestId("crumbs").getByRole("link", { name: "Projects" }).click();
  await expect(await projectRows(page)).toHaveCount(2);
  // A file that is not an export is refused in words.
  await page.getByTestId("import-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from("just some notes") });
  await expect(page.getByText("notes.json is not a Loopline project export (it is not JSON).")).toBeVisible();
  await page.getByTestId("import-file").setInputFiles({ name: "other.json", mimeType: "application/json", buffer: Buffer.from('{"rows": []}') });
  await expect(page.getByText("other.json is not a Loopline project export.")).toBeVisible();
  await expect(await projectRows(page)).toHaveCount(2);

  // ---- delete the imported project (after confirming)
  await page.getByTestId(`project-${importedId}`).getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("cannot be undone");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(await projectRows(page)).toHaveCount(2);
  await page.getByTestId(`project-${importedId}`).getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete project" }).click();
  await expect(await projectRows(page)).toHaveCount(1);
  expect((await page.request.get(`/api/v1/projects/${importedId}`)).status()).toBe(404);

  // ---- log out and back in
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page.getByRole("form", { name: "Log in" })).toBeVisible();
  expect((await page.request.get("/api/v1/auth/me")).status()).toBe(401);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId(`project-${projectId}`)).toContainText(renamed);

  // ---- a session that ends while the page is open: log in again, on the same address
  await page.context().clearCookies();
  await page.getByTestId(`project-${projectId}`).getByRole("link", { name: renamed }).click();
  await expect(page.getByRole("form", { name: "Log in" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}$`));
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(renamed);
  await bob.dispose();
  await program.dispose();
});

test("an old ?project=&hall= link opens the hall once logged in, at its canonical address", async ({ page }) => {
  // The demo account owns the seeded project; its first hall is what the old links name.
  const email = "demo@loopline.local";
  await page.goto("/");
  const ctx = page.request;
  expect((await ctx.post("/api/v1/auth/login", { data: { email, password: "loopline-demo" } })).ok()).toBe(true);
  const project = (await (await ctx.get("/api/v1/projects")).json()).items[0];
  const hall = (await (await ctx.get(`/api/v1/projects/${project.id}/halls`)).json()).items[0];
  await page.goto(`/?project=${project.id}&hall=${hall.id}`);
  await waitForEditor(page);
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/halls/${hall.id}$`));
  await expect(page.getByTestId("crumbs").getByRole("link", { name: project.name })).toBeVisible();
  await expect(page.getByTestId("crumbs").getByRole("combobox", { name: "Hall" })).toHaveValue(String(hall.id));
  // A hall id under the wrong project is corrected from the hall itself.
  const other = await (await ctx.post("/api/v1/projects", { data: { name: `zz elsewhere ${unique()}` } })).json();
  await page.goto(`/projects/${other.id}/halls/${hall.id}`);
  await waitForEditor(page);
  await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/halls/${hall.id}$`));
  expect((await ctx.delete(`/api/v1/projects/${other.id}`, { headers: { "If-Match": `"${other.version}"` } })).status()).toBe(204);
});

test("a large project document is imported as a job with a progress bar; a refused one says where and why", async ({ page }) => {
  test.setTimeout(180_000);
  // The account is made through the API (the page's sign-up is covered above); the page logs in.
  const email = `imp-${unique()}@example.com`;
  expect((await page.request.post("/api/v1/auth/register", { data: { email, password: PASSWORD } })).ok()).toBe(true);
  await page.request.post("/api/v1/auth/logout");
  await page.goto("/projects");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("empty-state")).toBeVisible();
  const api = page.request;
  const source = await (await api.post("/api/v1/projects", { data: { name: "source" } })).json();
  expect((await api.post(`/api/v1/projects/${source.id}/halls`, { data: { name: "H1", width_m: 12, depth_m: 9 } })).status()).toBe(201);
  const doc = await (await api.get(`/api/v1/projects/${source.id}/export`)).json();
  // 21 halls: more than the API imports in the request, so it answers 202 with a job.
  const big = { ...doc, project: { name: `big import ${unique()}`, description: "" }, halls: Array.from({ length: 21 }, (_, i) => ({ ...doc.halls[0], name: `H${String(i + 1).padStart(2, "0")}` })) };
  const file = `${ARTIFACTS}/accounts-big-import.json`;
  writeFileSync(file, JSON.stringify(big));
  await page.reload();
  await page.getByTestId("import-file").setInputFiles(file);
  await expect(page.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  await expect(page).toHaveURL(/\/projects\/\d+$/, { timeout: 90_000 });
  const importedId = Number(/\/projects\/(\d+)$/.exec(page.url())![1]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(big.project.name);
  await expect(page.getByRole("list", { name: "Halls" }).getByRole("listitem")).toHaveCount(21);
  const jobs = (await (await api.get("/api/v1/projects/imports")).json()).items as { status: string; project_id: number | null; halls_total: number }[];
  expect(jobs[0]).toMatchObject({ status: "succeeded", project_id: importedId, halls_total: 21 });

  // Refused in the request (a small document): the hall and the field, in the form's words.
  await page.getByTestId("crumbs").getByRole("link", { name: "Projects" }).click();
  const badSmall = { ...doc, halls: [{ ...doc.halls[0], width_m: -5 }] };
  await page.getByTestId("import-file").setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(badSmall)) });
  await expect(page.getByText("Hall 1: Floor width must be more than 0 m.")).toBeVisible();
  // Refused by the job (a large document): the same, from the job's errors.
  const badBig = { ...big, halls: big.halls.map((h: object, i: number) => (i === 3 ? { ...h, width_m: -5 } : h)) };
  await page.getByTestId("import-file").setInputFiles({ name: "bad-big.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(badBig)) });
  await expect(page.getByText(/^Hall 4: Floor width (must be more than 0 m|should be greater than 0)\.$/)).toBeVisible({ timeout: 90_000 });
  await expect(await projectRows(page)).toHaveCount(2);
});
