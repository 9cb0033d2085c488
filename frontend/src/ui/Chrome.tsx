/**
 * Status bar (pointer, selection, aisle warnings, fabric ports and oversubscription from the hall's
 * validation report, save state) and notices (conflicts, errors).
 */
import { useEffect, useRef } from "react";
import { hallOf, racksOf, rowsOf } from "../model/records";
import { formatLength } from "../model/units";
import { live } from "../tools/live";
import { useRecords } from "../state/editor";
import { runCommand } from "../state/perform";
import { dismiss, READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";
import { FacilityStatus } from "./FacilityStatus";
import {
  aisleWarning,
  oversubscriptionText,
  portShortage,
  refreshValidation,
  reportedAisles,
  useValidation,
} from "../sync/validation";

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
  // Until the edited layout's report is in, the last one stays, marked stale (dimmed, and said so on hover).
  const stale = useValidation((s) => s.pending) || saving > 0;
  const short = report?.fabric_ports.filter((l) => l.short) ?? [];
  const ratios = report ? oversubscriptionText(report.oversubscription) : "";
  const narrow = reportedAisles(report).filter((a) => a.tooNarrow);
  // Servers but no fabric above them: no pattern can be wired yet (the report judges ports only once some are placed).
  const racks = racksOf(records);
  const noFabric =
    racks.some((r) => r.role === "compute" && r.logicalRacks > 0) && racks.every((r) => !r.fabricSwitches.length);
  return (
    <footer className="statusbar">
      <span ref={pointer} className="mono" data-testid="pointer" />
      <span>{selection.length ? `${selection.length} selected` : "nothing selected"}</span>
      {narrow.map((a) => (
        <span
          key={a.key}
          className={stale ? "warn stale" : "warn"}
          data-testid="aisle-warning"
          data-stale={stale ? "true" : undefined}
          title={stale ? "From the last check: the edited layout is being checked" : undefined}
        >
          {aisleWarning(a)}
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
      <FacilityStatus />
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

/** An empty hall says where to start: Draw row (or a facing pair); a viewer is told why nothing can be drawn. */
export function EmptyHallHint() {
  const records = useRecords();
  const tool = useSession((s) => s.tool);
  const readOnly = useReadOnly();
  if (!hallOf(records) || rowsOf(records).length > 0 || tool === "draw-row") return null;
  return (
    <div className="empty-hall-hint" data-testid="empty-hall-hint">
      {readOnly ? (
        <p>This hall has no rows yet. {READ_ONLY_TITLE}, so an editor of the project lays them out.</p>
      ) : (
        <>
          <p>
            <strong>This hall is empty.</strong> Start with <strong>Draw row</strong> (<kbd>D</kbd>): drag along the
            floor and the rack count follows the length. Or add a <strong>Facing pair</strong> (<kbd>P</kbd>) across a
            cold aisle.
          </p>
          <div className="button-row">
            <button type="button" className="primary" onClick={() => runCommand("tool.draw-row")}>
              Draw row
            </button>
            <button type="button" onClick={() => runCommand("edit.facing-pair")}>
              Facing pair
            </button>
          </div>
        </>
      )}
    </div>
  );
}
