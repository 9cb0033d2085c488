/**
 * The workload part of the simulation form, drawn from the server's preset table: the presets in the
 * planner's words, and each parameter's field with its label, unit, bounds and default.
 */
import type { Preset, PresetParam, Shown, ShownValues } from "./presets";
import { FieldError } from "./SimulateDialogFieldError";
import { isLogicalCount, type FormError } from "./SimulateDialogForm";

export function WorkloadChoice({
  presets,
  kind,
  onKind,
}: {
  presets: readonly Preset[];
  kind: string;
  onKind: (k: string) => void;
}) {
  return (
    <>
      <h3>Workload</h3>
      <div className="sim-presets" role="radiogroup" aria-label="Workload">
        {presets.map((p) => (
          <label key={p.name} className={`sim-preset${p.name === kind ? " active" : ""}`}>
            <input
              type="radio"
              name="preset"
              checked={p.name === kind}
              onChange={() => onKind(p.name)}
              data-testid={`preset-${p.name}`}
            />
            <strong>{p.label}</strong>
            <span className="muted small">{p.explain}</span>
          </label>
        ))}
      </div>
    </>
  );
}

/** A bound in the field's display unit (`min`/`max` of a number input). */
const shownBound = (p: PresetParam, x: number | null) => (x === null ? undefined : x / (p.display_scale || 1));

/** One parameter's field, as the table describes it (the sweep form draws the fields it shares with it). */
export function ParamInput({
  p,
  value,
  onValue,
  off = false,
  testId = `param-${p.name}`,
  switches = [],
}: {
  p: PresetParam;
  value: Shown | undefined;
  onValue: (v: Shown) => void;
  off?: boolean;
  testId?: string;
  /** A `node` parameter's choices: the plan's switches (rail leaves, spines, ...). */
  switches?: readonly { id: string; role: string }[];
}) {
  if (p.kind === "node")
    return (
      <select value={String(value ?? "")} onChange={(e) => onValue(e.target.value)} disabled={off} data-testid={testId}>
        <option value="">none</option>
        {switches.map((n) => (
          <option key={n.id} value={n.id}>
            {n.id} ({n.role})
          </option>
        ))}
      </select>
    );
  if (p.kind === "choice")
    return (
      <select value={String(value ?? "")} onChange={(e) => onValue(e.target.value)} disabled={off} data-testid={testId}>
        {p.default === null && <option value="">engine default</option>}
        {p.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  if (p.kind === "boolean")
    return (
      <input
        type="checkbox"
        checked={value === true}
        onChange={(e) => onValue(e.target.checked)}
        disabled={off}
        data-testid={testId}
      />
    );
  const n = typeof value === "number" ? value : NaN;
  return (
    <input
      type="number"
      value={Number.isNaN(n) ? "" : n}
      step={p.step}
      min={shownBound(p, p.minimum)}
      max={shownBound(p, p.maximum)}
      placeholder={p.default === null ? "engine default" : undefined}
      onChange={(e) => onValue(e.target.valueAsNumber)}
      disabled={off}
      title={off ? "the chosen racks below are used instead" : undefined}
      data-testid={testId}
    />
  );
}

export function WorkloadParams({
  preset,
  values,
  onValue,
  replaced,
  error,
  switches = [],
}: {
  preset: Preset;
  values: ShownValues;
  onValue: (name: string, v: Shown) => void;
  /** A count replaced by a chosen rack set: its input is off. */
  replaced: (name: string) => boolean;
  error: FormError | null;
  /** The first plan's switches, for a parameter naming one (a failed rail leaf or spine). */
  switches?: readonly { id: string; role: string }[];
}) {
  return (
    <>
      <div className="sim-params">
        {preset.params.map((p) => (
          <label key={p.name} className="sim-param" title={p.help}>
            <span>{p.label}</span>
            <ParamInput
              p={p}
              value={values[p.name]}
              onValue={(v) => onValue(p.name, v)}
              off={replaced(p.name)}
              switches={switches}
            />
            <FieldError error={error} field={p.name} />
          </label>
        ))}
      </div>
      {preset.params.some(isLogicalCount) && (
        <p className="muted small" data-testid="logical-racks-note">
          Rack counts are logical racks: the servers wired alike with their own ToR (a physical rack holds one or more).
        </p>
      )}
    </>
  );
}
