import { useFacility } from "../state/facility";
import { useHeat } from "../state/heatMap";
import { FacilityLegendScale } from "./FacilityPanel";
import { DIFF_COLOURS, DIFF_STATUSES, useDiff } from "../state/planDiff";
import { MEDIUM_COLOURS, PALETTES } from "../state/palette";
import { PLANT_COLOURS, usePlant } from "../state/plant";
import { useSession } from "../state/session";
import { useWiring } from "../state/wiring";

export function Legend({ media }: { media: boolean }) {
  const pal = PALETTES[useSession((s) => s.theme)];
  const overlay = useDiff((s) => s.overlay);
  const showing = useWiring((s) => s.cables);
  // The diff replaces the media colours while it is the diff of the plan on screen.
  const diff = overlay && overlay.newSet === showing ? overlay : null;
  // A simulation's heat map colours the cables by utilisation (its own scale is in its panel).
  const heat = useHeat((s) => s.overlay);
  // The facility heat map colours the racks (and trays) by their tightest limit.
  const facility = useFacility((s) => s.shown);
  // A structured plan's plant, drawn over its cables.
  const plant = usePlant((s) => s.plant !== null);
  return (
    <div className="legend" data-testid="legend">
      <span className="sw" style={{ background: pal.cold }} /> cold aisle
      <span className="sw" style={{ background: pal.hot }} /> hot aisle
      <span className="sw" style={{ background: pal.tor }} /> ToR
      <span className="sw" style={{ background: pal.server }} /> server
      {facility && !heat && (
        <span className="legend-item">
          facility: <FacilityLegendScale />
        </span>
      )}
      {diff && (
        <span className="legend-item" data-testid="diff-legend">
          plan #{diff.newPlanId} vs #{diff.oldPlanId}:
          {DIFF_STATUSES.map((s) => (
            <span key={s} className="legend-item" data-testid={`diff-legend-${s}`} data-colour={DIFF_COLOURS[s].colour}>
              <span className="sw line" style={{ background: DIFF_COLOURS[s].colour }} /> {DIFF_COLOURS[s].label}{" "}
              <strong data-testid={`diff-count-${s}`}>{diff.diff.counts[s].toLocaleString("en")}</strong>
            </span>
          ))}
        </span>
      )}
      {media &&
        !diff &&
        !heat &&
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
      {plant &&
        Object.entries(PLANT_COLOURS).map(([k, v]) => (
          <span key={k} className="legend-item" data-testid={`plant-legend-${k}`}>
            <span className="sw" style={{ background: v.colour }} /> {v.label}
          </span>
        ))}
    </div>
  );
}
