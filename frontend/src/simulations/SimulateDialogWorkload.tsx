/** The workload part of the simulation form: the preset in the planner's words, and its parameters. */
import { BUNDLED_CDFS, PRESETS, presetOf, type Params, type PresetKind } from "./presets";
import { FieldError } from "./SimulateDialogFieldError";
import { FIELDS, LOGICAL_COUNTS, type FormError } from "./SimulateDialogForm";

export function WorkloadChoice({ kind, onKind }: { kind: PresetKind; onKind: (k: PresetKind) => void }) {
  return (
    <>
      <h3>Workload</h3>
      <div className="sim-presets" role="radiogroup" aria-label="Workload">
        {PRESETS.map((p) => (
          <label key={p.kind} className={`sim-preset${p.kind === kind ? " active" : ""}`}>
            <input
              type="radio"
              name="preset"
              checked={p.kind === kind}
              onChange={() => onKind(p.kind)}
              data-testid={`preset-${p.kind}`}
            />
            <strong>{p.label}</strong>
            <span className="muted small">{p.explain}</span>
          </label>
        ))}
      </div>
    </>
  );
}

export function WorkloadParams({
  kind,
  params,
  onParam,
  replaced,
  error,
}: {
  kind: PresetKind;
  params: Params;
  onParam: <K extends keyof Params>(k: K, v: Params[K]) => void;
  /** A count replaced by a chosen rack set: its input is off. */
  replaced: (k: keyof Params) => boolean;
  error: FormError | null;
}) {
  const preset = presetOf(kind);
  return (
    <>
      <div className="sim-params">
        {preset.params.map((k) => (
          <label key={k} className="sim-param">
            <span>{kind === "background" && k === "racks" ? "Logical racks (0 = whole hall)" : FIELDS[k].label}</span>
            {k === "placement" ? (
              <select
                value={params.placement}
                onChange={(e) => onParam("placement", e.target.value as Params["placement"])}
                disabled={replaced("placement")}
                data-testid="param-placement"
              >
                <option value="contiguous">side by side</option>
                <option value="spread">spread over the hall</option>
              </select>
            ) : k === "cdf" ? (
              <select
                value={params.cdf}
                onChange={(e) => onParam("cdf", e.target.value as Params["cdf"])}
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
                onChange={(e) => onParam("interRackOnly", e.target.checked)}
                data-testid="param-interRackOnly"
              />
            ) : (
              <input
                type="number"
                value={params[k] as number}
                step={FIELDS[k].step ?? 1}
                min={FIELDS[k].min}
                max={FIELDS[k].max}
                onChange={(e) => onParam(k, e.target.valueAsNumber as never)}
                disabled={replaced(k)}
                title={replaced(k) ? "the chosen racks below are used instead" : undefined}
                data-testid={`param-${k}`}
              />
            )}
            <FieldError error={error} field={k} />
          </label>
        ))}
      </div>
      {preset.params.some((k) => LOGICAL_COUNTS.has(k)) && (
        <p className="muted small" data-testid="logical-racks-note">
          Rack counts are logical racks: the servers wired alike with their own ToR (a physical rack holds one or more).
        </p>
      )}
    </>
  );
}
