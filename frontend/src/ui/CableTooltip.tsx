import { tooltipRef } from "../state/overlays";

/** Filled by the cable picker (scene/Cables.tsx) directly, without React renders. */
export function CableTooltip() {
  return (
    <div
      className="cable-tooltip"
      data-testid="cable-tooltip"
      style={{ display: "none" }}
      ref={(el) => {
        tooltipRef.current = el;
      }}
    >
      <div className="ct-label" data-testid="cable-tooltip-label" />
      <div className="ct-ends" />
      <div className="ct-medium" />
    </div>
  );
}
