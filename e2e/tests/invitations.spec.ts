/**
 * Issue 24 item 4, as the people involved do it: an owner invites an address that has no account
 * yet; the invitee opens the link, registers with that address and lands in the project with the
 * invited role; the owner sees them among the members and the invitation gone from the pending list.
 */
import { expect, request as apiRequest, test } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const PASSWORD = "violet tractor meadow 42";

test("an owner invites an address without an account; the invitee registers with the link and has the role", async ({
  page,
  browser,
  baseURL,
}) => {
  // The owner: an account and a project, made through the API.
  const ownerEmail = `owner-${unique()}@example.com`;
  const api = await apiRequest.newContext({ baseURL });
  expect((await api.post("/api/v1/auth/register", { data: { email: ownerEmail, password: PASSWORD } })).status()).toBe(202);
  const projectName = `Invited ${unique()}`;
  await page.goto("/");
  await page.locator('input[name="email"]').fill(ownerEmail);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByTestId("me")).toHaveText(ownerEmail);
  const created = await page.request.post("/api/v1/projects", { data: { name: projectName } });
  expect(created.status()).toBe(201);
  const projectId = (await created.json()).id as number;

  // Invite by email, as viewer: the link is shown once.
  await page.goto(`/projects/${projectId}`);
  const members = page.getByTestId("members");
  const form = members.getByRole("form", { name: "Invite a member" });
  const invitee = `carol-${unique()}@example.com`;
  await form.getByLabel("Invite by email").fill(invitee);
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByRole("button", { name: "Invite" }).click();
  const shown = members.getByTestId("invitation-link");
  await expect(shown).toContainText(`Invitation for ${invitee} as Viewer`);
  const link = await shown.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(new RegExp(`^${baseURL}/invite#lli_[A-Za-z0-9_-]{43}$`));
  const pending = members.getByRole("table", { name: "Pending invitations" });
  await expect(pending).toContainText(invitee);
  await expect(pending).toContainText("Viewer");
  // Only the owner is a member until the invitation is accepted.
  await expect(members.getByTestId(`member-${invitee}`)).toHaveCount(0);

  // The invitee, in a browser of their own: open the link, register with the invited address.
  const theirs = await browser.newContext({ baseURL });
  const carol = await theirs.newPage();
  await carol.goto(link);
  await expect(carol.getByTestId("invitation-offer")).toHaveText(
    `You are invited to ${projectName} as Viewer (sees the layouts, plans and results). The invitation is for ${invitee}.`,
  );
  // The secret left the address bar (it stays in this tab for the sign-up).
  expect(new URL(carol.url()).hash).toBe("");
  const signUp = carol.getByRole("form", { name: "Create an account" });
  await expect(signUp.getByLabel("Email")).toHaveValue(invitee);
  await signUp.getByLabel("Your name").fill("Carol");
  await signUp.getByLabel("Password").fill(PASSWORD);
  await signUp.getByRole("button", { name: "Create account" }).click();

  // Accepted: the project opens, with the viewer's rights.
  await expect(carol).toHaveURL(new RegExp(`/projects/${projectId}$`));
  await expect(carol.getByTestId("project-page")).toContainText(projectName);
  await expect(carol.getByTestId("members")).toContainText("Only an owner of the project can invite members or change roles.");
  const mine = (await (await carol.request.get("/api/v1/projects")).json()).items as { id: number; role: string }[];
  expect(mine).toEqual([expect.objectContaining({ id: projectId, role: "viewer" })]);
  await carol.screenshot({ path: "artifacts/invitation-accepted.png" });

  // The owner sees Carol as a viewer and no pending invitation.
  await page.reload();
  await expect(members.getByTestId(`member-${invitee}`)).toContainText("Carol");
  await expect(members.getByTestId(`member-${invitee}`).getByLabel(`Role of ${invitee}`)).toHaveValue("viewer");
  await expect(members.getByRole("table", { name: "Pending invitations" })).toHaveCount(0);

  // The link is used up: opened again, it says so.
  const later = await (await browser.newContext({ baseURL })).newPage();
  await later.goto(link);
  await expect(later.getByTestId("invitation").getByRole("alert")).toContainText("unknown, expired, revoked or already used");
  await theirs.close();
});
