/**
 * The heat map's controls over the viewport: the colour scale (0-100 %), the time slider over the
 * run's utilisation buckets with the time it stands at, the hottest cable and rack at that time (a
 * click flies to it), and Clear, which gives the cables and racks their own colours back.
 */
import { useEffect, useMemo } from "react";
import { rackBox } from "../model/geometry";
import { isRack, isRow } from "../model/records";
import { editor } from "../state/editor";
import {
  bucketSpan,
  clearHeat,
  HEAT_STOPS,
  heatColour,
  heatPercent,
  hottestAt,
  setHeatBucket,
  useHeat,
} from "../state/heatMap";
import { requestFrame } from "../state/session";
import { focusCable, useWiring } from "../state/wiring";
import { formatSeconds } from "./results";

const pct = (u: number) => `${heatPercent(u)}%`;

export function HeatMapPanel() {
  const overlay = useHeat((s) => s.overlay);
  const bucket = useHeat((s) => s.bucket);
  const cables = useWiring((s) => s.cables);
  // The heat map belongs to the simulations view: leaving it restores the plan's colours.
  useEffect(() => () => clearHeat(), []);
  const hottest = useMemo(() => (overlay ? hottestAt(overlay, bucket) : null), [overlay, bucket]);
  if (!overlay || !hottest) return null;
  const [t0, t1] = bucketSpan(overlay, bucket);
  const end = overlay.buckets * overlay.intervalS;
  const cableIndex = hottest.cable && cables ? cables.buffers.cable_ids.indexOf(hottest.cable.id) : -1;
  const cableLabel = cableIndex >= 0 && cables ? (cables.buffers.labels[cableIndex] ?? "") : (hottest.cable?.id ?? "");
  const flyToRack = (rackId: string) => {
    const rack = editor.records[rackId];
    const row = isRack(rack) ? editor.records[rack.rowId] : undefined;
    if (!isRack(rack) || !isRow(row)) return;
    const b = rackBox(row, rack);
    requestFrame({ x0: b.x0 - 3000, y0: b.y0 - 3000, x1: b.x1 + 3000, y1: b.y1 + 3000 });
  };
  return (
    <div className="heat-panel" role="region" aria-label="Heat map" data-testid="heat-panel" data-job={overlay.jobId}>
      <header>
        <strong>
          Heat map: simulation #{overlay.jobId} on plan #{overlay.planId}
        </strong>
        {overlay.metric && (
          <span className="small" data-testid="heat-metric">
            queue occupancy: 100 % = {Math.round(overlay.metric.queuePeakBytes / 1000).toLocaleString("en")} KB, the
            run&apos;s largest queue
          </span>
        )}
        <button type="button" className="link" onClick={clearHeat} data-testid="heat-clear">
          Clear ✕
        </button>
      </header>
      <div className="heat-legend" data-testid="heat-legend">
        <div
          className="heat-scale"
          style={{
            background: `linear-gradient(to right, ${HEAT_STOPS.map((s) => `${s.colour} ${s.at * 100}%`).join(", ")})`,
          }}
        />
        <div className="heat-ticks small">
          {HEAT_STOPS.map((s) => (
            <span key={s.at} data-testid={`heat-stop-${s.at * 100}`} data-colour={s.colour}>
              {s.at * 100}%
            </span>
          ))}
        </div>
      </div>
      <label className="heat-time">
        <span>Time</span>
        <input
          type="range"
          min={0}
          max={overlay.buckets - 1}
          step={1}
          value={bucket}
          onChange={(e) => setHeatBucket(e.target.valueAsNumber)}
          aria-label="Time in the run"
          aria-valuetext={`${formatSeconds(t0)} to ${formatSeconds(t1)}`}
          data-testid="heat-slider"
        />
      </label>
      <p className="small" data-testid="heat-time" data-bucket={bucket}>
        {formatSeconds(t0)}–{formatSeconds(t1)} of {formatSeconds(end)} (step {bucket + 1} of {overlay.buckets})
      </p>
      <p className="small">
        Hottest cable:{" "}
        {hottest.cable ? (
          <button
            type="button"
            className="link"
            onClick={() => cables && cableIndex >= 0 && focusCable(cables, cableIndex)}
            data-testid="heat-hottest-cable"
            data-cable-id={hottest.cable.id}
            data-util={hottest.cable.util}
          >
            <span className="sw" style={{ background: heatColour(hottest.cable.util) }} /> {cableLabel}{" "}
            {pct(hottest.cable.util)}
          </button>
        ) : (
          <span data-testid="heat-hottest-cable">none busy</span>
        )}
      </p>
      <p className="small">
        Hottest rack:{" "}
        {hottest.rack ? (
          <button
            type="button"
            className="link"
            onClick={() => hottest.rack && flyToRack(hottest.rack.id)}
            data-testid="heat-hottest-rack"
            data-rack={hottest.rack.name}
            data-util={hottest.rack.util}
          >
            <span className="sw" style={{ background: heatColour(hottest.rack.util) }} /> {hottest.rack.name}
            {hottest.rack.tor ? ` (${hottest.rack.tor})` : ""} {pct(hottest.rack.util)}
          </button>
        ) : (
          <span data-testid="heat-hottest-rack">none busy</span>
        )}
      </p>
      <p className="muted small">
        A cable shows its busier direction; a rack its busiest ToR link, either way. Fluid estimate, averaged over each
        step.
      </p>
    </div>
  );
}
