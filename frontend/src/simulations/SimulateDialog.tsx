/**
 * Run: the simulation form for one plan, or two for a like-for-like comparison. A preset in the
 * planner's words with its parameters, a routing scheme, seeds; one job per plan and seed.
 */
import { useCallback, useEffect, useMemo, useState } from "react";
import { editor } from "../state/editor";
import {
  EMPTY_CHOSEN,
  endPick,
  PICK_SETS,
  startPick,
  toggleRack,
  type FailurePick,
  type PickMode,
  type PickSession,
  type PickSet,
} from "../state/floorPick";
import { notify } from "../state/session";
import { ApiError } from "../sync/http";
import { networkOfPlan, submit, type PlanNetwork, type WiringPlan } from "./api";
import { showPlanCables } from "./floor";
import { rackPickInfo } from "./hallRacks";
import { ModeChoice } from "./ModeChoice";
import { FLOW_MODE, withMode, type ModeSettings } from "./packet";
import { PickBar } from "./PickBar";
import { Dialog } from "../widgets/Dialog";
import {
  BUNDLED_CDFS,
  DEFAULT_PARAMS,
  parseSeeds,
  PRESETS,
  presetOf,
  PresetError,
  requestsFor,
  ROUTINGS,
  type Failure,
  type Params,
  type PickedRacks,
  type PresetKind,
  type RoutingType,
} from "./presets";
import { useSimulations } from "./store";

const FIELDS: Record<keyof Params, { label: string; step?: number; min?: number; max?: number }> = {
  racks: { label: "Logical racks in the job", min: 0 },
  placement: { label: "Racks placed" },
  mb: { label: "MB per flow (per pair)", step: 0.1, min: 0 },
  senderRacks: { label: "Sender logical racks", min: 1 },
  receiverRacks: { label: "Receiver logical racks", min: 1 },
  cdf: { label: "Flow sizes from" },
  load: { label: "Load (share of server links)", step: 0.05, min: 0, max: 1 },
  flows: { label: "Flows", min: 1 },
  interRackOnly: { label: "Only between racks" },
  fanIn: { label: "Fan-in (servers answering)", min: 1 },
  responseKb: { label: "Response KB", step: 1, min: 0 },
  queries: { label: "Queries", min: 1 },
  ratePerS: { label: "Rate per second", min: 0 },
  cacheRacks: { label: "Cache logical racks", min: 1 },
  requestBytes: { label: "Request bytes", min: 1 },
  latencyBoundUs: { label: "Latency bound (µs)", min: 1 },
};

/** The rack sets a workload takes by name (picked on the floor or from the list). */
const SETS_OF: Record<PresetKind, readonly PickSet[]> = {
  shuffle: ["job"],
  permutation: ["job"],
  all_to_all: ["job"],
  background: ["job"],
  rack_to_rack: ["senders", "receivers"],
  incast: [],
  memcache: ["cache"],
};

/** The count a chosen set replaces, and what is used while none is chosen. */
/** The counts that are logical racks (the note under the form says so). */
const LOGICAL_COUNTS: ReadonlySet<keyof Params> = new Set(["racks", "senderRacks", "receiverRacks", "cacheRacks"]);

const SET_FIELDS: Record<PickSet, { params: readonly (keyof Params)[]; otherwise: string }> = {
  job: { params: ["racks", "placement"], otherwise: "the racks counted above" },
  senders: { params: ["senderRacks"], otherwise: "the first racks that are not receivers" },
  receivers: { params: ["receiverRacks"], otherwise: "the racks after the senders" },
  cache: { params: ["cacheRacks"], otherwise: "the first racks of the plan" },
};

/** A failure in the form: a switch or a cable, with its times. */
type FailureRow = FailurePick & { atMs: number; recoverMs: number | null };

/** The first row keeps the plain test ids the single-failure form had; later rows are numbered. */
const tid = (base: string, i: number) => (i === 0 ? base : `${base}-${i}`);

