import { readoutRef } from "../state/overlays";

/** Rack count and length of the row being drawn; positioned and filled by scene/Overlays DrawPreview. */
export function DrawReadout() {
  return (
    <div
      className="dim-readout"
      data-testid="draw-readout"
      style={{ display: "none" }}
      ref={(el) => {
        readoutRef.current = el;
      }}
    />
  );
}
