/**
 * A panel's front/rear port map (`GET /wiring-plans/{id}/plant/panels/{panel_id}`): per front port the
 * rear port it maps to, the cord plugged (label, far end) and the logical links through it.
 */
import { useEffect, useState } from "react";
import type { PanelMapRead } from "../state/plant";
import type { CableSet } from "../state/wiring";
import { request } from "../sync/http";
import { Dialog } from "../widgets/Dialog";
import { linkLabels } from "./plant";

export function PanelMapDialog({
  planId,
  panelId,
  cables,
  onClose,
}: {
  planId: number;
  panelId: string;
  /** The plan's cables on screen: the links through a port are named by their labels. */
  cables: CableSet;
  onClose: () => void;
}) {
  const [map, setMap] = useState<PanelMapRead | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Mounted per panel (keyed by its id), so there is nothing to reset here.
    let live = true;
    request<PanelMapRead>("GET", `/wiring-plans/${planId}/plant/panels/${encodeURIComponent(panelId)}`).then(
      (m) => live && setMap(m),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [planId, panelId]);
  return (
    <Dialog title={`Port map of panel ${panelId}`} onClose={onClose} testId="panel-map">
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {!map && !error && <p className="muted">Loading…</p>}
      {map && (
        <>
          <p className="small" data-testid="panel-map-head">
            {map.panel.model}
            {map.panel.cassette ? ` with ${map.panel.cassettes} × ${map.panel.cassette}` : ""} in {map.panel.rack} at U
            {map.panel.u} · {map.panel.ports_used} of {map.panel.front_ports} front ports used · {map.panel.role}
          </p>
          <table className="bom-table" data-testid="panel-map-ports">
            <thead>
              <tr>
                <th>Front</th>
                <th>Rear</th>
                <th>Cord</th>
                <th>Far end</th>
                <th>Links</th>
              </tr>
            </thead>
            <tbody>
              {map.ports.map((p) => (
                <tr key={p.front_port} data-testid={`panel-port-${p.front_port}`}>
                  <td>{p.front_port}</td>
                  <td>{p.rear_port ?? "—"}</td>
                  <td>
                    {p.cord_label ?? "—"}
                    {p.cord_part && <div className="muted small">{p.cord_part}</div>}
                  </td>
                  <td>{p.far_end ?? "—"}</td>
                  <td>{linkLabels(p.cable_ids, cables.buffers.cable_ids, cables.buffers.labels).join("; ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Dialog>
  );
}
