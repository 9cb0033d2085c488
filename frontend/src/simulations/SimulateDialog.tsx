/**
 * Run: the simulation form for one plan, or two for a like-for-like comparison. A preset in the
 * planner's words with its parameters, a routing scheme, seeds; one job per plan and seed.
 */
import { useEffect, useState } from "react";
import { notify } from "../state/session";
import { ApiError } from "../sync/http";
import { networkOfPlan, submit, type PlanNetwork, type WiringPlan } from "./api";
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
  type Params,
  type PresetKind,
  type RoutingType,
} from "./presets";
import { useSimulations } from "./store";

const FIELDS: Record<keyof Params, { label: string; step?: number; min?: number; max?: number }> = {
  racks: { label: "Racks in the job", min: 0 },
  placement: { label: "Racks placed" },
  mb: { label: "MB per flow (per pair)", step: 0.1, min: 0 },
  senderRacks: { label: "Sender racks", min: 1 },
  receiverRacks: { label: "Receiver racks", min: 1 },
  cdf: { label: "Flow sizes from" },
  load: { label: "Load (share of server links)", step: 0.05, min: 0, max: 1 },
  flows: { label: "Flows", min: 1 },
  interRackOnly: { label: "Only between racks" },
  fanIn: { label: "Fan-in (servers answering)", min: 1 },
  responseKb: { label: "Response KB", step: 1, min: 0 },
  queries: { label: "Queries", min: 1 },
  ratePerS: { label: "Rate per second", min: 0 },
  cacheRacks: { label: "Cache racks", min: 1 },
  requestBytes: { label: "Request bytes", min: 1 },
  latencyBoundUs: { label: "Latency bound (µs)", min: 1 },
};

export function SimulateDialog({ plans, onClose }: { plans: WiringPlan[]; onClose: () => void }) {
  const [kind, setKind] = useState<PresetKind>("shuffle");
  const [params, setParams] = useState<Params>(DEFAULT_PARAMS);
  const [routing, setRouting] = useState<RoutingType>("ecmp");
  const [seeds, setSeeds] = useState("1");
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failNode, setFailNode] = useState("");
  const [failAtMs, setFailAtMs] = useState(0);
  const [recoverMs, setRecoverMs] = useState<number | null>(null);
  const [network, setNetwork] = useState<PlanNetwork | null>(null);
  const first = plans[0];
  useEffect(() => {
    if (first) void networkOfPlan(first.id).then(setNetwork, () => setNetwork(null));
  }, [first]);
  const preset = presetOf(kind);
  const set = <K extends keyof Params>(k: K, v: Params[K]) => setParams((p) => ({ ...p, [k]: v }));

  const run = async () => {
    setError(null);
    setBusy(true);
    try {
      const seedList = parseSeeds(seeds);
      const failure = failNode ? { node: failNode, atMs: failAtMs, recoverMs } : null;
      // Every request is built before any is sent: a refusal for one plan submits nothing.
      const perPlan = await Promise.all(
        plans.map(async (p) => ({
          plan: p,
          reqs: requestsFor(kind, params, routing, seedList, (await networkOfPlan(p.id)).racks, failure),
        })),
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
        Fluid estimate; tails, incast and latency bounds need packet mode.
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
            <span>{kind === "background" && k === "racks" ? "Racks (0 = whole hall)" : FIELDS[k].label}</span>
            {k === "placement" ? (
              <select
                value={params.placement}
                onChange={(e) => set("placement", e.target.value as Params["placement"])}
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
                data-testid={`param-${k}`}
              />
            )}
            {fieldError(k)}
          </label>
        ))}
      </div>
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
          <span>A switch fails</span>
          <select value={failNode} onChange={(e) => setFailNode(e.target.value)} data-testid="sim-fail-node">
            <option value="">none</option>
            {network?.switches.map((n) => (
              <option key={n.id} value={n.id}>
                {n.id} ({n.role})
              </option>
            ))}
          </select>
        </label>
        {failNode && (
          <>
            <label className="sim-param">
              <span>Fails at (ms)</span>
              <input
                type="number"
                min={0}
                value={failAtMs}
                onChange={(e) => setFailAtMs(e.target.valueAsNumber)}
                data-testid="sim-fail-at"
              />
              {fieldError("failAtMs")}
            </label>
            <label className="sim-param">
              <span>Back at (ms, empty: stays down)</span>
              <input
                type="number"
                min={0}
                value={recoverMs ?? ""}
                onChange={(e) => setRecoverMs(Number.isFinite(e.target.valueAsNumber) ? e.target.valueAsNumber : null)}
                data-testid="sim-fail-recover"
              />
            </label>
          </>
        )}
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
      {error &&
        !preset.params.includes(error.field as keyof Params) &&
        error.field !== "seeds" &&
        error.field !== "failAtMs" && (
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
