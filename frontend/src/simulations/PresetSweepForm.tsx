/**
 * A sweep picked by name from the server's table (issue 31: "Collective sweep (1 MB to 4 GB)"): the
 * preset sets the workload and the varied axis; the planner chooses the pattern (a rail pattern with its
 * SU size and leaf model for a GPU hall) and the job (operation, algorithm, GPUs, placement) from the
 * workload preset's own fields.
 */
import { useMemo, useState, type ReactNode } from "react";
import { useCatalog } from "../state/catalog";
import { ApiError, request } from "../sync/http";
import { defaultsOf, paramsOf, PresetError, type Preset, type Shown } from "./presets";
import { ParamInput } from "./SimulateDialogWorkload";
import {
  GridError,
  PRESET_SWEEP_PARAMS,
  presetSweepBody,
  type RailChoice,
  type SweepDetail,
  type SweepPreset,
} from "./sweeps";

const PATTERNS = [
  "rail-optimized",
  "rail-only",
  "single-homed",
  "mc-lag",
  "side-to-side",
  "paired-row",
  "inter-chassis",
  "grin",
];
const isRail = (pattern: string) => pattern === "rail-optimized" || pattern === "rail-only";

/** The rail options of a sweep's plans: SU size, the rail leaves' model, their ratio (rail-optimized only). */
export function RailInputs({
  pattern,
  rail,
  setRail,
  fieldError,
}: {
  pattern: string;
  rail: RailChoice;
  setRail: (r: RailChoice) => void;
  fieldError: (field: string) => ReactNode;
}) {
  const switches = useCatalog((s) => s.switchModels).filter((m) => m.id !== undefined);
  return (
    <>
      <label className="sim-param">
        <span>Servers per SU</span>
        <input
          type="number"
          min={1}
          value={rail.suSize}
          onChange={(e) => setRail({ ...rail, suSize: e.target.value })}
          data-testid="sweep-su-size"
        />
        {fieldError("su_size")}
      </label>
      <label className="sim-param">
        <span>Rail leaf model</span>
        <select
          value={rail.leafModelId ?? ""}
          onChange={(e) => setRail({ ...rail, leafModelId: e.target.value === "" ? null : Number(e.target.value) })}
          data-testid="sweep-leaf-model"
        >
          <option value="">choose a switch model…</option>
          {switches.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
        {fieldError("rail_leaf_model_id")}
      </label>
      {pattern === "rail-optimized" && (
        <label className="sim-param">
          <span>Leaf oversubscription (x:1)</span>
          <input
            type="number"
            min={0}
            step="any"
            placeholder="1"
            value={rail.oversubscription}
            onChange={(e) => setRail({ ...rail, oversubscription: e.target.value })}
            data-testid="sweep-oversubscription"
          />
          {fieldError("oversubscription")}
        </label>
      )}
    </>
  );
}

export function PresetSweepForm({
  hallId,
  sweep,
  presets,
  onCreated,
}: {
  hallId: number;
  sweep: SweepPreset;
  presets: readonly Preset[];
  onCreated: (s: SweepDetail) => void;
}) {
  const [name, setName] = useState(sweep.label);
  const [pattern, setPattern] = useState("rail-optimized");
  const [rail, setRail] = useState<RailChoice>({ suSize: "", leafModelId: null, oversubscription: "" });
  // The workload preset's fields a sweep passes on (not the axis the sweep varies).
  const workload = useMemo(() => {
    const found = presets.find((p) => p.name === sweep.base.workload);
    return found
      ? {
          ...found,
          params: found.params.filter((p) => PRESET_SWEEP_PARAMS.includes(p.name) && !(p.name in sweep.grid)),
        }
      : null;
  }, [presets, sweep]);
  const [shown, setShown] = useState<Record<string, Shown> | null>(null);
  const values = shown ?? (workload ? defaultsOf(workload) : {});
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      const params = workload ? paramsOf(workload, values) : {};
      const body = presetSweepBody(sweep, name, pattern, isRail(pattern) ? rail : null, params);
      onCreated(await request<SweepDetail>("POST", `/halls/${hallId}/sweeps`, { body }));
    } catch (e) {
      if (e instanceof GridError || e instanceof PresetError) setError({ field: e.field, text: e.message });
      else if (e instanceof ApiError) setError({ field: e.items[0]?.loc.at(-1)?.toString() ?? "", text: e.message });
      else setError({ field: "", text: String(e) });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (field: string) =>
    error?.field === field && (
      <span className="field-error" data-testid={`sweep-error-${field}`}>
        {error.text}
      </span>
    );
  const shownFields = [
    "su_size",
    "rail_leaf_model_id",
    "oversubscription",
    ...(workload?.params.map((p) => p.name) ?? []),
  ];
  return (
    <>
      <p className="muted small" data-testid="sweep-preset-explain">
        {sweep.explain} Every point generates its plan of this hall with the pattern below and simulates it.
      </p>
      <div className="sim-params">
        <label className="sim-param">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} data-testid="sweep-name" />
        </label>
        <label className="sim-param">
          <span>Pattern</span>
          <select value={pattern} onChange={(e) => setPattern(e.target.value)} data-testid="sweep-pattern">
            {PATTERNS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        {isRail(pattern) && <RailInputs pattern={pattern} rail={rail} setRail={setRail} fieldError={fieldError} />}
        {workload?.params.map((p) => (
          <label key={p.name} className="sim-param" title={p.help}>
            <span>{p.label}</span>
            <ParamInput
              p={p}
              value={values[p.name]}
              onValue={(v) => setShown({ ...values, [p.name]: v })}
              testId={`sweep-param-${p.name}`}
            />
            {fieldError(p.name)}
          </label>
        ))}
      </div>
      <p className="muted small" data-testid="sweep-preset-axis">
        Varies{" "}
        {Object.entries(sweep.grid)
          .map(([k, v]) => `${k} over ${v.length} values`)
          .join(", ")}
        .
      </p>
      <div className="button-row">
        <button type="button" className="primary" disabled={busy} onClick={() => void submit()} data-testid="sweep-run">
          Run sweep
        </button>
      </div>
      {error && !shownFields.includes(error.field) && (
        <p className="field-error" role="alert" data-testid="sweep-error">
          {error.field && <code>{error.field}</code>} {error.text}
        </p>
      )}
    </>
  );
}
