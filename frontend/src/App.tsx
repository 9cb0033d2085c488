import { useEffect, useState } from "react";
import { getHall, getProject, logout, me as getMe, SESSION_ENDED } from "./projects/api";
import { Crumbs } from "./projects/Crumbs";
import { userMessage } from "./projects/forms";
import { ProjectList } from "./projects/ProjectList";
import { ProjectPage } from "./projects/ProjectPage";
import { canonicalAddress, href, linkProps, navigate, useRoute, type Route } from "./projects/route";
import { SignUp } from "./projects/SignUp";
import { Catalog } from "./projects/Catalog";
import { InvitationAccept, InvitationWelcome } from "./projects/Invitation";
import { Tokens } from "./projects/Tokens";
import { EditorCanvas } from "./scene/EditorCanvas";
import { LayoutSync } from "./sync/sync";
import { EmptyHallHint, Notices, StatusBar } from "./ui/Chrome";
import { CableTooltip } from "./ui/CableTooltip";
import { DrawReadout } from "./ui/DrawReadout";
import { Elevation } from "./ui/Elevation";
import { HelpOverlay } from "./ui/HelpOverlay";
import { LabelLayer } from "./ui/LabelLayer";
import { Legend } from "./ui/Legend";
import { Login, type Me } from "./ui/Login";
import { PropertyPanel } from "./ui/PropertyPanel";
import { DeviceNamesPanel } from "./ui/DeviceNames";
import { FacilityPanel } from "./ui/FacilityPanel";
import { editor } from "./state/editor";
import { useWiring } from "./state/wiring";
import { notify, useSession } from "./state/session";
import { debugHandle } from "./state/testHook";
import { Toolbar } from "./ui/Toolbar";
import { useShortcuts } from "./ui/useShortcuts";
import { getPlan, showPlan } from "./wiring/api";
import { WiringPanel } from "./wiring/WiringPanel";
import { PlansPanel } from "./plans/PlansPanel";
import { activeSync, setActiveSync } from "./sync/active";
import { SimulationsPanel } from "./simulations/SimulationsPanel";
import { openSimulationForm } from "./simulations/store";

type Auth = { s: "checking" } | { s: "out" } | { s: "in"; me: Me };

/**
 * The router shell: who is logged in, which screen the address names (projects/route.ts), the top
 * bar. Logged out, every address shows the login form (or sign-up) and opens once logged in.
 */
export function App() {
  const theme = useSession((s) => s.theme);
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>({ s: "checking" });
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    getMe().then(
      (me) => setAuth({ s: "in", me }),
      () => setAuth({ s: "out" }),
    );
  }, []);
  // A session that ends while a screen is open (expired, logged out in another tab): log in again,
  // staying on the same address.
  useEffect(() => {
    const ended = () => setAuth({ s: "out" });
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);
  // `/`, `/?project=&hall=` and trailing slashes become the canonical address (same screen).
  useEffect(() => {
    const canonical = canonicalAddress(route, location.pathname, location.search);
    if (canonical) navigate(canonical, { replace: true });
  }, [route]);
  useEffect(() => {
    if (auth.s === "in" && route.name === "signup") navigate({ name: "projects" }, { replace: true });
  }, [route, auth.s]);

  const loggedIn = (me: Me) => setAuth({ s: "in", me });
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" {...linkProps({ name: "projects" })}>
          Loopline
        </a>
        <span className="subtitle">datacenter network planning</span>
        {auth.s === "in" && <Crumbs route={route} />}
        <span className="spacer" />
        {auth.s === "in" && (
          <>
            <a className="topbar-link" {...linkProps({ name: "catalog" })}>
              Device models
            </a>
            <a className="topbar-link" {...linkProps({ name: "tokens" })}>
              API tokens
            </a>
            <span className="muted small" data-testid="me">
              {auth.me.user.email}
            </span>
            <button
              type="button"
              className="link"
              onClick={() => {
                // A full load afterwards: nothing of this account stays in memory.
                void logout().finally(() => location.assign("/projects"));
              }}
            >
              Log out
            </button>
          </>
        )}
      </header>
      {auth.s === "checking" && <div className="center muted">Loading…</div>}
      {auth.s === "out" &&
        (route.name === "invite" ? (
          <InvitationWelcome
            onLoggedIn={loggedIn}
            login={(back) => <Login onLogin={loggedIn} signUpHref="/invite" onSignUp={back} />}
          />
        ) : route.name === "signup" ? (
          <SignUp
            onSignedUp={(me) => {
              loggedIn(me);
              navigate({ name: "projects" });
            }}
          />
        ) : (
          <Login
            onLogin={loggedIn}
            signUpHref={href({ name: "signup" })}
            onSignUp={() => navigate({ name: "signup" })}
          />
        ))}
      {auth.s === "in" && <Screen route={route} userId={auth.me.user.id} email={auth.me.user.email} />}
    </div>
  );
}

