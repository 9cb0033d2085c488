/**
 * A row's cooling in the Facility tab: the heat its racks give off (every watt drawn, at their maximum,
 * summed from the facility report) against the row's own cooling, which the planner sets here (blank:
 * the row shares the hall's cooling).
 */
import { useEffect, useState } from "react";
import type { RowRecord } from "../model/records";
import { facilityColour, pctText, useFacility } from "../state/facility";
import { READ_ONLY_TITLE, useReadOnly } from "../state/session";
import { activeSync } from "../sync/active";
import { loadRowCooling, refusals, saveRowCooling, type SettingValue } from "../sync/facility";
import { generalErrors, settingsBody, type SettingSpec } from "./facilityForm";
import { SettingsFields } from "./SettingsFields";

const ROW_SPECS: SettingSpec[] = [{ key: "cooling_kw", label: "Row cooling", unit: "kW", min: 0 }];

export function RowFacilitySection({ row }: { row: RowRecord }) {
  const readOnly = useReadOnly();
  const view = useFacility((s) => s.view);
  const revision = useFacility((s) => s.revision);
  const serverId = activeSync()?.serverId(row.id);
  const [cooling, setCooling] = useState<SettingValue | null>(null);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (serverId === undefined) return;
    let live = true;
    loadRowCooling(serverId).then(
      (r) => live && setCooling(r.cooling),
      (e: unknown) => live && setErrors(refusals(e)),
    );
    return () => {
      live = false;
    };
  }, [serverId, revision]);
  const heatW = view?.racks.filter((r) => r.row === row.name).reduce((sum, r) => sum + r.maxW, 0) ?? null;
  const coolingKw = typeof cooling?.value === "number" && !cooling.isDefault ? cooling.value : null;
  const pct = heatW !== null && coolingKw ? (heatW / (coolingKw * 1000)) * 100 : null;
  const save = async () => {
    if (serverId === undefined || !cooling) return;
    const checked = settingsBody(ROW_SPECS, { cooling_kw: cooling }, typed);
    if ("errors" in checked) {
      setErrors(checked.errors);
      return;
    }
    if (!("cooling_kw" in checked.body)) return;
    setBusy(true);
    try {
      await saveRowCooling(serverId, (checked.body.cooling_kw as number | null) ?? null);
      setTyped({});
      setErrors({});
    } catch (e) {
      setErrors(Object.fromEntries(Object.entries(refusals(e)).map(([k, v]) => [k.replace(/^facility\./, ""), v])));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel-section" data-testid="row-facility" data-row={row.name}>
      <h3>Row {row.name}: heat and cooling</h3>
      {heatW !== null && (
        <p className="small" data-testid="row-heat" data-pct={pct ?? ""}>
          Heat {(heatW / 1000).toFixed(1)} kW
          {coolingKw === null ? ", cooled by the hall" : ` against ${coolingKw.toFixed(1)} kW of its own cooling`}
          {pct !== null && (
            <>
              {" "}
              <span className="sw" style={{ background: facilityColour(pct) }} /> {pctText(pct)}
            </>
          )}
        </p>
      )}
      {cooling && (
        <fieldset className="plain" disabled={readOnly || busy}>
          {readOnly && <p className="muted small">{READ_ONLY_TITLE}.</p>}
          <SettingsFields
            specs={ROW_SPECS}
            current={{ cooling_kw: cooling.isDefault ? { value: null, isDefault: true } : cooling }}
            typed={typed}
            setTyped={(k, t) => setTyped({ ...typed, [k]: t })}
            errors={errors}
            testPrefix="row"
          />
          {generalErrors(errors, ROW_SPECS).map((e) => (
            <p key={e} className="field-error" role="alert">
              {e}
            </p>
          ))}
          <button type="button" className="primary" onClick={() => void save()} data-testid="row-facility-save">
            Save row {row.name}&apos;s cooling
          </button>
        </fieldset>
      )}
    </section>
  );
}
