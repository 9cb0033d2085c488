import { MEDIUM_COLOURS, PALETTES } from "../state/palette";
import { useSession } from "../state/session";

export function Legend({ media }: { media: boolean }) {
  const pal = PALETTES[useSession((s) => s.theme)];
  return (
    <div className="legend" data-testid="legend">
      <span className="sw" style={{ background: pal.cold }} /> cold aisle
      <span className="sw" style={{ background: pal.hot }} /> hot aisle
      <span className="sw" style={{ background: pal.tor }} /> ToR
      <span className="sw" style={{ background: pal.server }} /> server
      {media &&
        Object.entries(MEDIUM_COLOURS).map(([k, v]) => (
          <span key={k} className="legend-item">
            <span className="sw line" style={{ background: v.colour }} /> {v.label}
          </span>
        ))}
      {media && (
        <span className="legend-item">
          <span className="sw line" style={{ background: "#f472b6" }} /> Subways loop (drawn over the racks)
        </span>
      )}
    </div>
  );
}
