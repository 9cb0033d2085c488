/**
 * "Plan an upgrade" from a plan: the upgrades the hall can build are offered (the API generates each),
 * the first buildable one preselected; one the servers' NIC ports prevent says so and offers to switch
 * the logical racks' server model first. Then generate the upgraded plan and see its difference.
 */
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../sync/http";
import { switchServerModel } from "../sync/serverModels";
import { createUpgrade, upgradeOptions } from "./api";
import type { WiringPlan } from "./compare";
import { Dialog } from "../widgets/Dialog";
import {
  currentPorts,
  defaultChange,
  describeChange,
  offeredOption,
  optionChange,
  upgradeRequest,
  UPGRADE_KINDS,
  type Pattern,
  type UpgradeChange,
  type WiringOption,
} from "./upgrade";

/** A `Record` over the generated enum: tsc fails here when the API gains a pattern. */
const PATTERN_LABELS: Record<Pattern, string> = {
  "single-homed": "Single-homed (Type 0)",
  "mc-lag": "MC-LAG (dual-homed)",
  "side-to-side": "Subways · side-to-side",
  "paired-row": "Subways · paired rows",
  "inter-chassis": "Subways · inter-chassis",
  grin: "GRIN (server-to-server)",
  "rail-optimized": "Rail-optimized (GPU)",
  "rail-only": "Rail-only (GPU)",
};

function NumberField({
  label,
  value,
  min,
  step,
  onChange,
  testId,
}: {
  label: string;
  value: number;
  min: number;
  step?: number;
  onChange: (v: number) => void;
  testId: string;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        type="number"
        min={min}
        step={step ?? 1}
        value={Number.isFinite(value) ? value : ""}
        onChange={(e) => onChange(e.target.valueAsNumber)}
        data-testid={testId}
      />
    </label>
  );
}

