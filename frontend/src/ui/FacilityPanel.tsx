/**
 * The Facility tab: the heat map's switch and scale, the hall's totals, the worst racks and tray
 * segments (a click flies there), every finding of the checks, the open tray segment (its run's own
 * tray editable), the selected rack's loads and feeds, and the hall's facility settings.
 */
import { useMemo } from "react";
import { rackBox } from "../model/geometry";
import { isRack, isRow, racksOf } from "../model/records";
import { editor, useRecords } from "../state/editor";
import {
  FACILITY_BANDS,
  findingTarget,
  pctText,
  selectTray,
  showFacility,
  trayBox,
  useFacility,
  worstItems,
  type FacilityBand,
  type WorstItem,
} from "../state/facility";
import { requestFrame, useSession } from "../state/session";
import { useWiring } from "../state/wiring";
import { HallFacilitySettings } from "./HallFacilitySettings";
import { RackFacilitySection } from "./RackFacility";
import { RowFacilitySection } from "./RowFacility";
import { TraySegmentPanel } from "./TraySegmentPanel";

/** How many of the worst items the list shows. */
const WORST_SHOWN = 10;

const kw = (w: number) => `${(w / 1000).toFixed(1)} kW`;

/** Fly to a rack by name (and select it: its loads open below), or to a tray segment (its panel opens). */
export function flyToItem(item: Pick<WorstItem, "kind" | "name">): void {
  if (item.kind === "tray") {
    const t = useFacility.getState().view?.byTray.get(item.name);
    if (!t) return;
    selectTray(t.name);
    requestFrame(trayBox(t, 2500));
    return;
  }
  const rack = racksOf(editor.records).find((r) => r.name === item.name);
  const row = rack ? editor.records[rack.rowId] : undefined;
  if (!isRack(rack) || !isRow(row)) return;
  const b = rackBox(row, rack);
  useSession.setState({ selection: [rack.id] });
  requestFrame({ x0: b.x0 - 3000, y0: b.y0 - 3000, x1: b.x1 + 3000, y1: b.y1 + 3000 });
}

export function FacilityLegendScale() {
  return (
    <span className="facility-scale" data-testid="facility-legend">
      {(Object.keys(FACILITY_BANDS) as FacilityBand[]).map((b) => (
        <span key={b} className="legend-item" data-testid={`facility-band-${b}`} data-colour={FACILITY_BANDS[b].colour}>
          <span className="sw" style={{ background: FACILITY_BANDS[b].colour }} /> {FACILITY_BANDS[b].label}
        </span>
      ))}
    </span>
  );
}

export function FacilityPanel() {
  const records = useRecords();
  const hallId = useSession((s) => s.hallId);
  const selection = useSession((s) => s.selection);
  const view = useFacility((s) => (s.view?.hallId === hallId ? s.view : null));
  const shown = useFacility((s) => s.shown);
  const pending = useFacility((s) => s.pending);
  const error = useFacility((s) => s.error);
  const tray = useFacility((s) => s.tray);
  const plan = useWiring((s) => s.plan);
  const worst = useMemo(() => (view ? worstItems(view, WORST_SHOWN) : []), [view]);
  /** A total that leaves out what a catalog entry lacks a figure for is at least what it says. */
  const atLeast = (total: string) => (view?.totals.incomplete.includes(total) ? "≥ " : "");
  const openTray = tray ? view?.byTray.get(tray) : undefined;
  const selected = selection.length === 1 ? records[selection[0] ?? ""] : undefined;
  const errors = view?.issues.filter((i) => i.severity === "error") ?? [];
  const warnings = view?.issues.filter((i) => i.severity !== "error") ?? [];
  return (
    <div className="facility-panel" data-testid="facility-panel">
      <section className="panel-section">
        <h2>Facility</h2>
        <label className="check">
          <input
            type="checkbox"
            checked={shown}
            onChange={(e) => showFacility(e.target.checked)}
            data-testid="facility-toggle"
          />{" "}
          Heat map on the hall
        </label>
        <p className="muted small">
          Each rack in the colour of its tightest limit (power of each feed at its continuous limit, budget, heat
          against cooling, weight against static load and floor rating);{" "}
          {plan
            ? `tray segments of plan “${plan.name}” by fill against their limit.`
            : "view a wiring plan to see its cables' tray fill."}
        </p>
        <FacilityLegendScale />
        {error && (
          <p className="field-error" role="alert">
            The facility report could not be read: {error}
          </p>
        )}
        {view && (
          <p className="small" data-testid="facility-totals" data-stale={pending ? "true" : undefined}>
            IT power {atLeast("typical_w")}
            {kw(view.totals.typical_w)} typical, {atLeast("max_w")}
            {kw(view.totals.max_w)} max · heat {atLeast("heat_w")}
            {kw(view.totals.heat_w)} · weight {atLeast("weight_kg")}
            {Math.round(view.totals.weight_kg).toLocaleString("en")} kg
            {view.totals.fullest_tray
              ? ` · fullest tray ${view.totals.fullest_tray} ${atLeast("fullest_tray")}${pctText(view.totals.fullest_tray_pct)}`
              : ""}
            {view.totals.incomplete.length > 0 && (
              <span title="Some catalog entries lack a figure (see the fact_missing warnings): these totals leave them out.">
                {" "}
                (≥: facts missing)
              </span>
            )}
          </p>
        )}
      </section>
      {view && (
        <section className="panel-section">
          <h3>Worst first</h3>
          {worst.length === 0 ? (
            <p className="muted small">No racks in this hall yet.</p>
          ) : (
            <ol className="facility-worst" data-testid="facility-worst">
              {worst.map((w) => (
                <li key={`${w.kind}:${w.name}`}>
                  <button
                    type="button"
                    className="link"
                    onClick={() => flyToItem(w)}
                    data-testid={`worst-${w.kind}-${w.name}`}
                    data-band={w.band}
                    data-pct={w.pct}
                  >
                    <span className="sw" style={{ background: FACILITY_BANDS[w.band].colour }} />{" "}
                    {w.kind === "rack" ? "Rack" : "Tray"} <strong>{w.name}</strong>{" "}
                    {w.band === "unknown" ? "facts missing" : pctText(w.pct)}
                  </button>
                  <span className="small muted"> {w.text}</span>
                </li>
              ))}
            </ol>
          )}
          <details data-testid="facility-findings">
            <summary>
              Findings: {errors.length} error{errors.length === 1 ? "" : "s"}, {warnings.length} warning
              {warnings.length === 1 ? "" : "s"}
            </summary>
            <ul className="warnings">
              {[...errors, ...warnings].map((i, k) => {
                const target = findingTarget(view, i.field);
                const text = `${i.severity === "error" ? "✖" : "⚠"} ${i.message}`;
                return (
                  <li key={k} className={i.severity === "error" ? "error" : "warn"} data-field={i.field}>
                    {target ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => flyToItem(target)}
                        title={`Fly to ${target.kind} ${target.name}`}
                      >
                        {text}
                      </button>
                    ) : (
                      text
                    )}
                  </li>
                );
              })}
            </ul>
          </details>
        </section>
      )}
      {openTray && <TraySegmentPanel key={openTray.name} segment={openTray} />}
      {isRack(selected) && <RackFacilitySection rack={selected} />}
      {isRow(selected) && <RowFacilitySection key={selected.id} row={selected} />}
      {hallId !== null && <HallFacilitySettings hallId={hallId} />}
    </div>
  );
}
