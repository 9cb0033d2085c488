import { useEffect, useState } from "react";
import { EditorCanvas } from "./scene/EditorCanvas";
import { ApiError, request } from "./sync/http";
import { LayoutSync } from "./sync/sync";
import { Notices, StatusBar } from "./ui/Chrome";
import { CableTooltip } from "./ui/CableTooltip";
import { DrawReadout } from "./ui/DrawReadout";
import { Elevation } from "./ui/Elevation";
import { HelpOverlay } from "./ui/HelpOverlay";
import { LabelLayer } from "./ui/LabelLayer";
import { Legend } from "./ui/Legend";
import { Login, type Me } from "./ui/Login";
import { PropertyPanel } from "./ui/PropertyPanel";
import { editor } from "./state/editor";
import { notify, useSession } from "./state/session";
import { debugHandle } from "./state/testHook";
import { Toolbar } from "./ui/Toolbar";
import { useShortcuts } from "./ui/useShortcuts";
import { getPlan, showPlan } from "./wiring/api";
import { WiringPanel } from "./wiring/WiringPanel";
import { activeSync, setActiveSync } from "./sync/active";

interface Page<T> {
  items: T[];
}
interface Project {
  id: number;
  name: string;
}
interface Hall {
  id: number;
  name: string;
}
const items = <T,>(x: Page<T> | T[]): T[] => (Array.isArray(x) ? x : x.items);

type Phase =
  | { s: "checking" }
  | { s: "login" }
  | { s: "loading"; me: Me }
  | { s: "ready"; me: Me; project: Project; hall: Hall }
  | { s: "error"; text: string; me?: Me };

export function App() {
  const theme = useSession((s) => s.theme);
  const [phase, setPhase] = useState<Phase>({ s: "checking" });
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    request<Me>("GET", "/auth/me")
      .then((me) => setPhase({ s: "loading", me }))
      .catch(() => setPhase({ s: "login" }));
  }, []);
  useEffect(() => {
    if (phase.s !== "loading") return;
    let cancelled = false;
    (async () => {
      const projects = items(await request<Page<Project> | Project[]>("GET", "/projects"));
      const wanted = new URLSearchParams(location.search);
      const project = projects.find((p) => String(p.id) === wanted.get("project")) ?? projects[0];
      if (!project) throw new Error("You are not a member of any project yet.");
      const halls = items(await request<Page<Hall> | Hall[]>("GET", `/projects/${project.id}/halls`));
      const hall = halls.find((h) => String(h.id) === wanted.get("hall")) ?? halls[0];
      if (!hall) throw new Error(`Project ${project.name} has no hall yet.`);
      activeSync()?.stop();
      // `?plan=<id>` opens the wiring view of that plan (links from elsewhere, the benchmark);
      // its cables load while the layout does.
      const planId = Number(wanted.get("plan"));
      if (planId) {
        useSession.setState({ panel: "wiring" });
        void getPlan(planId).then(showPlan, (e: unknown) =>
          notify("error", `Plan ${planId}: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
      const sync = new LayoutSync(editor, hall.id);
      await sync.start();
      setActiveSync(sync);
      if (!cancelled) {
        setPhase({ s: "ready", me: phase.me, project, hall });
        useSession.setState((s) => ({ frameRequest: s.frameRequest + 1, projectId: project.id, hallId: hall.id }));
      }
    })().catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 401) setPhase({ s: "login" });
      else setPhase({ s: "error", text: e instanceof Error ? e.message : String(e), me: phase.me });
    });
    // The sync outlives this effect (it runs for as long as the hall is open).
    return () => {
      cancelled = true;
    };
  }, [phase]);

  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">Loopline</span>
        <span className="subtitle">datacenter network planning</span>
        {phase.s === "ready" && (
          <span className="crumbs" data-testid="crumbs">
            {phase.project.name} / {phase.hall.name}
          </span>
        )}
        <span className="spacer" />
        {(phase.s === "ready" || phase.s === "loading") && (
          <>
            <span className="muted small">{phase.me.user.email}</span>
            <button
              type="button"
              className="link"
              onClick={() => {
                void request("POST", "/auth/logout").finally(() => location.reload());
              }}
            >
              Log out
            </button>
          </>
        )}
      </header>
      {phase.s === "login" && <Login onLogin={(me) => setPhase({ s: "loading", me })} />}
      {(phase.s === "checking" || phase.s === "loading") && <div className="center muted">Loading…</div>}
      {phase.s === "error" && (
        <div className="center">
          <p className="field-error" role="alert">
            {phase.text}
          </p>
        </div>
      )}
      {phase.s === "ready" && <Editor />}
    </div>
  );
}

function Editor() {
  useShortcuts();
  const view = useSession((s) => s.view);
  const panel = useSession((s) => s.panel);
  useEffect(() => {
    debugHandle();
  }, []);
  return (
    <div className="editor">
      <Toolbar />
      <div className="workspace">
        <main className="viewport">
          <div className="canvas-wrap" style={{ visibility: view === "elevation" ? "hidden" : "visible" }}>
            <EditorCanvas />
            <LabelLayer />
            <DrawReadout />
          </div>
          {view === "elevation" && <Elevation />}
          <Legend media={panel === "wiring"} />
          <CableTooltip />
          <Notices />
        </main>
        <aside className="sidepanel">
          <div className="tabs" role="tablist">
            <button
              role="tab"
              type="button"
              aria-selected={panel === "layout"}
              className={panel === "layout" ? "active" : ""}
              onClick={() => useSession.setState({ panel: "layout" })}
            >
              Layout
            </button>
            <button
              role="tab"
              type="button"
              aria-selected={panel === "wiring"}
              className={panel === "wiring" ? "active" : ""}
              onClick={() => useSession.setState({ panel: "wiring" })}
            >
              Wiring
            </button>
          </div>
          {panel === "layout" ? <PropertyPanel /> : <WiringPanel />}
        </aside>
      </div>
      <StatusBar />
      <HelpOverlay />
    </div>
  );
}
