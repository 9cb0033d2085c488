/**
 * The app's addresses. Every screen has one, so a reload or a shared link opens the same screen:
 *
 *   /projects                          your projects (also `/`)
 *   /projects/:id                      one project: halls, members, settings
 *   /projects/:id/halls/:hallId        the editor (`?plan=<id>` also opens a wiring plan)
 *   /account/tokens                    API tokens
 *   /catalog                           device models (server, switch, rack)
 *   /signup                            create an account
 *   /invite#<secret>                   accept an invitation (the secret stays in the fragment)
 *
 * The older links `/?project=<id>&hall=<id>&plan=<id>` (tests, the benchmark, bookmarks) still open
 * the same hall; they are rewritten to the path form on arrival.
 *
 * Plain History API rather than a router library: five screens, typed routes and the legacy query
 * form need a parse/format pair of our own either way (tested in route.test.ts), and the rest is a
 * `popstate` listener.
 */
import { useSyncExternalStore, type MouseEvent } from "react";

export type Route =
  | { name: "projects" }
  | { name: "project"; projectId: number }
  | { name: "hall"; projectId: number; hallId: number; planId: number | null }
  | { name: "tokens" }
  | { name: "catalog" }
  | { name: "signup" }
  | { name: "invite" }
  | { name: "notFound"; path: string };

const MAX_ID = 2 ** 31 - 1;

/** A positive integer id as the API takes it, or null. */
function id(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= MAX_ID ? n : null;
}

/** The route of an address (`location.pathname`, `location.search`). */
export function parseRoute(pathname: string, search = ""): Route {
  const query = new URLSearchParams(search);
  const path = pathname.replace(/\/+$/, "") || "/";
  if (path === "/") {
    const projectId = id(query.get("project"));
    const hallId = id(query.get("hall"));
    if (projectId && hallId) return { name: "hall", projectId, hallId, planId: id(query.get("plan")) };
    if (projectId) return { name: "project", projectId };
    return { name: "projects" };
  }
  if (path === "/projects") return { name: "projects" };
  if (path === "/account/tokens") return { name: "tokens" };
  if (path === "/catalog") return { name: "catalog" };
  if (path === "/signup") return { name: "signup" };
  if (path === "/invite") return { name: "invite" };
  const hall = /^\/projects\/([^/]+)\/halls\/([^/]+)$/.exec(path);
  if (hall) {
    const projectId = id(hall[1]);
    const hallId = id(hall[2]);
    if (projectId && hallId) return { name: "hall", projectId, hallId, planId: id(query.get("plan")) };
  }
  const project = /^\/projects\/([^/]+)$/.exec(path);
  if (project) {
    const projectId = id(project[1]);
    if (projectId) return { name: "project", projectId };
  }
  return { name: "notFound", path: pathname };
}

/** The canonical address of a route. */
export function href(route: Route): string {
  switch (route.name) {
    case "projects":
      return "/projects";
    case "project":
      return `/projects/${route.projectId}`;
    case "hall":
      return `/projects/${route.projectId}/halls/${route.hallId}${route.planId ? `?plan=${route.planId}` : ""}`;
    case "tokens":
      return "/account/tokens";
    case "catalog":
      return "/catalog";
    case "signup":
      return "/signup";
    case "invite":
      return "/invite";
    case "notFound":
      return route.path;
  }
}

const listeners = new Set<() => void>();
let current = typeof location === "undefined" ? "/" : location.pathname + location.search;

function changed(): void {
  current = location.pathname + location.search;
  for (const l of listeners) l();
}
if (typeof window !== "undefined") window.addEventListener("popstate", changed);

/** Go to a route (a new history entry, or replacing the current one). */
export function navigate(route: Route | string, opts: { replace?: boolean } = {}): void {
  const to = typeof route === "string" ? route : href(route);
  if (to === location.pathname + location.search) return;
  if (opts.replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  changed();
}

/** The current route; re-renders when it changes. Legacy `/?project=` links are rewritten in place. */
export function useRoute(): Route {
  const address = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
  const [pathname, search = ""] = address.split(/(?=\?)/);
  return parseRoute(pathname ?? "/", search);
}

/** The canonical address differs from the one in the bar (`/`, `/?project=…`, a trailing slash). */
export function canonicalAddress(route: Route, pathname: string, search: string): string | null {
  if (route.name === "notFound") return null;
  const want = href(route);
  return want === pathname + search ? null : want;
}

/** Props of an `<a>` that navigates in place (a plain click) and still opens in a new tab (Ctrl/middle click). */
export function linkProps(route: Route): { href: string; onClick: (e: MouseEvent) => void } {
  const to = href(route);
  return {
    href: to,
    onClick: (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      navigate(to);
    },
  };
}
