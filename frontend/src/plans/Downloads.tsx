/** Download buttons for every export of a plan, for the hall, a row or a rack. */
import { useState } from "react";
import { isRack, isRow } from "../model/records";
import { useRecords } from "../state/editor";
import { exportLinks, type ExportScope } from "./exports";

export function Downloads({ planId }: { planId: number }) {
  const records = useRecords();
  const rows = Object.values(records)
    .filter(isRow)
    .map((r) => r.name)
    .sort();
  const racks = Object.values(records)
    .filter(isRack)
    .map((r) => r.name)
    .sort();
  const [scope, setScope] = useState<ExportScope>({ kind: "hall" });
  const pick = (kind: string) =>
    setScope(
      kind === "row" && rows[0]
        ? { kind: "row", row: rows[0] }
        : kind === "rack" && racks[0]
          ? { kind: "rack", rack: racks[0] }
          : { kind: "hall" },
    );
  const scoped = new Set(["wiring-csv", "wiring-xlsx", "wiring-pdf", "labels-pdf", "pull-list"]);
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
            <option value="rack" disabled={!racks.length}>
              a rack
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
        {scope.kind === "rack" && (
          <label className="field">
            <span className="field-label">Rack</span>
            <select
              value={scope.rack}
              onChange={(e) => setScope({ kind: "rack", rack: e.target.value })}
              data-testid="export-rack"
            >
              {racks.map((r) => (
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
            {scope.kind !== "hall" && scoped.has(l.key) && <span className="muted small"> (this {scope.kind})</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