export function SimulateDialog({ plans, onClose }: { plans: WiringPlan[]; onClose: () => void }) {
  const [kind, setKind] = useState<PresetKind>("shuffle");
  const [params, setParams] = useState<Params>(DEFAULT_PARAMS);
  const [routing, setRouting] = useState<RoutingType>("ecmp");
  const [seeds, setSeeds] = useState("1");
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<FailureRow[]>([]);
  const [picked, setPicked] = useState<Record<PickSet, readonly string[]>>(EMPTY_CHOSEN);
  const [picking, setPicking] = useState(false);
  const [network, setNetwork] = useState<PlanNetwork | null>(null);
  const [mode, setMode] = useState<ModeSettings>(FLOW_MODE);
  const first = plans[0];
  useEffect(() => {
    if (first) void networkOfPlan(first.id).then(setNetwork, () => setNetwork(null));
  }, [first]);
  // The hall's racks as the (first) plan has them: what the floor and the lists offer.
  const rackInfo = useMemo(() => (network ? rackPickInfo(network.nodes, editor.records) : null), [network]);
  const preset = presetOf(kind);
  const sets = SETS_OF[kind];
  const set = <K extends keyof Params>(k: K, v: Params[K]) => setParams((p) => ({ ...p, [k]: v }));
  const replaced = (k: keyof Params) => sets.some((s) => picked[s].length > 0 && SET_FIELDS[s].params.includes(k));
  // The first plan's request for one seed, as the form stands: what the run-time estimate is of.
  const draft = useMemo(() => {
    if (!network) return null;
    try {
      const chosen: PickedRacks = Object.fromEntries(sets.map((k) => [k, picked[k]]));
      return requestsFor(kind, params, routing, [1], network.racks, null, chosen)[0] ?? null;
    } catch {
      return null; // the form says what is wrong when it is submitted
    }
  }, [network, kind, params, routing, sets, picked]);

  // A picking session never outlives the form.
  useEffect(() => () => void endPick(), []);

  const beginPick = async (mode: PickMode) => {
    if (!first || !rackInfo) return;
    try {
      await showPlanCables(first.id);
    } catch (e) {
      notify("error", `The cables of #${first.id} could not be shown: ${e instanceof Error ? e.message : String(e)}`);
    }
    startPick({
      planId: first.id,
      sets,
      mode,
      chosen: picked,
      failures: failures.map(({ kind: k, id, label }) => ({ kind: k, id, label })),
      failKind: "device",
      racks: rackInfo,
    });
    setPicking(true);
  };

  const finishPick = useCallback(() => {
    const s = endPick();
    setPicking(false);
    if (!s) return;
    setPicked(s.chosen);
    // Failures picked keep the times the form gave them; new ones fail at 0 and stay down.
    setFailures((prev) =>
      s.failures.map((f) => prev.find((p) => p.kind === f.kind && p.id === f.id) ?? { ...f, atMs: 0, recoverMs: null }),
    );
  }, []);

  /** The list's way to pick: the same toggle as a click on the floor. */
  const toggleFromList = (k: PickSet, rackId: string) => {
    if (!first || !rackInfo) return;
    const session: PickSession = {
      planId: first.id,
      sets,
      mode: k,
      chosen: picked,
      failures: [],
      failKind: "device",
      racks: rackInfo,
    };
    setPicked(toggleRack(session, rackId).chosen);
  };

  const run = async () => {
    setError(null);
    setBusy(true);
    try {
      const seedList = parseSeeds(seeds);
      const failureList: Failure[] = failures.map((f) =>
        f.kind === "link"
          ? { link: f.id, atMs: f.atMs, recoverMs: f.recoverMs }
          : { node: f.id, atMs: f.atMs, recoverMs: f.recoverMs },
      );
      const chosen: PickedRacks = Object.fromEntries(sets.map((k) => [k, picked[k]]));
      // Every request is built before any is sent: a refusal for one plan submits nothing.
      const perPlan = await Promise.all(
        plans.map(async (p) => {
          const net = await networkOfPlan(p.id);
          const ids = new Set([...net.nodes.map((n) => n.id), ...net.links.map((l) => l.id)]);
          const missing = failures.find((f) => !ids.has(f.id));
          if (missing)
            throw new PresetError(
              "failures",
              `${missing.kind === "link" ? "cable" : "switch"} ${missing.id} is not in plan #${p.id}`,
            );
          const reqs = requestsFor(kind, params, routing, seedList, net.racks, failureList, chosen);
          return { plan: p, reqs: reqs.map((r) => withMode(r, mode)) };
        }),
      );
      const ids: number[] = [];
      for (const { plan, reqs } of perPlan) for (const r of reqs) ids.push((await submit(plan.id, r)).id);
      useSimulations.setState((s) => ({ selected: ids, dialog: { d: "none" }, jobs: s.jobs }));
      notify("info", `${ids.length} simulation${ids.length === 1 ? "" : "s"} submitted`);
    } catch (e) {
      if (e instanceof PresetError) setError({ field: e.field, text: e.message });
      else if (e instanceof ApiError) setError({ field: e.items[0]?.field ?? "", text: e.message });
      else setError({ field: "", text: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (k: string) =>
    error?.field === k ? (
      <span className="field-error" role="alert">
        {error.text}
      </span>
    ) : null;

  // While picking on the floor the form steps aside (its state stays here) for the bar over the hall.
  if (picking) return <PickBar onDone={finishPick} />;

  return (
    <Dialog
      className="sim-dialog"
      title={`Simulate ${plans.map((p) => `#${p.id}`).join(" and ")}`}
      onClose={onClose}
      testId="simulate-dialog"
    >
      <p className="muted small">
        {plans.length > 1
          ? `The same workload on ${plans.map((p) => `#${p.id} ${p.name}`).join(" and ")}, like for like.`
          : `On #${plans[0]?.id} ${plans[0]?.name}.`}{" "}
        {mode.mode === "packet"
          ? "Packet-level runs: TCP, queues and losses; slower."
          : "Fluid estimate; tails, incast and latency bounds need packet mode."}
      </p>
      <h3>Workload</h3>
      <div className="sim-presets" role="radiogroup" aria-label="Workload">
        {PRESETS.map((p) => (
          <label key={p.kind} className={`sim-preset${p.kind === kind ? " active" : ""}`}>
            <input
              type="radio"
              name="preset"
              checked={p.kind === kind}
              onChange={() => setKind(p.kind)}
              data-testid={`preset-${p.kind}`}
            />
            <strong>{p.label}</strong>
            <span className="muted small">{p.explain}</span>
          </label>
        ))}
      </div>
      <div className="sim-params">
        {preset.params.map((k) => (
          <label key={k} className="sim-param">
            <span>{kind === "background" && k === "racks" ? "Logical racks (0 = whole hall)" : FIELDS[k].label}</span>
            {k === "placement" ? (
              <select
                value={params.placement}
                onChange={(e) => set("placement", e.target.value as Params["placement"])}
                disabled={replaced("placement")}
                data-testid="param-placement"
              >
                <option value="contiguous">side by side</option>
                <option value="spread">spread over the hall</option>
              </select>
            ) : k === "cdf" ? (
              <select
                value={params.cdf}
                onChange={(e) => set("cdf", e.target.value as Params["cdf"])}
                data-testid="param-cdf"
              >
                {BUNDLED_CDFS.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </select>
            ) : k === "interRackOnly" ? (
              <input
                type="checkbox"
                checked={params.interRackOnly}
                onChange={(e) => set("interRackOnly", e.target.checked)}
                data-testid="param-interRackOnly"
              />
            ) : (
              <input
                type="number"
                value={params[k] as number}
                step={FIELDS[k].step ?? 1}
                min={FIELDS[k].min}
                max={FIELDS[k].max}
                onChange={(e) => set(k, e.target.valueAsNumber as never)}
                disabled={replaced(k)}
                title={replaced(k) ? "the chosen racks below are used instead" : undefined}
                data-testid={`param-${k}`}
              />
            )}
            {fieldError(k)}
          </label>
        ))}
      </div>
      {preset.params.some((k) => LOGICAL_COUNTS.has(k)) && (
        <p className="muted small" data-testid="logical-racks-note">
          Rack counts are logical racks: the servers wired alike with their own ToR (a physical rack holds one or more).
        </p>
      )}
      {sets.length > 0 && (
        <>
          <h3>Racks</h3>
          {sets.map((k) => {
            const names = picked[k];
            const chosenRacks = rackInfo
              ? [...rackInfo.values()].filter((r) => r.logical.some((l) => names.includes(l)))
              : [];
            return (
              <fieldset key={k} className="sim-pick" data-testid={`sim-set-${k}`}>
                <legend>
                  <span className="sw" style={{ background: PICK_SETS[k].colour }} /> {PICK_SETS[k].label}
                </legend>
                <p className="small" data-testid={`sim-set-${k}-chosen`} data-logical={names.join(" ")}>
                  {names.length
                    ? `${chosenRacks.length} rack${chosenRacks.length === 1 ? "" : "s"} chosen (${names.length} logical): ${chosenRacks.map((r) => r.name).join(", ")}`
                    : `None chosen: ${SET_FIELDS[k].otherwise}.`}
                </p>
                <div className="button-row">
                  <button
                    type="button"
                    disabled={!rackInfo}
                    onClick={() => void beginPick(k)}
                    data-testid={`sim-pick-${k}`}
                  >
                    Pick on the floor
                  </button>
                  {names.length > 0 && (
                    <button type="button" className="link" onClick={() => setPicked((p) => ({ ...p, [k]: [] }))}>
                      Clear
                    </button>
                  )}
                </div>
                <details>
                  <summary className="small">Choose from the list</summary>
                  <div className="sim-pick-list small">
                    {[...(rackInfo ?? new Map()).entries()]
                      .filter(([, r]) => r.logical.length > 0)
                      .map(([id, r]) => (
                        <label key={id}>
                          <input
                            type="checkbox"
                            checked={r.logical.every((l: string) => names.includes(l))}
                            onChange={() => toggleFromList(k, id)}
                            data-testid={`sim-set-${k}-rack-${r.name}`}
                          />{" "}
                          {r.name}
                        </label>
                      ))}
                  </div>
                </details>
              </fieldset>
            );
          })}
        </>
      )}
      <div className="sim-params">
        <label className="sim-param">
          <span>Routing</span>
          <select value={routing} onChange={(e) => setRouting(e.target.value as RoutingType)} data-testid="sim-routing">
            {ROUTINGS.map((r) => (
              <option key={r.type} value={r.type}>
                {r.label}
              </option>
            ))}
          </select>
          <span className="muted small">{ROUTINGS.find((r) => r.type === routing)?.explain}</span>
        </label>
        <label className="sim-param">
          <span>Seeds</span>
          <input
            value={seeds}
            onChange={(e) => setSeeds(e.target.value)}
            data-testid="sim-seeds"
            placeholder="1, 2, 3 or 1..5"
          />
          <span className="muted small">Several seeds give a spread.</span>
          {fieldError("seeds")}
        </label>
      </div>
      <h3>Failures</h3>
      <div className="sim-failures" data-testid="sim-failures">
        {failures.map((f, i) => (
          <div key={`${f.kind}:${f.id}`} className="sim-params" data-testid={`sim-failure-${i}`} data-kind={f.kind}>
            <label className="sim-param">
              <span>{f.kind === "link" ? "A cable fails" : "A switch fails"}</span>
              {f.kind === "link" ? (
                <span className="small">
                  {f.label}{" "}
                  <button
                    type="button"
                    className="link"
                    onClick={() => setFailures((xs) => xs.filter((x) => x !== f))}
                    aria-label={`Remove the failure of ${f.label}`}
                  >
                    ✕
                  </button>
                </span>
              ) : (
                <select
                  value={f.id}
                  onChange={(e) => {
                    const id = e.target.value;
                    const n = network?.switches.find((x) => x.id === id);
                    setFailures((xs) =>
                      id && n
                        ? xs.map((x) => (x === f ? { ...x, id, label: `${id} (${n.role})` } : x))
                        : xs.filter((x) => x !== f),
                    );
                  }}
                  data-testid={tid("sim-fail-node", i)}
                >
                  <option value="">none (remove)</option>
                  {network?.switches.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.id} ({n.role})
                    </option>
                  ))}
                </select>
              )}
            </label>
            <label className="sim-param">
              <span>Fails at (ms)</span>
              <input
                type="number"
                min={0}
                value={f.atMs}
                onChange={(e) =>
                  setFailures((xs) => xs.map((x) => (x === f ? { ...x, atMs: e.target.valueAsNumber } : x)))
                }
                data-testid={tid("sim-fail-at", i)}
              />
            </label>
            <label className="sim-param">
              <span>Back at (ms, empty: stays down)</span>
              <input
                type="number"
                min={0}
                value={f.recoverMs ?? ""}
                onChange={(e) => {
                  const v = Number.isFinite(e.target.valueAsNumber) ? e.target.valueAsNumber : null;
                  setFailures((xs) => xs.map((x) => (x === f ? { ...x, recoverMs: v } : x)));
                }}
                data-testid={tid("sim-fail-recover", i)}
              />
            </label>
          </div>
        ))}
        <div className="sim-params">
          <label className="sim-param">
            <span>{failures.length ? "Another switch fails" : "A switch fails"}</span>
            <select
              value=""
              onChange={(e) => {
                const n = network?.switches.find((x) => x.id === e.target.value);
                if (n)
                  setFailures((xs) => [
                    ...xs,
                    { kind: "node", id: n.id, label: `${n.id} (${n.role})`, atMs: 0, recoverMs: null },
                  ]);
              }}
              data-testid={tid("sim-fail-node", failures.length)}
            >
              <option value="">none</option>
              {network?.switches
                .filter((n) => !failures.some((f) => f.kind === "node" && f.id === n.id))
                .map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.id} ({n.role})
                  </option>
                ))}
            </select>
          </label>
          <div className="sim-param">
            <span>or on the floor: a ToR, a switch, a cable</span>
            <button
              type="button"
              disabled={!rackInfo}
              onClick={() => void beginPick("failures")}
              data-testid="sim-pick-failures"
            >
              Pick failures on the floor
            </button>
          </div>
        </div>
        {fieldError("failAtMs")}
        {fieldError("failures")}
      </div>
      <ModeChoice planId={first?.id} draft={draft} value={mode} onChange={setMode} />
      {error &&
        !preset.params.includes(error.field as keyof Params) &&
        error.field !== "seeds" &&
        error.field !== "failAtMs" &&
        error.field !== "failures" && (
          <p className="field-error" role="alert" data-testid="sim-error">
            {error.field && <code>{error.field}</code>} {error.text}
          </p>
        )}
      <div className="button-row">
        <button type="button" className="primary" disabled={busy} onClick={() => void run()} data-testid="sim-run">
          {busy ? "Submitting…" : "Run simulation"}
        </button>
      </div>
    </Dialog>
  );
}
