/** "Plan an upgrade" from a plan: pick the change, generate the upgraded plan, then see its difference. */
import { useState } from "react";
import { ApiError } from "../sync/http";
import { createUpgrade } from "./api";
import type { WiringPlan } from "./compare";
import { Dialog } from "../widgets/Dialog";
import {
  currentPorts,
  defaultChange,
  describeChange,
  upgradeRequest,
  UPGRADE_KINDS,
  type Pattern,
  type UpgradeChange,
} from "./upgrade";

/** A `Record` over the generated enum: tsc fails here when the API gains a pattern. */
const PATTERN_LABELS: Record<Pattern, string> = {
  "single-homed": "Single-homed (Type 0)",
  "mc-lag": "MC-LAG (dual-homed)",
  "side-to-side": "Subways · side-to-side",
  "paired-row": "Subways · paired rows",
  "inter-chassis": "Subways · inter-chassis",
  grin: "GRIN (server-to-server)",
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
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      onCreated(await createUpgrade(base, upgradeRequest(base, change)));
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
  return (
    <Dialog title={`Plan an upgrade of #${base.id} ${base.name}`} onClose={onClose} testId="upgrade-dialog">
      <div className="upgrade-form">
        <label className="field">
          <span className="field-label">What changes</span>
          <select
            value={change.kind}
            onChange={(e) => setChange(defaultChange(base, e.target.value as UpgradeChange["kind"]))}
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
              onChange={(ports) => setChange({ kind: "ports", ports })}
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
              onChange={(ports) => setChange({ kind: "parallel", parallel: { ...change.parallel, ports } })}
              testId="upgrade-parallel-ports"
            />
            <NumberField
              label="Speed (Gb/s)"
              value={change.parallel.gbps}
              min={1}
              onChange={(gbps) => setChange({ kind: "parallel", parallel: { ...change.parallel, gbps } })}
              testId="upgrade-parallel-gbps"
            />
            <NumberField
              label="Server ports per new ToR"
              value={change.parallel.tor_server_ports}
              min={1}
              onChange={(n) => setChange({ kind: "parallel", parallel: { ...change.parallel, tor_server_ports: n } })}
              testId="upgrade-parallel-tor-ports"
            />
            <NumberField
              label="c · clusters"
              value={change.parallel.clusters}
              min={1}
              onChange={(clusters) => setChange({ kind: "parallel", parallel: { ...change.parallel, clusters } })}
              testId="upgrade-parallel-clusters"
            />
          </div>
        )}
        {change.kind === "loop" && (
          <NumberField
            label="l · logical racks per loop"
            value={change.loop}
            min={2}
            onChange={(loop) => setChange({ kind: "loop", loop })}
            testId="upgrade-loop"
          />
        )}
        {change.kind === "pattern" && (
          <label className="field">
            <span className="field-label">Pattern</span>
            <select
              value={change.pattern}
              onChange={(e) => setChange({ kind: "pattern", pattern: e.target.value as Pattern })}
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
        <button
          type="button"
          className="primary"
          disabled={busy}
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
