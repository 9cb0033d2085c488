/** The top bar's breadcrumb: Projects / <project> / <hall>, each a link back. */
import { useEffect, useState } from "react";
import { getHall, getProject } from "./api";
import { linkProps, type Route } from "./route";

export function Crumbs({ route }: { route: Route }) {
  const projectId = route.name === "project" || route.name === "hall" ? route.projectId : null;
  const hallId = route.name === "hall" ? route.hallId : null;
  // Names by id: a crumb shows "…" until the name of *its* project/hall has arrived.
  const [names, setNames] = useState<Record<string, string>>({});
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
    if (hallId)
      getHall(hallId).then(
        (h) => keep(`h${hallId}`)(h.name),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [projectId, hallId, route]);
  const projectName = projectId ? (names[`p${projectId}`] ?? "…") : "";
  const hallName = hallId ? (names[`h${hallId}`] ?? "…") : "";
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
          <span aria-current="page">{hallName}</span>
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
