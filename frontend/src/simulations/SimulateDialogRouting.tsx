/** Routing scheme and seeds of the simulation form. */
import { ROUTINGS, type RoutingType } from "./presets";
import { FieldError } from "./SimulateDialogFieldError";
import type { FormError } from "./SimulateDialogForm";

export function RoutingAndSeeds({
  routing,
  onRouting,
  seeds,
  onSeeds,
  error,
}: {
  routing: RoutingType;
  onRouting: (r: RoutingType) => void;
  seeds: string;
  onSeeds: (s: string) => void;
  error: FormError | null;
}) {
  return (
    <div className="sim-params">
      <label className="sim-param">
        <span>Routing</span>
        <select value={routing} onChange={(e) => onRouting(e.target.value as RoutingType)} data-testid="sim-routing">
          {ROUTINGS.map((r) => (
            <option key={r.type} value={r.type}>
              {r.label}
            </option>
          ))}
        </select>
        <span className="muted small">{ROUTINGS.find((r) => r.type === routing)?.explain}</span>
      </label>
      <label className="sim-param">
        <span>Seeds</span>
        <input
          value={seeds}
          onChange={(e) => onSeeds(e.target.value)}
          data-testid="sim-seeds"
          placeholder="1, 2, 3 or 1..5"
        />
        <span className="muted small">Several seeds give a spread.</span>
        <FieldError error={error} field="seeds" />
      </label>
    </div>
  );
}