export function UpgradeDialog({
  base,
  onClose,
  onCreated,
}: {
  base: WiringPlan;
  onClose: () => void;
  onCreated: (upgraded: WiringPlan) => void;
}) {
  const [change, setChange] = useState<UpgradeChange>(() => defaultChange(base, "ports"));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [options, setOptions] = useState<WiringOption[] | null>(null);
  // The preselection never overrides what the planner already chose.
  const touched = useRef(false);
  const choose = (c: UpgradeChange) => {
    touched.current = true;
    setChange(c);
  };
  const [revision, setRevision] = useState(0);
  // What the hall can build, read again after its servers change; the first buildable one preselected.
  useEffect(() => {
    let live = true;
    upgradeOptions(base.id).then(
      (o) => {
        if (!live) return;
        setOptions(o.options);
        const pick = o.preselected === null || o.preselected === undefined ? null : o.options[o.preselected];
        if (pick && !touched.current) setChange(optionChange(pick));
      },
      (e: unknown) => live && setError(`Upgrade options: ${e instanceof Error ? e.message : String(e)}`),
    );
    return () => {
      live = false;
    };
  }, [base.id, revision]);
  const offered = options ? offeredOption(options, change) : null;
  const blocked = offered !== null && !offered.feasible;
  const submit = async (what: UpgradeChange = change) => {
    setBusy(true);
    setError(null);
    try {
      onCreated(await createUpgrade(base, upgradeRequest(base, what)));
    } catch (e) {
      setError(
        e instanceof ApiError
          ? e.items.map((i) => i.msg).join("; ") || `The upgrade was refused (${e.status}).`
          : String(e),
      );
    } finally {
      setBusy(false);
    }
  };
  const switchThenGenerate = async (o: WiringOption, modelId: number) => {
    const need = o.needs_hardware;
    if (!need) return;
    setBusy(true);
    setError(null);
    try {
      await switchServerModel(base.hall_id, need.nic_ports, modelId);
      setRevision((r) => r + 1);
    } catch (e) {
      setBusy(false);
      setError(
        `The server model could not be changed: ${e instanceof ApiError ? e.items.map((i) => i.msg).join("; ") : String(e)}`,
      );
      return;
    }
    await submit(optionChange(o));
  };
  return (
    <Dialog title={`Plan an upgrade of #${base.id} ${base.name}`} onClose={onClose} testId="upgrade-dialog">
      <div className="upgrade-form">
        <fieldset className="upgrade-options" data-testid="upgrade-options" data-loaded={options !== null}>
          <legend>What this hall can build</legend>
          {options === null && <p className="muted small">Checking which upgrades the hall can build…</p>}
          {options?.map((o) => {
            const chosen = offered === o;
            return (
              <div
                key={o.label}
                className={`upgrade-option${o.feasible ? "" : " infeasible"}`}
                data-testid={`upgrade-option-${o.label}`}
                data-feasible={o.feasible}
              >
                <label>
                  <input
                    type="radio"
                    name="upgrade-option"
                    checked={chosen}
                    disabled={!o.feasible}
                    onChange={() => choose(optionChange(o))}
                  />{" "}
                  {o.label}
                </label>
                {!o.feasible && !o.needs_hardware && <span className="muted small"> · {o.reason}</span>}
                {o.needs_hardware && (
                  <div className="small" data-testid="upgrade-needs-hardware">
                    <span className="warn">
                      Needs servers with {o.needs_hardware.nic_ports} NIC ports (
                      {o.needs_hardware.logical_racks.toLocaleString("en")} logical racks have fewer).
                    </span>{" "}
                    {o.needs_hardware.server_models.map((m) => (
                      <button
                        key={m.id}
                        type="button"
                        disabled={busy}
                        onClick={() => void switchThenGenerate(o, m.id)}
                        data-testid="upgrade-switch-model"
                      >
                        Switch them to {m.name} ({m.nic_ports} NIC ports) and generate {o.label}
                      </button>
                    ))}
                    {o.needs_hardware.server_models.length === 0 && (
                      <span className="muted"> No server model of the catalog has them at this speed: add one.</span>
                    )}
                  </div>
                )}
              </div>
            );
          })}
          {options !== null && !options.some((o) => o.feasible) && (
            <p className="field-error small">This hall can build none of these upgrades as it is.</p>
          )}
        </fieldset>
        <p className="muted small">Or set the change yourself:</p>
        <label className="field">
          <span className="field-label">What changes</span>
          <select
            value={change.kind}
            onChange={(e) => choose(defaultChange(base, e.target.value as UpgradeChange["kind"]))}
            data-testid="upgrade-kind"
          >
            {UPGRADE_KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        {change.kind === "ports" && (
          <>
            <p className="muted small">
              The plan has p = {currentPorts(base)} port(s) per server. A Subways plan moves no cable when p grows: the
              new ports get new cables.
            </p>
            <NumberField
              label="p · ports per server"
              value={change.ports}
              min={1}
              onChange={(ports) => choose({ kind: "ports", ports })}
              testId="upgrade-ports"
            />
          </>
        )}
        {change.kind === "parallel" && (
          <div className="field-row">
            <NumberField
              label="New ports per server"
              value={change.parallel.ports}
              min={1}
              onChange={(ports) => choose({ kind: "parallel", parallel: { ...change.parallel, ports } })}
              testId="upgrade-parallel-ports"
            />
            <NumberField
              label="Speed (Gb/s)"
              value={change.parallel.gbps}
              min={1}
              onChange={(gbps) => choose({ kind: "parallel", parallel: { ...change.parallel, gbps } })}
              testId="upgrade-parallel-gbps"
            />
            <NumberField
              label="Server ports per new ToR"
              value={change.parallel.tor_server_ports}
              min={1}
              onChange={(n) => choose({ kind: "parallel", parallel: { ...change.parallel, tor_server_ports: n } })}
              testId="upgrade-parallel-tor-ports"
            />
            <NumberField
              label="c · clusters"
              value={change.parallel.clusters}
              min={1}
              onChange={(clusters) => choose({ kind: "parallel", parallel: { ...change.parallel, clusters } })}
              testId="upgrade-parallel-clusters"
            />
          </div>
        )}
        {change.kind === "loop" && (
          <NumberField
            label="l · logical racks per loop"
            value={change.loop}
            min={2}
            onChange={(loop) => choose({ kind: "loop", loop })}
            testId="upgrade-loop"
          />
        )}
        {change.kind === "pattern" && (
          <label className="field">
            <span className="field-label">Pattern</span>
            <select
              value={change.pattern}
              onChange={(e) => choose({ kind: "pattern", pattern: e.target.value as Pattern })}
              data-testid="upgrade-pattern"
            >
              {(Object.keys(PATTERN_LABELS) as Pattern[]).map((p) => (
                <option key={p} value={p}>
                  {PATTERN_LABELS[p]}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="muted small">Every other parameter stays as in #{base.id}.</p>
        {blocked && (
          <p className="field-error small" data-testid="upgrade-blocked">
            The hall cannot build {offered.label} as it is: {offered.reason}
          </p>
        )}
        <button
          type="button"
          className="primary"
          disabled={busy || blocked}
          onClick={() => void submit()}
          data-testid="upgrade-generate"
        >
          {busy ? "Generating…" : `Generate the upgrade (${describeChange(change)})`}
        </button>
        {error && (
          <p className="field-error" role="alert" data-testid="upgrade-error">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  );
}
