/**
 * The open tray segment: its cables, fill against its limit, weight against the tray's rating, and its
 * run's own tray (width x usable depth, rating), which replaces the level's for every segment of the
 * run; "Use the level's tray" takes the override away.
 */
import { useEffect, useState } from "react";
import { facilityColour, pctText, selectTray, trayWorst, useFacility, type TraySegment } from "../state/facility";
import { READ_ONLY_TITLE, useReadOnly } from "../state/session";
import { loadTrayRuns, refusals, saveTrayRun, type TraySpec } from "../sync/facility";
import { generalErrors, settingsBody, type SettingSpec, type SettingValue } from "./facilityForm";
import { useHallSettings } from "./HallFacilitySettings";
import { SettingsFields } from "./SettingsFields";

const RUN_SPECS: SettingSpec[] = [
  { key: "width_mm", label: "Width", unit: "mm", min: 1 },
  { key: "usable_depth_mm", label: "Usable depth", unit: "mm", min: 1 },
  { key: "load_kg_per_m", label: "Load rating", unit: "kg/m", min: 0, exclusiveMin: true },
];

const LEVEL_WORDS: Record<string, string> = {
  "above-racks": "above the racks",
  "cross-aisle": "across the aisles",
  "under-floor": "under the floor",
};

export function TraySegmentPanel({ segment }: { segment: TraySegment }) {
  const hallId = useFacility((s) => s.view?.hallId ?? 0);
  const revision = useFacility((s) => s.revision);
  const readOnly = useReadOnly();
  const hall = useHallSettings(hallId);
  const [runs, setRuns] = useState<Map<string, TraySpec> | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    loadTrayRuns(hallId).then(
      (r) => live && setRuns(r),
      () => live && setRuns(new Map()),
    );
    return () => {
      live = false;
    };
  }, [hallId, revision]);
  const own = runs?.get(segment.run);
  // The run's own tray, or (blank fields) its level's, shown as the default.
  const current: Record<string, SettingValue> = Object.fromEntries(
    RUN_SPECS.map((s) => [
      s.key,
      own
        ? { value: own[s.key as keyof TraySpec], isDefault: false }
        : { value: hall?.values[`tray.${segment.level}.${s.key}`]?.value ?? null, isDefault: true },
    ]),
  );
  const save = async () => {
    if (!hall) return;
    const checked = settingsBody(RUN_SPECS, current, typed);
    if ("errors" in checked) {
      setErrors(checked.errors);
      return;
    }
    // A run's tray is written whole: a blank field keeps what the run has now (its own, or its level's).
    const spec = Object.fromEntries(
      RUN_SPECS.map((s) => [s.key, Number(checked.body[s.key] ?? current[s.key]?.value ?? Number.NaN)]),
    ) as unknown as TraySpec;
    setBusy(true);
    try {
      await saveTrayRun(hallId, hall.version, segment.run, spec);
      setTyped({});
      setErrors({});
    } catch (e) {
      setErrors(refusals(e));
    } finally {
      setBusy(false);
    }
  };
  const reset = async () => {
    if (!hall) return;
    setBusy(true);
    try {
      await saveTrayRun(hallId, hall.version, segment.run, null);
      setTyped({});
      setErrors({});
    } catch (e) {
      setErrors(refusals(e));
    } finally {
      setBusy(false);
    }
  };
  const worst = trayWorst(segment);
  return (
    <section className="panel-section" data-testid="tray-panel" data-tray={segment.name}>
      <header className="panel-header">
        <h3>
          Tray segment {segment.name}{" "}
          <span className="sw" style={{ background: facilityColour(worst.pct) }} data-testid="tray-band" />
        </h3>
        <button type="button" className="link" onClick={() => selectTray(null)} aria-label="Close the tray segment">
          ✕
        </button>
      </header>
      <p className="small">
        Run {segment.run}, {LEVEL_WORDS[segment.level] ?? segment.level}, {segment.cables.toLocaleString("en")} cable
        {segment.cables === 1 ? "" : "s"}
      </p>
      <p className="small" data-testid="tray-fill">
        Fill {pctText(segment.fillPct)} of the tray, limit {pctText(segment.limitPct)}
      </p>
      <p className="small" data-testid="tray-weight">
        Cables {segment.kgPerM.toFixed(1)} kg/m on a {segment.loadKgPerM.toFixed(0)} kg/m tray
      </p>
      <fieldset className="plain" disabled={readOnly || busy || runs === null || hall === null}>
        <h4>Run {segment.run}&apos;s tray</h4>
        {readOnly && <p className="muted small">{READ_ONLY_TITLE}.</p>}
        <p className="muted small">
          {own
            ? "Its own tray, for every segment of the run."
            : "The level's tray (blank fields): set one for this run."}
        </p>
        <div className="field-row">
          <SettingsFields
            specs={RUN_SPECS}
            current={current}
            typed={typed}
            setTyped={(k, t) => setTyped({ ...typed, [k]: t })}
            errors={errors}
            testPrefix="tray-run"
          />
        </div>
        {generalErrors(errors, RUN_SPECS).map((e) => (
          <p key={e} className="field-error" role="alert">
            {e}
          </p>
        ))}
        <button type="button" className="primary" onClick={() => void save()} data-testid="tray-run-save">
          Save run {segment.run}
        </button>{" "}
        {own && (
          <button type="button" onClick={() => void reset()} data-testid="tray-run-reset">
            Use the level&apos;s tray
          </button>
        )}
      </fieldset>
    </section>
  );
}
