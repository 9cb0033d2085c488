/** The HTTP calls of the project, hall, member and token screens (types generated from OpenAPI). */
import type { components } from "../api/schema";
import { API, ApiError, request as send, type ErrorItem } from "../sync/http";

type S = components["schemas"];
export type Project = S["ProjectRead"];
export type Hall = S["HallRead"];
export type Member = S["MemberRead"];
export type Role = S["Role"];
export type Token = S["TokenRead"];
export type TokenCreated = S["TokenCreated"];
export type Scope = S["Scope"];
export type User = S["UserRead"];
export type Me = S["MeRead"];
export type ImportResult = S["ImportResult"];
export type Invitation = S["InvitationRead"];
export type InvitationCreated = S["InvitationCreated"];
export type InvitationPreview = S["InvitationPreviewRead"];
export type InvitationAccepted = S["InvitationAccepted"];

/** Dispatched on `window` when the API answers 401: the session ended (expired, logged out elsewhere). */
export const SESSION_ENDED = "loopline:session-ended";

/** `sync/http.ts`'s request, telling the app shell when the session has ended. */
async function request<T>(...args: Parameters<typeof send>): Promise<T> {
  try {
    return await send<T>(...args);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401 && args[1] !== "/auth/login" && args[1] !== "/auth/me")
      window.dispatchEvent(new Event(SESSION_ENDED));
    throw e;
  }
}

interface Page<T> {
  items: T[];
  total: number;
}

/** Every page of a listing (the API pages at most 500 a request). */
async function all<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const got = await request<Page<T>>("GET", `${path}${sep}limit=500&page=${page}`);
    out.push(...got.items);
    if (got.items.length < 500 || out.length >= got.total) return out;
  }
}

// ------------------------------------------------------------------ accounts

export const me = () => request<Me>("GET", "/auth/me");
export const login = (email: string, password: string) =>
  request<User>("POST", "/auth/login", { body: { email, password } });
export const logout = () => request<undefined>("POST", "/auth/logout");

/** Create an account, then log in with it (registration answers the same whether or not the
 * email is taken, so the login is what says whether it worked). */
export async function register(email: string, password: string, displayName: string): Promise<Me> {
  await request<unknown>("POST", "/auth/register", { body: { email, password, display_name: displayName } });
  await login(email, password);
  return me();
}

// ------------------------------------------------------------------ projects

export const listProjects = () => all<Project>("/projects");
export const getProject = (id: number) => request<Project>("GET", `/projects/${id}`);
export const createProject = (name: string, description: string) =>
  request<Project>("POST", "/projects", { body: { name, description } });
export const renameProject = (p: Project, name: string) =>
  request<Project>("PATCH", `/projects/${p.id}`, { body: { name }, version: p.version });
export const deleteProject = (p: Project) => request<undefined>("DELETE", `/projects/${p.id}`, { version: p.version });
export const exportUrl = (id: number) => `/api/v1/projects/${id}/export`;

export type ImportJob = S["ImportJobRead"];

/**
 * Send a project document as it is (a large one is not parsed and re-serialised in the page). The API
 * imports a small document in the request (201) and queues a large one as a job (202) to poll.
 */
export async function importProject(file: Blob): Promise<{ done: ImportResult } | { job: ImportJob }> {
  let res: Response;
  try {
    res = await fetch(`${API}/projects/import`, {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      credentials: "same-origin",
      body: file,
    });
  } catch (e) {
    throw new ApiError(0, [{ loc: [], msg: `network error: ${(e as Error).message}` }]);
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const detail = (data as { detail?: unknown } | null)?.detail;
    throw new ApiError(
      res.status,
      Array.isArray(detail)
        ? (detail as ErrorItem[])
        : [{ loc: [], msg: typeof detail === "string" ? detail : `HTTP ${res.status}` }],
    );
  }
  return res.status === 202 ? { job: data as ImportJob } : { done: data as ImportResult };
}

export const getImport = (id: number) => request<ImportJob>("GET", `/projects/imports/${id}`);

// ------------------------------------------------------------------ halls

export const listHalls = (projectId: number) => all<Hall>(`/projects/${projectId}/halls`);
export const getHall = (id: number) => request<Hall>("GET", `/halls/${id}`);
type AisleMinimums = "min_cold_aisle_m" | "min_hot_aisle_m";
/** `HallCreate`; the aisle minimums may be left out, and the server applies its own. */
export type HallCreateBody = Omit<S["HallCreate"], AisleMinimums> & Partial<Pick<S["HallCreate"], AisleMinimums>>;
export const createHall = (projectId: number, body: HallCreateBody) =>
  request<Hall>("POST", `/projects/${projectId}/halls`, { body });
export const deleteHall = (h: Hall) => request<undefined>("DELETE", `/halls/${h.id}`, { version: h.version });

// ------------------------------------------------------------------ members

export const listMembers = (projectId: number) => all<Member>(`/projects/${projectId}/members`);
export const changeRole = (projectId: number, m: Member, role: Role) =>
  request<Member>("PATCH", `/projects/${projectId}/members/${m.user_id}`, { body: { role }, version: m.version });
export const removeMember = (projectId: number, m: Member) =>
  request<undefined>("DELETE", `/projects/${projectId}/members/${m.user_id}`, { version: m.version });

// ------------------------------------------------------------------ invitations

export const listInvitations = (projectId: number) => all<Invitation>(`/projects/${projectId}/invitations`);
export const invite = (projectId: number, email: string, role: Role) =>
  request<InvitationCreated>("POST", `/projects/${projectId}/invitations`, { body: { email, role } });
export const revokeInvitation = (projectId: number, i: Invitation) =>
  request<undefined>("DELETE", `/projects/${projectId}/invitations/${i.id}`, { version: i.version });
/** The link's secret goes in a body, never in an address (logs, history). */
export const previewInvitation = (token: string) =>
  request<InvitationPreview>("POST", "/auth/invitations/preview", { body: { token } });
export const acceptInvitation = (token: string) =>
  request<InvitationAccepted>("POST", "/auth/invitations/accept", { body: { token } });

// ------------------------------------------------------------------ catalog

export type CatalogKind = "server-models" | "switch-models" | "rack-types";
export type CatalogEntry = S["ServerModelRead"] | S["SwitchModelRead"] | S["RackTypeRead"];
export const listCatalog = (kind: CatalogKind) => all<CatalogEntry>(`/catalog/${kind}`);
export const createCatalogEntry = (kind: CatalogKind, body: Record<string, unknown>) =>
  request<CatalogEntry>("POST", `/catalog/${kind}`, { body });
export const updateCatalogEntry = (kind: CatalogKind, e: CatalogEntry, body: Record<string, unknown>) =>
  request<CatalogEntry>("PATCH", `/catalog/${kind}/${e.id}`, { body, version: e.version });
export const deleteCatalogEntry = (kind: CatalogKind, e: CatalogEntry) =>
  request<undefined>("DELETE", `/catalog/${kind}/${e.id}`, { version: e.version });

// ------------------------------------------------------------------ tokens

export const listTokens = () => all<Token>("/tokens");
export const createToken = (name: string, scopes: Scope[], expiresInDays: number | null) =>
  request<TokenCreated>("POST", "/tokens", { body: { name, scopes, expires_in_days: expiresInDays } });
export const revokeToken = (t: Token) => request<undefined>("DELETE", `/tokens/${t.id}`);
