/**
 * Download buttons for every export of a plan, for the hall, a row or a rack; for an upgrade
 * (`basePlanId`), also the NetBox changes from the plan it was built from.
 */
import { useState } from "react";
import { isHall, racksOf, rowsOf } from "../model/records";
import { useRecords } from "../state/editor";
import { isStructured } from "../state/plant";
import { useSession } from "../state/session";
import { useWiring } from "../state/wiring";
import {
  exportLinks,
  netboxUpgradeLink,
  powerSheetLinks,
  scopeNote,
  structuredLinks,
  type ExportLink,
  type ExportScope,
} from "./exports";

export function Downloads({ planId, basePlanId }: { planId: number; basePlanId?: number | null }) {
  const records = useRecords();
  const hallId = useSession((s) => s.hallId);
  const structured = useWiring((s) =>
    isStructured((s.plans.find((p) => p.id === planId) ?? (s.plan?.id === planId ? s.plan : null))?.spec),
  );
  const hall = Object.values(records).find(isHall);
  const rows = rowsOf(records);
  // Racks as the API names them in the plan's cables: `<hall>.<row>.<rack>`.
  const racksIn = (rowName: string) => {
    const row = rows.find((r) => r.name === rowName);
    return row && hall ? racksOf(records, row.id).map((k) => `${hall.name}.${row.name}.${k.name}`) : [];
  };
  const [scope, setScope] = useState<ExportScope>({ kind: "hall" });
  const inRow = (kind: ExportScope["kind"], rowName: string): ExportScope => {
    if (kind === "hall" || !rowName) return { kind: "hall" };
    const rack = racksIn(rowName)[0];
    return kind === "rack" && rack ? { kind: "rack", row: rowName, rack } : { kind: "row", row: rowName };
  };
  const rowName = scope.kind === "hall" ? (rows[0]?.name ?? "") : scope.row;
  return (
    <div className="downloads" data-testid="downloads">
      <div className="field-row">
        <label className="field">
          <span className="field-label">Wiring sheets for</span>
          <select
            value={scope.kind}
            onChange={(e) => setScope(inRow(e.target.value as ExportScope["kind"], rowName))}
            data-testid="export-scope"
          >
            <option value="hall">the whole hall</option>
            <option value="row" disabled={!rows.length}>
              a row
            </option>
            <option value="rack" disabled={!rows.length}>
              a rack
            </option>
          </select>
        </label>
        {scope.kind !== "hall" && (
          <label className="field">
            <span className="field-label">Row</span>
            <select
              value={scope.row}
              onChange={(e) => setScope(inRow(scope.kind, e.target.value))}
              data-testid="export-row"
            >
              {rows.map((r) => (
                <option key={r.id}>{r.name}</option>
              ))}
            </select>
          </label>
        )}
        {scope.kind === "rack" && (
          <label className="field">
            <span className="field-label">Rack</span>
            <select
              value={scope.rack}
              onChange={(e) => setScope({ ...scope, rack: e.target.value })}
              data-testid="export-rack"
            >
              {racksIn(scope.row).map((k) => (
                <option key={k}>{k}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ul className="download-list">
        {links(planId, basePlanId, scope).map((l) => {
          const note = scopeNote(l.key, scope);
          return (
            <li key={l.key}>
              <a href={l.href} download className="button" title={l.hint} data-testid={`download-${l.key}`}>
                ⤓ {l.label}
              </a>
              {note && <span className="muted small"> ({note})</span>}
            </li>
          );
        })}
      </ul>
      {structured && (
        <>
          <span className="field-label">Structured cabling: panels, trunks and every segment (whole hall)</span>
          <ul className="download-list" data-testid="structured-downloads">
            {structuredLinks(planId).map((l) => (
              <li key={l.key}>
                <a href={l.href} download className="button" title={l.hint} data-testid={`download-${l.key}`}>
                  ⤓ {l.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
      {hallId !== null && (
        <>
          <span className="field-label">For electricians: the hall's power per rack feed, with this plan's optics</span>
          <ul className="download-list" data-testid="power-sheet-downloads">
            {powerSheetLinks(hallId, planId).map((l) => (
              <li key={l.key}>
                <a href={l.href} download className="button" title={l.hint} data-testid={`download-${l.key}`}>
                  ⤓ {l.label}
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function links(planId: number, basePlanId: number | null | undefined, scope: ExportScope): ExportLink[] {
  const all = exportLinks(planId, scope);
  return basePlanId == null ? all : [...all, netboxUpgradeLink(planId, basePlanId)];
}
