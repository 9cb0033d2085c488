/** The HTTP calls of the project, hall, member and token screens (types generated from OpenAPI). */
import type { components } from "../api/schema";
import { request } from "../sync/http";

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

/** A background import: what the API answers 202 with when a document is too big for one request. */
export interface ImportJob {
  id: number;
  status: string;
  progress?: number | null;
  error?: string | null;
  result?: ImportResult | null;
  project_id?: number | null;
}

export function isImportResult(x: unknown): x is ImportResult {
  return typeof x === "object" && x !== null && "project_id" in x && "halls" in x && "racks" in x;
}

export const importProject = (doc: unknown) =>
  request<ImportResult | ImportJob>("POST", "/projects/import", { body: doc });

// ------------------------------------------------------------------ halls

export const listHalls = (projectId: number) => all<Hall>(`/projects/${projectId}/halls`);
export const getHall = (id: number) => request<Hall>("GET", `/halls/${id}`);
export const createHall = (projectId: number, body: S["HallCreate"]) =>
  request<Hall>("POST", `/projects/${projectId}/halls`, { body });
export const deleteHall = (h: Hall) => request<undefined>("DELETE", `/halls/${h.id}`, { version: h.version });

// ------------------------------------------------------------------ members

export const listMembers = (projectId: number) => all<Member>(`/projects/${projectId}/members`);
export const addMember = (projectId: number, email: string, role: Role) =>
  request<Member>("POST", `/projects/${projectId}/members`, { body: { email, role } });
export const changeRole = (projectId: number, m: Member, role: Role) =>
  request<Member>("PATCH", `/projects/${projectId}/members/${m.user_id}`, { body: { role }, version: m.version });
export const removeMember = (projectId: number, m: Member) =>
  request<undefined>("DELETE", `/projects/${projectId}/members/${m.user_id}`, { version: m.version });

// ------------------------------------------------------------------ tokens

export const listTokens = () => all<Token>("/tokens");
export const createToken = (name: string, scopes: Scope[], expiresInDays: number | null) =>
  request<TokenCreated>("POST", "/tokens", { body: { name, scopes, expires_in_days: expiresInDays } });
export const revokeToken = (t: Token) => request<undefined>("DELETE", `/tokens/${t.id}`);