function Screen({ route, userId, email }: { route: Route; userId: number; email: string }) {
  switch (route.name) {
    case "invite":
      return <InvitationAccept email={email} />;
    case "projects":
    case "signup":
      return <ProjectList />;
    case "project":
      return <ProjectPage key={route.projectId} projectId={route.projectId} userId={userId} />;
    case "hall":
      return <HallScreen key={route.hallId} projectId={route.projectId} hallId={route.hallId} planId={route.planId} />;
    case "tokens":
      return <Tokens />;
    case "catalog":
      return <Catalog userId={userId} />;
    case "notFound":
      return (
        <div className="page">
          <h1>Nothing here</h1>
          <p>
            There is no page at <code>{route.path}</code>.{" "}
            <a {...linkProps({ name: "projects" })}>Go to your projects</a>.
          </p>
        </div>
      );
  }
}

type HallPhase = { s: "loading" } | { s: "ready" } | { s: "error"; text: string };

/** Open a hall in the editor: load its layout, keep it in sync while the screen is shown. */
function HallScreen({ projectId, hallId, planId }: { projectId: number; hallId: number; planId: number | null }) {
  const [phase, setPhase] = useState<HallPhase>({ s: "loading" });
  useEffect(() => {
    let cancelled = false;
    let sync: LayoutSync | null = null;
    (async () => {
      const hall = await getHall(hallId);
      if (hall.project_id !== projectId) {
        // A link with the wrong project: the hall says which one it is in.
        navigate({ name: "hall", projectId: hall.project_id, hallId, planId }, { replace: true });
        return;
      }
      // The role decides which controls write: a viewer's are off (and edits refused before sending).
      const project = await getProject(projectId);
      if (cancelled) return;
      activeSync()?.stop();
      // Nothing of the previous hall stays on screen.
      useWiring.setState({ plan: null, cables: null, plans: [] });
      useSession.setState({
        selection: [],
        errors: [],
        notices: [],
        readOnly: project.role === "viewer",
        elevationRowId: null,
        panel: planId ? "wiring" : "layout",
      });
      // `?plan=<id>` opens the wiring view of that plan (links from elsewhere, the benchmark);
      // its cables load while the layout does.
      if (planId) {
        void getPlan(planId).then(showPlan, (e: unknown) =>
          notify("error", `Plan ${planId}: ${e instanceof Error ? e.message : String(e)}`),
        );
      }
      sync = new LayoutSync(editor, hall.id);
      await sync.start();
      if (cancelled) {
        sync.stop();
        return;
      }
      setActiveSync(sync);
      setPhase({ s: "ready" });
      useSession.setState((s) => ({ frameRequest: s.frameRequest + 1, projectId, hallId }));
    })().catch((e: unknown) => {
      if (!cancelled) setPhase({ s: "error", text: userMessage(e) });
    });
    return () => {
      cancelled = true;
      if (sync && activeSync() === sync) {
        sync.stop();
        setActiveSync(null);
      }
    };
  }, [projectId, hallId, planId]);
  if (phase.s === "loading") return <div className="center muted">Opening the hall…</div>;
  if (phase.s === "error")
    return (
      <div className="page">
        <p className="field-error" role="alert">
          This hall could not be opened. {phase.text}
        </p>
        <a {...linkProps({ name: "project", projectId })}>Back to the project</a>
      </div>
    );
  return <Editor />;
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
          {view !== "elevation" && <EmptyHallHint />}
          {view === "elevation" && <Elevation />}
          <Legend media={panel !== "layout"} />
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
            <button
              role="tab"
              type="button"
              aria-selected={panel === "plans"}
              className={panel === "plans" ? "active" : ""}
              onClick={() => useSession.setState({ panel: "plans" })}
            >
              Plans
            </button>
            <button
              role="tab"
              type="button"
              aria-selected={panel === "names"}
              className={panel === "names" ? "active" : ""}
              onClick={() => useSession.setState({ panel: "names" })}
            >
              Names
            </button>
            <button
              role="tab"
              type="button"
              aria-selected={panel === "facility"}
              className={panel === "facility" ? "active" : ""}
              onClick={() => useSession.setState({ panel: "facility" })}
            >
              Facility
            </button>
          </div>
          {panel === "layout" ? (
            <PropertyPanel />
          ) : panel === "names" ? (
            <DeviceNamesPanel />
          ) : panel === "facility" ? (
            <FacilityPanel />
          ) : panel === "wiring" ? (
            <WiringPanel />
          ) : (
            <>
              <PlansPanel onSimulate={openSimulationForm} />
              <SimulationsPanel />
            </>
          )}
        </aside>
      </div>
      <StatusBar />
      <HelpOverlay />
    </div>
  );
}
