/** The top bar's breadcrumb: Projects / <project> / <hall>, each a link back; the hall is a picker of the project's halls. */
import { useEffect, useState } from "react";
import { getProject, listHalls, type Hall } from "./api";
import { linkProps, navigate, type Route } from "./route";

export function Crumbs({ route }: { route: Route }) {
  const projectId = route.name === "project" || route.name === "hall" ? route.projectId : null;
  const hallId = route.name === "hall" ? route.hallId : null;
  // Names by id: a crumb shows "…" until the name of *its* project/hall has arrived.
  const [names, setNames] = useState<Record<string, string>>({});
  const [halls, setHalls] = useState<{ projectId: number; items: Hall[] } | null>(null);
  useEffect(() => {
    let live = true;
    const keep = (key: string) => (name: string) => {
      if (live) setNames((n) => ({ ...n, [key]: name }));
    };
    if (projectId)
      getProject(projectId).then(
        (p) => keep(`p${projectId}`)(p.name),
        () => undefined,
      );
    if (projectId && hallId)
      listHalls(projectId).then(
        (items) => {
          if (live) setHalls({ projectId, items });
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [projectId, hallId]);
  const projectName = projectId ? (names[`p${projectId}`] ?? "…") : "";
  const siblings = halls?.projectId === projectId ? halls.items : [];
  return (
    <nav className="crumbs" aria-label="Breadcrumb" data-testid="crumbs">
      <a {...linkProps({ name: "projects" })}>Projects</a>
      {projectId && (
        <>
          <span className="sep">/</span>
          {hallId ? (
            <a {...linkProps({ name: "project", projectId })}>{projectName}</a>
          ) : (
            <span aria-current="page">{projectName}</span>
          )}
        </>
      )}
      {projectId && hallId && (
        <>
          <span className="sep">/</span>
          <select
            className="hall-picker"
            aria-label="Hall"
            aria-current="page"
            value={siblings.some((h) => h.id === hallId) ? String(hallId) : ""}
            onChange={(e) => navigate({ name: "hall", projectId, hallId: Number(e.target.value), planId: null })}
          >
            {!siblings.some((h) => h.id === hallId) && <option value="">…</option>}
            {siblings.map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
        </>
      )}
      {route.name === "tokens" && (
        <>
          <span className="sep">/</span>
          <span aria-current="page">API tokens</span>
        </>
      )}
    </nav>
  );
}
