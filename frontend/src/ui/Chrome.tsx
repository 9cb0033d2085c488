/**
 * Status bar (pointer, selection, aisle warnings, fabric ports and oversubscription from the hall's
 * validation report, save state) and notices (conflicts, errors).
 */
import { useEffect, useRef } from "react";
import { aisles, MIN_AISLE_MM } from "../model/geometry";
import { racksOf, rowsOf } from "../model/records";
import { formatLength } from "../model/units";
import { live } from "../tools/live";
import { useRecords } from "../state/editor";
import { dismiss, useSession } from "../state/session";
import { oversubscriptionText, portShortage, refreshValidation, useValidation } from "../sync/validation";

export function StatusBar() {
  const records = useRecords();
  const selection = useSession((s) => s.selection);
  const saving = useSession((s) => s.saving);
  const lastSavedAt = useSession((s) => s.lastSavedAt);
  const pointer = useRef<HTMLSpanElement>(null);
  useEffect(
    () =>
      live.subscribe((s) => {
        if (pointer.current)
          pointer.current.textContent = s.pointer
            ? `x ${formatLength(s.pointer.x)} · y ${formatLength(s.pointer.y)}`
            : "";
      }),
    [],
  );
  const hallId = useSession((s) => s.hallId);
  // The report follows the layout: fetched when the hall opens and after every saved edit.
  useEffect(() => {
    if (hallId !== null && !saving) void refreshValidation(hallId);
  }, [hallId, lastSavedAt, saving]);
  const report = useValidation((s) => (s.hallId === hallId ? s.report : null));
  const short = report?.fabric_ports.filter((l) => l.short) ?? [];
  const ratios = report ? oversubscriptionText(report.oversubscription) : "";
  const narrow = aisles(records).filter((a) => a.tooNarrow);
  const names = Object.fromEntries(rowsOf(records).map((r) => [r.id, r.name]));
  // Servers but no fabric above them: no pattern can be wired yet (the report judges ports only once some are placed).
  const racks = racksOf(records);
  const noFabric =
    racks.some((r) => r.role === "compute" && r.logicalRacks > 0) && racks.every((r) => !r.fabricSwitches.length);
  return (
    <footer className="statusbar">
      <span ref={pointer} className="mono" data-testid="pointer" />
      <span>{selection.length ? `${selection.length} selected` : "nothing selected"}</span>
      {narrow.map((a) => (
        <span key={`${a.rowA}${a.rowB}`} className="warn" data-testid="aisle-warning">
          ⚠ {a.kind} aisle {names[a.rowA]}/{names[a.rowB]} is {formatLength(a.widthMm)} (min{" "}
          {formatLength(MIN_AISLE_MM[a.kind])})
        </span>
      ))}
      {noFabric && (
        <span className="warn" data-testid="fabric-missing">
          ⚠ No spines or other fabric switches yet: wiring will fail. Select a rack, set it to Network and add spines.
        </span>
      )}
      {short.map((l) => (
        <span
          key={l.layer}
          className="warn"
          data-testid="fabric-warning"
          data-layer={l.layer}
          title={report?.warnings.find((w) => w.code === "fabric_ports_short")?.message}
        >
          ⚠ {portShortage(l)}: wiring will fail
        </span>
      ))}
      <span className="spacer" />
      {ratios && (
        <span data-testid="oversubscription" title="Oversubscription per layer: capacity from below over capacity up">
          Oversubscription {ratios}
        </span>
      )}
      <span data-testid="save-state" className={saving ? "saving" : "saved"}>
        {saving ? "Saving…" : lastSavedAt ? "All changes saved" : ""}
      </span>
    </footer>
  );
}

export function Notices() {
  const notices = useSession((s) => s.notices);
  return (
    <div className="notices" aria-live="polite">
      {notices.map((n) => (
        <div
          key={n.id}
          className={`notice notice-${n.kind}`}
          role={n.kind === "info" ? "status" : "alert"}
          data-testid={`notice-${n.kind}`}
        >
          <span>{n.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
