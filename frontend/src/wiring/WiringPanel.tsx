/** Wiring: choose a pattern and its parameters, generate through the API, read the summary. */
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { formatLength } from "../model/units";
import { ApiError, request } from "../sync/http";
import { MEDIUM_COLOURS } from "../state/palette";
import { notify, useSession } from "../state/session";
import { toCableSet, useWiring, type CableSet, type RenderBuffers, type WiringPlan, type WiringPlanCreate } from "../state/wiring";

type Pattern = WiringPlanCreate["pattern"];
const PATTERNS: { value: Pattern; label: string }[] = [
  { value: "single-homed", label: "Single-homed (Type 0)" },
  { value: "mc-lag", label: "MC-LAG (dual-homed)" },
  { value: "side-to-side", label: "Subways · side-to-side" },
  { value: "paired-row", label: "Subways · paired rows" },
  { value: "inter-chassis", label: "Subways · inter-chassis" },
  { value: "grin", label: "GRIN (server-to-server)" },
];
const SUBWAYS = new Set<Pattern>(["side-to-side", "paired-row", "inter-chassis"]);

interface Form {
  pattern: Pattern;
  ports: string;
  subwaysType: 1 | 2;
  loop: string;
  clusters: string;
  grinDegree: string;
  grinScope: "rack" | "next-rack";
  geometry: "default" | "paper";
  routeVia: "tray" | "floor";
}

function planName(f: Form): string {
  const p = PATTERNS.find((x) => x.value === f.pattern)?.label ?? f.pattern;
  const bits = [f.ports && `p=${f.ports}`, SUBWAYS.has(f.pattern) && `Type ${f.subwaysType}`, f.loop && `l=${f.loop}`, SUBWAYS.has(f.pattern) && f.subwaysType === 2 && `c=${f.clusters}`, f.pattern === "grin" && `n=${f.grinDegree}`].filter(Boolean);
  return `${p}${bits.length ? ` (${bits.join(", ")})` : ""}`;
}

