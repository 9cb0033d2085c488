/** Download buttons for every export of a plan, for the hall, a row or a rack. */
import { useState } from "react";
import { isRow } from "../model/records";
import { useRecords } from "../state/editor";
import { exportLinks, SCOPED, type ExportScope } from "./exports";

export function Downloads({ planId }: { planId: number }) {
  const records = useRecords();
  const rows = Object.values(records)
    .filter(isRow)
    .map((r) => r.name)
    .sort();
  const [scope, setScope] = useState<ExportScope>({ kind: "hall" });
  const pick = (kind: string) => setScope(kind === "row" && rows[0] ? { kind: "row", row: rows[0] } : { kind: "hall" });
  return (
    <div className="downloads" data-testid="downloads">
      <div className="field-row">
        <label className="field">
          <span className="field-label">Wiring sheets for</span>
          <select value={scope.kind} onChange={(e) => pick(e.target.value)} data-testid="export-scope">
            <option value="hall">the whole hall</option>
            <option value="row" disabled={!rows.length}>
              a row
            </option>
          </select>
        </label>
        {scope.kind === "row" && (
          <label className="field">
            <span className="field-label">Row</span>
            <select
              value={scope.row}
              onChange={(e) => setScope({ kind: "row", row: e.target.value })}
              data-testid="export-row"
            >
              {rows.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
        )}
      </div>
      <ul className="download-list">
        {exportLinks(planId, scope).map((l) => (
          <li key={l.key}>
            <a href={l.href} download className="button" title={l.hint} data-testid={`download-${l.key}`}>
              ⤓ {l.label}
            </a>
            {scope.kind === "row" && SCOPED.has(l.key) && <span className="muted small"> (row {scope.row})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
