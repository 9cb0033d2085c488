/**
 * The hall's facility settings (floor rating, cooling, power factor, limits, the tray of each level):
 * read from the hall, saved as one PATCH under its version; blank fields take the domain's defaults.
 */
import { useEffect, useState } from "react";
import { useFacility } from "../state/facility";
import { READ_ONLY_TITLE, useReadOnly } from "../state/session";
import {
  hallPatch,
  loadHallSettings,
  refusals,
  saveHallFacility,
  TRAY_LEVELS,
  type HallSettings,
} from "../sync/facility";
import { generalErrors, settingsBody, type SettingSpec } from "./facilityForm";
import { SettingsFields } from "./SettingsFields";

export const HALL_SPECS: SettingSpec[] = [
  { key: "floor_load_kg_m2", label: "Floor load rating", unit: "kg/m²", min: 0, exclusiveMin: true },
  { key: "hall_cooling_kw", label: "Hall cooling", unit: "kW", min: 0 },
  { key: "power_factor", label: "Power factor", min: 0, exclusiveMin: true, max: 1 },
  { key: "max_phase_imbalance_pct", label: "Phase imbalance limit", unit: "%", min: 0, max: 100 },
  { key: "max_tray_fill_pct", label: "Tray fill limit", unit: "%", min: 0, exclusiveMin: true, max: 100 },
  {
    key: "max_signal_tray_fill_pct",
    label: "Signal-only tray fill limit",
    unit: "%",
    min: 0,
    exclusiveMin: true,
    max: 100,
  },
  { key: "tray_bend_radius_mm", label: "Tray bend radius", unit: "mm", min: 0 },
];

const LEVEL_LABEL: Record<(typeof TRAY_LEVELS)[number], string> = {
  "above-racks": "Tray above the racks",
  "cross-aisle": "Cross-aisle tray",
  "under-floor": "Under-floor tray",
};

const traySpecs = (level: string, label: string): SettingSpec[] => [
  { key: `tray.${level}.width_mm`, label: `${label}: width`, unit: "mm", min: 1 },
  { key: `tray.${level}.usable_depth_mm`, label: `${label}: usable depth`, unit: "mm", min: 1 },
  { key: `tray.${level}.load_kg_per_m`, label: `${label}: load rating`, unit: "kg/m", min: 0, exclusiveMin: true },
];

const ALL_SPECS = [...HALL_SPECS, ...TRAY_LEVELS.flatMap((l) => traySpecs(l, LEVEL_LABEL[l]))];

/** The API names a tray field `trays.<level>.<field>`; the form `tray.<level>.<field>`. */
const formKey = (apiKey: string) => apiKey.replace(/^trays\./, "tray.");

/** The hall's facility settings, read again whenever facility settings are saved. */
export function useHallSettings(hallId: number): HallSettings | null {
  const revision = useFacility((s) => s.revision);
  const [settings, setSettings] = useState<HallSettings | null>(null);
  useEffect(() => {
    let live = true;
    loadHallSettings(hallId).then(
      (s) => live && setSettings(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [hallId, revision]);
  return settings;
}

export function HallFacilitySettings({ hallId }: { hallId: number }) {
  const settings = useHallSettings(hallId);
  const readOnly = useReadOnly();
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  if (!settings) return null;
  const save = async () => {
    const checked = settingsBody(ALL_SPECS, settings.values, typed);
    if ("errors" in checked) {
      setErrors(checked.errors);
      return;
    }
    setBusy(true);
    setSaved(false);
    try {
      await saveHallFacility(hallId, settings.version, hallPatch(checked.body));
      setTyped({});
      setErrors({});
      setSaved(true);
    } catch (e) {
      setErrors(Object.fromEntries(Object.entries(refusals(e)).map(([k, v]) => [formKey(k), v])));
    } finally {
      setBusy(false);
    }
  };
  const type = (k: string, t: string) => {
    setTyped({ ...typed, [k]: t });
    setSaved(false);
  };
  return (
    <details className="panel-section" data-testid="hall-facility">
      <summary>
        <strong>Hall facility settings</strong>
      </summary>
      <fieldset className="plain" disabled={readOnly || busy}>
        {readOnly && <p className="muted small">{READ_ONLY_TITLE}.</p>}
        <p className="muted small">Blank fields take the default shown in them.</p>
        <SettingsFields
          specs={HALL_SPECS}
          current={settings.values}
          typed={typed}
          setTyped={type}
          errors={errors}
          testPrefix="hall"
        />
        {TRAY_LEVELS.map((level) => (
          <div key={level} className="field-row" data-testid={`hall-tray-${level}`}>
            <SettingsFields
              specs={traySpecs(level, LEVEL_LABEL[level])}
              current={settings.values}
              typed={typed}
              setTyped={type}
              errors={errors}
              testPrefix="hall"
            />
          </div>
        ))}
        {generalErrors(errors, ALL_SPECS).map((e) => (
          <p key={e} className="field-error" role="alert">
            {e}
          </p>
        ))}
        <button type="button" className="primary" onClick={() => void save()} data-testid="hall-facility-save">
          {busy ? "Saving…" : "Save hall settings"}
        </button>
        {saved && (
          <span className="small muted" data-testid="hall-facility-saved">
            {" "}
            Saved.
          </span>
        )}
      </fieldset>
    </details>
  );
}