/** Load a plan's render buffers and show them. */
export async function showPlan(plan: WiringPlan): Promise<void> {
  useWiring.setState({ plan, loading: true, focus: null });
  try {
    const buffers = await request<RenderBuffers>("GET", `/wiring-plans/${plan.id}/render`);
    performance.mark("loopline:cables-fetched");
    const set = toCableSet(plan.id, buffers);
    performance.mark("loopline:cables-flattened");
    useWiring.setState({ cables: set, loading: false });
  } catch (e) {
    useWiring.setState({ loading: false });
    notify("error", `Could not load the cables of ${plan.name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Highlight a cable and fly the camera to it. */
export function flyToCable(set: CableSet, i: number): void {
  const a = set.segStart[i] ?? 0;
  const b = set.segStart[i + 1] ?? a;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let s = a; s < b; s++) {
    for (const o of [0, 3]) {
      const x = (set.segments[s * 6 + o] ?? 0) * 1000;
      const y = (set.segments[s * 6 + o + 2] ?? 0) * 1000;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  if (!Number.isFinite(x0)) return;
  useWiring.setState({ focus: i });
  useSession.setState((s) => ({ frameTarget: { x0: x0 - 1500, y0: y0 - 1500, x1: x1 + 1500, y1: y1 + 1500 }, frameRequest: s.frameRequest + 1 }));
}

function Field({ label, name, errors, children }: { label: string; name: string; errors: Record<string, string>; children: ReactNode }) {
  const error = errors[name];
  return (
    <label className={`field${error ? " has-error" : ""}`}>
      <span className="field-label">{label}</span>
      {children}
      {error && (
        <span className="field-error" role="alert" data-testid={`wiring-error-${name}`}>
          {error}
        </span>
      )}
    </label>
  );
}

export function WiringPanel() {
  const hallId = useSession((s) => s.hallId);
  const projectId = useSession((s) => s.projectId);
  const { plans, plan, cables, loading, showLoops, showCables } = useWiring();
  const [form, setForm] = useState<Form>({ pattern: "paired-row", ports: "", subwaysType: 1, loop: "", clusters: "2", grinDegree: "1", grinScope: "rack", geometry: "default", routeVia: "tray" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  useEffect(() => {
    if (!projectId || !hallId) return;
    request<{ items: WiringPlan[] }>("GET", `/projects/${projectId}/wiring-plans?limit=100`)
      .then((page) => useWiring.setState({ plans: page.items.filter((p) => p.hall_id === hallId) }))
      .catch(() => undefined);
  }, [projectId, hallId]);

  const generate = async () => {
    if (!hallId) return;
    const body: WiringPlanCreate = {
      name: planName(form),
      pattern: form.pattern,
      geometry: form.geometry,
      route_via: form.routeVia,
      fabric_optical: true,
      grin_scope: form.grinScope,
      subways_type: form.subwaysType,
      clusters: SUBWAYS.has(form.pattern) && form.subwaysType === 2 ? Number(form.clusters) || 1 : 1,
      grin_degree: form.pattern === "grin" ? Number(form.grinDegree) || 0 : 0,
    };
    if (form.ports) body.ports = Number(form.ports);
    if (form.loop) body.loop = Number(form.loop);
    setBusy(true);
    setErrors({});
    try {
      const created = await request<WiringPlan>("POST", `/halls/${hallId}/wiring-plans`, { body });
      useWiring.setState((s) => ({ plans: [created, ...s.plans] }));
      await showPlan(created);
    } catch (e) {
      if (e instanceof ApiError) {
        const errs: Record<string, string> = {};
        for (const item of e.items) {
          const key = String(item.loc.filter((l) => l !== "body")[0] ?? "generate");
          const shown: Record<string, boolean> = {
            ports: true,
            loop: SUBWAYS.has(form.pattern),
            subwaysType: SUBWAYS.has(form.pattern),
            clusters: SUBWAYS.has(form.pattern) && form.subwaysType === 2,
            grinDegree: form.pattern === "grin",
          };
          const field = { ports: "ports", loop: "loop", clusters: "clusters", grin_degree: "grinDegree", subways_type: "subwaysType" }[key];
          // Errors about a field that is not on screen go under the Generate button.
          const name = field && shown[field] ? field : "generate";
          errs[name] = errs[name] ? `${errs[name]}; ${item.msg}` : item.msg;
        }
        setErrors(errs);
      } else setErrors({ generate: String(e) });
    } finally {
      setBusy(false);
    }
  };

  const subways = SUBWAYS.has(form.pattern);
  return (
    <section className="panel-section" data-testid="wiring-panel">
      <h2>Wiring</h2>
      <Field label="Pattern" name="pattern" errors={errors}>
        <select value={form.pattern} onChange={(e) => set("pattern", e.target.value as Pattern)} data-testid="wiring-pattern">
          {PATTERNS.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </Field>
      <div className="field-row">
        <Field label="p · ports per server" name="ports" errors={errors}>
          <input type="number" min={1} placeholder="rack's p" value={form.ports} onChange={(e) => set("ports", e.target.value)} data-testid="wiring-p" />
        </Field>
        {subways && (
          <Field label="l · logical racks per loop" name="loop" errors={errors}>
            <input type="number" min={2} placeholder="whole row" value={form.loop} onChange={(e) => set("loop", e.target.value)} data-testid="wiring-l" />
          </Field>
        )}
      </div>
      {subways && (
        <div className="field-row">
          <Field label="Subways type" name="subwaysType" errors={errors}>
            <select value={form.subwaysType} onChange={(e) => set("subwaysType", e.target.value === "2" ? 2 : 1)} data-testid="wiring-type">
              <option value={1}>Type 1 (one cluster)</option>
              <option value={2}>Type 2 (c clusters)</option>
            </select>
          </Field>
          {form.subwaysType === 2 && (
            <Field label="c · clusters" name="clusters" errors={errors}>
              <input type="number" min={1} value={form.clusters} onChange={(e) => set("clusters", e.target.value)} />
            </Field>
          )}
        </div>
      )}
      {form.pattern === "grin" && (
        <div className="field-row">
          <Field label="n · GRIN degree" name="grinDegree" errors={errors}>
            <input type="number" min={1} value={form.grinDegree} onChange={(e) => set("grinDegree", e.target.value)} />
          </Field>
          <Field label="GRIN scope" name="grinScope" errors={errors}>
            <select value={form.grinScope} onChange={(e) => set("grinScope", e.target.value === "next-rack" ? "next-rack" : "rack")}>
              <option value="rack">same rack</option>
              <option value="next-rack">next rack</option>
            </select>
          </Field>
        </div>
      )}
      <div className="field-row">
        <Field label="Geometry" name="geometry" errors={errors}>
          <select value={form.geometry} onChange={(e) => set("geometry", e.target.value === "paper" ? "paper" : "default")}>
            <option value="default">default (tray)</option>
            <option value="paper">paper preset</option>
          </select>
        </Field>
        <Field label="Between racks" name="routeVia" errors={errors}>
          <select value={form.routeVia} onChange={(e) => set("routeVia", e.target.value === "floor" ? "floor" : "tray")}>
            <option value="tray">overhead tray</option>
            <option value="floor">raised floor</option>
          </select>
        </Field>
      </div>
      <button type="button" className="primary" disabled={busy} onClick={() => void generate()} data-testid="wiring-generate">
        {busy ? "Generating…" : "Generate wiring"}
      </button>
      {errors.generate && (
        <p className="field-error" role="alert" data-testid="wiring-error-generate">
          {errors.generate}
        </p>
      )}
      {plans.length > 0 && (
        <label className="field">
          <span className="field-label">Plans of this hall</span>
          <select value={plan?.id ?? ""} onChange={(e) => { const p = plans.find((x) => String(x.id) === e.target.value); if (p) void showPlan(p); }} data-testid="wiring-plans">
            <option value="" disabled>
              choose a plan…
            </option>
            {plans.map((p) => (
              <option key={p.id} value={p.id}>
                #{p.id} {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {loading && <p className="muted">Loading cables…</p>}
      {plan && cables && cables.planId === plan.id && <Summary plan={plan} cables={cables} showLoops={showLoops} showCables={showCables} />}
    </section>
  );
}

function Summary({ plan, cables, showLoops, showCables }: { plan: WiringPlan; cables: CableSet; showLoops: boolean; showCables: boolean }) {
  const s = plan.summary as { cables?: number; media?: Record<string, number>; warnings?: string[]; max_raw_length_m?: number; copper_share?: number; cable_cost?: number; loops?: number };
  const b = cables.buffers;
  const longest = useMemo(() => {
    const idx = Array.from(b.raw_length_mm.keys());
    idx.sort((x, y) => (b.raw_length_mm[y] ?? 0) - (b.raw_length_mm[x] ?? 0));
    return idx.slice(0, 8);
  }, [b]);
  // A warning that names a device or rack flies to the first cable with that name in its label.
  const warningTarget = (w: string): number | null => {
    const tokens = w.match(/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+/g) ?? [];
    for (const t of tokens) {
      const i = b.labels.findIndex((l) => l.includes(t));
      if (i >= 0) return i;
    }
    return null;
  };
  return (
    <div className="wiring-summary" data-testid="wiring-summary">
      <h3>Summary</h3>
      <p>
        <strong data-testid="cable-count">{b.cable_ids.length.toLocaleString("en")}</strong> cables
        {s.loops ? ` · ${s.loops} loops` : ""}
        {s.copper_share !== undefined ? ` · ${Math.round(s.copper_share * 100)}% copper` : ""}
        {s.cable_cost !== undefined ? ` · ${s.cable_cost.toLocaleString("en", { maximumFractionDigits: 0 })} cable cost` : ""}
      </p>
      <table className="media-table">
        <tbody>
          {Object.entries(s.media ?? {}).map(([m, n]) => (
            <tr key={m} data-testid={`media-${m}`}>
              <td>
                <span className="sw line" style={{ background: MEDIUM_COLOURS[m]?.colour }} /> {MEDIUM_COLOURS[m]?.label ?? m}
              </td>
              <td className="num">{n.toLocaleString("en")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toggles">
        <label>
          <input type="checkbox" checked={showCables} onChange={(e) => useWiring.setState({ showCables: e.target.checked })} /> cables
        </label>
        <label>
          <input type="checkbox" checked={showLoops} onChange={(e) => useWiring.setState({ showLoops: e.target.checked })} /> loops
        </label>
      </div>
      <h3>Longest cables</h3>
      <ol className="cable-list">
        {longest.map((i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => flyToCable(cables, i)} title={b.labels[i]}>
              {formatLength(b.raw_length_mm[i] ?? 0)} · {b.media[b.medium[i] ?? 0]} · {b.labels[i]}
            </button>
          </li>
        ))}
      </ol>
      <h3>Warnings</h3>
      {(s.warnings ?? []).length === 0 && <p className="muted small">None.</p>}
      <ul className="warnings">
        {(s.warnings ?? []).map((w) => {
          const target = warningTarget(w);
          return (
            <li key={w}>
              {target === null ? (
                <span>{w}</span>
              ) : (
                <button type="button" className="link" onClick={() => flyToCable(cables, target)}>
                  {w}
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
