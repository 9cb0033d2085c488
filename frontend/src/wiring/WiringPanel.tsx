/** Wiring (view): choose a pattern and its parameters, generate through the API, read the summary. */
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { formatLength } from "../model/units";
import { MEDIUM_COLOURS } from "../state/palette";
import { isStructured } from "../state/plant";
import { useCatalog } from "../state/catalog";
import { READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";
import { focusCable, useWiring, type CableSet, type WiringPlan } from "../state/wiring";
import type { components } from "../api/schema";
import type { HallRead } from "../sync/apiTypes";
import { request } from "../sync/http";
import { switchServerModel } from "../sync/serverModels";
import { generatePlan, listPlans, showPlan } from "./api";
import {
  CABLING_LABELS,
  FABRIC_LABELS,
  formFromSpec,
  formProblems,
  generateErrors,
  INITIAL_FORM,
  initialFormFor,
  isRail,
  isSubways,
  PANEL_AT_LABELS,
  PATTERNS,
  toPlanCreate,
  withCabling,
  type Cabling,
  type Fabric,
  type FormErrors,
  type PanelAt,
  type Pattern,
  type WiringForm,
} from "./form";
import { PlantSection } from "./PlantSection";
import { longestCables, planSummary, warningTarget } from "./summary";

const BREAKOUTS_NEED = "breakouts are built in the plant: choose structured cabling first";

function Field({
  label,
  name,
  errors,
  children,
}: {
  label: string;
  name: keyof WiringForm;
  errors: FormErrors;
  children: ReactNode;
}) {
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
  const readOnly = useReadOnly();
  const { plans, plan, cables, loading, showLoops, showCables } = useWiring();
  // The form shows the parameters of the plan being viewed (so Generate rebuilds that plan); it
  // follows the viewed plan when another is opened, and stays as typed otherwise.
  const [form, setForm] = useState<WiringForm>(() => (plan ? formFromSpec(plan.spec) : INITIAL_FORM));
  const [formOf, setFormOf] = useState<number | null>(plan?.id ?? null);
  const [errors, setErrors] = useState<FormErrors>({});
  if (plan && plan.id !== formOf) {
    setFormOf(plan.id);
    setForm(formFromSpec(plan.spec));
    setErrors({});
  }
  const [busy, setBusy] = useState(false);
  // The same form when nothing changes: a form nobody has changed is still `INITIAL_FORM` (see below).
  const set = <K extends keyof WiringForm>(k: K, v: WiringForm[K]) =>
    setForm((f) => (Object.is(f[k], v) ? f : { ...f, [k]: v }));

  useEffect(() => {
    if (!projectId || !hallId) return;
    listPlans(projectId, hallId)
      .then((plans) => useWiring.setState({ plans }))
      .catch(() => undefined);
  }, [projectId, hallId]);

  // A hall's first plan starts from the form for its kind, unless the planner has begun filling it in.
  useEffect(() => {
    if (!hallId || plan) return;
    let live = true;
    request<HallRead>("GET", `/halls/${hallId}`).then(
      (hall) => live && setForm((f) => (f === INITIAL_FORM ? initialFormFor(hall.kind) : f)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hallId, plan]);

  // Which patterns the hall's hardware can wire (with their default parameters), read again after a switch.
  const [options, setOptions] = useState<components["schemas"]["WiringOptions"] | null>(null);
  const [optionsRevision, setOptionsRevision] = useState(0);
  useEffect(() => {
    if (!hallId) return;
    let live = true;
    request<components["schemas"]["WiringOptions"]>("GET", `/halls/${hallId}/wiring-options`).then(
      (o) => live && setOptions(o),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hallId, optionsRevision]);
  // The options are generated with each pattern's defaults; a rail pattern has none (its SU size and leaf
  // model are the planner's), so the endpoint cannot judge it: no note for it, the server says at Generate.
  const optionOf = (p: Pattern) => (isRail(p) ? null : (options?.options.find((o) => o.label === p) ?? null));
  const patternOption = optionOf(form.pattern);

  const generate = async () => {
    if (!hallId) return;
    const problems = formProblems(form);
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      return;
    }
    const body = toPlanCreate(form);
    setBusy(true);
    setErrors({});
    try {
      await generatePlan(hallId, body);
    } catch (e) {
      setErrors(generateErrors(form, e));
    } finally {
      setBusy(false);
    }
  };

  const subways = isSubways(form.pattern);
  const rail = isRail(form.pattern);
  return (
    <section className="panel-section" data-testid="wiring-panel">
      <h2>Wiring</h2>
      <Field label="Network" name="fabric" errors={errors}>
        <select
          value={form.fabric}
          onChange={(e) => set("fabric", e.target.value === "front_end" ? "front_end" : "compute")}
          data-testid="wiring-fabric"
        >
          {(Object.keys(FABRIC_LABELS) as Fabric[]).map((f) => (
            <option key={f} value={f}>
              {FABRIC_LABELS[f]}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Pattern" name="pattern" errors={errors}>
        <select
          value={form.pattern}
          onChange={(e) => set("pattern", e.target.value as Pattern)}
          data-testid="wiring-pattern"
        >
          {PATTERNS.map((p) => {
            const o = optionOf(p.value);
            const note =
              !o || o.feasible ? "" : o.needs_hardware ? " (needs more NIC ports)" : " (cannot be built here)";
            return (
              <option key={p.value} value={p.value}>
                {p.label}
                {note}
              </option>
            );
          })}
        </select>
      </Field>
      {patternOption && !patternOption.feasible && (
        <div className="small" data-testid="wiring-pattern-infeasible">
          {patternOption.needs_hardware ? (
            <>
              <span className="warn">
                {patternOption.label} needs servers with {patternOption.needs_hardware.nic_ports} NIC ports (
                {patternOption.needs_hardware.logical_racks.toLocaleString("en")} logical racks have fewer).
              </span>{" "}
              {patternOption.needs_hardware.server_models.map((m) => (
                <button
                  key={m.id}
                  type="button"
                  disabled={busy || readOnly}
                  onClick={() => {
                    const need = patternOption.needs_hardware?.nic_ports ?? 0;
                    setBusy(true);
                    switchServerModel(hallId ?? 0, need, m.id).then(
                      () => {
                        setOptionsRevision((r) => r + 1);
                        void generate();
                      },
                      (e: unknown) => {
                        setBusy(false);
                        setErrors({ generate: `The server model could not be changed: ${String(e)}` });
                      },
                    );
                  }}
                  data-testid="wiring-switch-model"
                >
                  Switch them to {m.name} ({m.nic_ports} NIC ports) and generate
                </button>
              ))}
            </>
          ) : (
            <span className="warn">
              {patternOption.label} cannot be built on this hall with its default parameters: {patternOption.reason}
            </span>
          )}
        </div>
      )}
      <div className="field-row">
        <Field label="p · ports per server" name="ports" errors={errors}>
          <input
            type="number"
            min={1}
            placeholder="rack's p"
            value={form.ports}
            onChange={(e) => set("ports", e.target.value)}
            data-testid="wiring-p"
          />
        </Field>
        {subways && (
          <Field label="l · logical racks per loop" name="loop" errors={errors}>
            <input
              type="number"
              min={2}
              placeholder="whole row"
              value={form.loop}
              onChange={(e) => set("loop", e.target.value)}
              data-testid="wiring-l"
            />
          </Field>
        )}
      </div>
      {subways && (
        <div className="field-row">
          <Field label="Subways type" name="subwaysType" errors={errors}>
            <select
              value={form.subwaysType}
              onChange={(e) => set("subwaysType", e.target.value === "2" ? 2 : 1)}
              data-testid="wiring-type"
            >
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
      {rail && <RailFields form={form} errors={errors} set={set} />}
      {form.pattern === "grin" && (
        <div className="field-row">
          <Field label="n · GRIN degree" name="grinDegree" errors={errors}>
            <input type="number" min={1} value={form.grinDegree} onChange={(e) => set("grinDegree", e.target.value)} />
          </Field>
          <Field label="GRIN scope" name="grinScope" errors={errors}>
            <select
              value={form.grinScope}
              onChange={(e) => set("grinScope", e.target.value === "next-rack" ? "next-rack" : "rack")}
            >
              <option value="rack">same rack</option>
              <option value="next-rack">next rack</option>
            </select>
          </Field>
        </div>
      )}
      <div className="field-row">
        <Field label="Geometry" name="geometry" errors={errors}>
          <select
            value={form.geometry}
            onChange={(e) => set("geometry", e.target.value === "paper" ? "paper" : "default")}
          >
            <option value="default">default (tray)</option>
            <option value="paper">paper preset</option>
          </select>
        </Field>
        <Field label="Between racks" name="routeVia" errors={errors}>
          <select
            value={form.routeVia}
            onChange={(e) => set("routeVia", e.target.value === "floor" ? "floor" : "tray")}
          >
            <option value="tray">overhead tray</option>
            <option value="floor">raised floor</option>
          </select>
        </Field>
      </div>
      <div className="field-row">
        <Field label="Cabling" name="cabling" errors={errors}>
          <select
            value={form.cabling}
            onChange={(e) => setForm((f) => withCabling(f, e.target.value === "structured" ? "structured" : "direct"))}
            data-testid="wiring-cabling"
          >
            {(Object.keys(CABLING_LABELS) as Cabling[]).map((c) => (
              <option key={c} value={c}>
                {CABLING_LABELS[c]}
              </option>
            ))}
          </select>
        </Field>
        {form.cabling === "structured" && (
          <Field label="ToR uplink panels" name="panelAt" errors={errors}>
            <select
              value={form.panelAt}
              onChange={(e) => set("panelAt", e.target.value === "rack" ? "rack" : "row-end")}
              data-testid="wiring-panel-at"
            >
              {(Object.keys(PANEL_AT_LABELS) as PanelAt[]).map((p) => (
                <option key={p} value={p}>
                  {PANEL_AT_LABELS[p]}
                </option>
              ))}
            </select>
          </Field>
        )}
      </div>
      <div>
        <label className="toggles" title={form.cabling === "structured" ? undefined : BREAKOUTS_NEED}>
          <input
            type="checkbox"
            checked={form.breakouts}
            disabled={form.cabling !== "structured"}
            onChange={(e) => set("breakouts", e.target.checked)}
            data-testid="wiring-breakouts"
          />
          <span>
            Breakouts:{" "}
            <span className="muted">
              {form.cabling === "structured"
                ? "a fabric port faster than the ToR uplinks feeds several of them (400G into 4 × 100G)"
                : BREAKOUTS_NEED}
            </span>
          </span>
        </label>
        {errors.breakouts && (
          <span className="field-error" role="alert" data-testid="wiring-error-breakouts">
            {errors.breakouts}
          </span>
        )}
      </div>
      {form.parallel && (
        <p className="muted small" data-testid="wiring-parallel">
          Plus a parallel set of {form.parallel.ports} port(s) per server at {form.parallel.gbps} Gb/s (Type 2
          augmentation, from the viewed plan).{" "}
          <button type="button" className="link" onClick={() => set("parallel", null)}>
            drop it
          </button>
        </p>
      )}
      <button
        type="button"
        className="primary"
        disabled={busy || readOnly}
        title={readOnly ? READ_ONLY_TITLE : undefined}
        onClick={() => void generate()}
        data-testid="wiring-generate"
      >
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
          <select
            value={plan?.id ?? ""}
            onChange={(e) => {
              const p = plans.find((x) => String(x.id) === e.target.value);
              if (p) void showPlan(p);
            }}
            data-testid="wiring-plans"
          >
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
      {plan && cables && cables.planId === plan.id && (
        <Summary plan={plan} cables={cables} showLoops={showLoops} showCables={showCables} />
      )}
      {plan && cables && cables.planId === plan.id && isStructured(plan.spec) && (
        <PlantSection planId={plan.id} cables={cables} />
      )}
    </section>
  );
}

/** A GPU cluster's compute fabric: servers per scalable unit, the rail leaves' model, the leaves' ratio. */
function RailFields({
  form,
  errors,
  set,
}: {
  form: WiringForm;
  errors: FormErrors;
  set: <K extends keyof WiringForm>(k: K, v: WiringForm[K]) => void;
}) {
  // The catalog's switches the planner may use (global and their own), read by sync with the layout.
  const switches = useCatalog((s) => s.switchModels).filter((m) => m.id !== undefined);
  return (
    <>
      <div className="field-row">
        <Field label="Servers per SU (scalable unit)" name="suSize" errors={errors}>
          <input
            type="number"
            min={1}
            placeholder="e.g. 32"
            value={form.suSize}
            onChange={(e) => set("suSize", e.target.value)}
            data-testid="wiring-su-size"
          />
        </Field>
        {form.pattern === "rail-optimized" && (
          <Field label="Leaf oversubscription (x:1)" name="oversubscription" errors={errors}>
            <input
              type="number"
              min={0}
              step="any"
              placeholder="1 (non-blocking)"
              value={form.oversubscription}
              onChange={(e) => set("oversubscription", e.target.value)}
              data-testid="wiring-oversubscription"
            />
          </Field>
        )}
        {form.pattern === "rail-optimized" && (
          <Field label="Spine planes" name="spinePlanes" errors={errors}>
            <input
              type="number"
              min={1}
              placeholder="1 (every leaf to every spine)"
              value={form.spinePlanes}
              onChange={(e) => set("spinePlanes", e.target.value)}
              data-testid="wiring-spine-planes"
            />
          </Field>
        )}
      </div>
      <Field label="Rail leaf model (one leaf per NIC port per SU)" name="leafModelId" errors={errors}>
        <select
          value={form.leafModelId ?? ""}
          onChange={(e) => set("leafModelId", e.target.value === "" ? null : Number(e.target.value))}
          data-testid="wiring-leaf-model"
        >
          <option value="">choose a switch model…</option>
          {switches.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name} ({m.serverPorts} × {m.serverPortGbps}G down, {m.uplinkPorts} × {m.uplinkGbps}G up)
            </option>
          ))}
        </select>
      </Field>
      {form.pattern === "rail-only" && (
        <p className="muted small" data-testid="wiring-rail-only-note">
          Rail-only: no spine. Traffic between rails crosses the servers&apos; GPU interconnect, and the SUs share no
          switch.
        </p>
      )}
    </>
  );
}

function Summary({
  plan,
  cables,
  showLoops,
  showCables,
}: {
  plan: WiringPlan;
  cables: CableSet;
  showLoops: boolean;
  showCables: boolean;
}) {
  const s = planSummary(plan);
  const b = cables.buffers;
  const longest = useMemo(() => longestCables(b), [b]);
  return (
    <div className="wiring-summary" data-testid="wiring-summary">
      <h3>Summary</h3>
      <p>
        <strong data-testid="cable-count">{b.cable_ids.length.toLocaleString("en")}</strong> cables
        {s.loops ? ` · ${s.loops} loops` : ""}
        {s.copper_share !== undefined ? ` · ${Math.round(s.copper_share * 100)}% copper` : ""}
        {s.cable_cost !== undefined
          ? ` · ${s.cable_cost.toLocaleString("en", { maximumFractionDigits: 0 })} cable cost`
          : ""}
      </p>
      <table className="media-table">
        <tbody>
          {Object.entries(s.media ?? {}).map(([m, n]) => (
            <tr key={m} data-testid={`media-${m}`}>
              <td>
                <span className="sw line" style={{ background: MEDIUM_COLOURS[m]?.colour }} />{" "}
                {MEDIUM_COLOURS[m]?.label ?? m}
              </td>
              <td className="num">{n.toLocaleString("en")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="toggles">
        <label>
          <input
            type="checkbox"
            checked={showCables}
            onChange={(e) => useWiring.setState({ showCables: e.target.checked })}
          />{" "}
          cables
        </label>
        <label>
          <input
            type="checkbox"
            checked={showLoops}
            onChange={(e) => useWiring.setState({ showLoops: e.target.checked })}
          />{" "}
          loops
        </label>
      </div>
      <h3>Longest cables</h3>
      <ol className="cable-list">
        {longest.map((i) => (
          <li key={i}>
            <button type="button" className="link" onClick={() => focusCable(cables, i)} title={b.labels[i]}>
              {formatLength(b.raw_length_mm[i] ?? 0)} · {b.media[b.medium[i] ?? 0]} · {b.labels[i]}
            </button>
          </li>
        ))}
      </ol>
      <h3>Warnings</h3>
      {(s.warnings ?? []).length === 0 && <p className="muted small">None.</p>}
      <ul className="warnings">
        {(s.warnings ?? []).map((w) => {
          const target = warningTarget(b.labels, w);
          return (
            <li key={w}>
              {target === null ? (
                <span>{w}</span>
              ) : (
                <button type="button" className="link" onClick={() => focusCable(cables, target)}>
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
