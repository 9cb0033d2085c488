/**
 * The bar over the viewport while a simulation's racks and failures are picked on the floor: which
 * set a click edits (each in its colour, with its count), what a click fails while picking failures,
 * the failures so far (each can be taken back), and Done (or Escape) back to the form.
 */
import { useEffect } from "react";
import {
  dropFailure,
  FAILURE_COLOUR,
  PICK_SETS,
  pickCounts,
  setFailKind,
  setPickMode,
  useFloorPick,
} from "../state/floorPick";

const HINT = {
  set: "Click a rack to add it to the set; click it again to take it out.",
  device:
    "Click a rack to fail the ToR or switch at that height (in the plan view: the top one); again to take it back.",
  cable: "Click a cable to fail it (it lights up under the pointer); again to take it back.",
};

export function PickBar({ onDone }: { onDone: () => void }) {
  const s = useFloorPick((st) => st.session);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onDone();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onDone]);
  if (!s) return null;
  const counts = pickCounts(s);
  return (
    <div className="pick-bar" role="region" aria-label="Pick on the floor" data-testid="pick-bar" data-mode={s.mode}>
      <header>
        <strong>Pick on the floor (plan #{s.planId})</strong>
        <button type="button" className="primary" onClick={onDone} data-testid="pick-done">
          Done
        </button>
      </header>
      <div className="pick-modes" role="radiogroup" aria-label="What a click picks">
        {s.sets.map((k) => (
          <label key={k}>
            <input
              type="radio"
              name="pick-mode"
              checked={s.mode === k}
              onChange={() => setPickMode(k)}
              data-testid={`pick-mode-${k}`}
            />{" "}
            <span className="sw" style={{ background: PICK_SETS[k].colour }} /> {PICK_SETS[k].label}{" "}
            <strong data-testid={`pick-count-${k}`} data-logical={counts[k].logical} data-racks={counts[k].racks}>
              {counts[k].racks} rack{counts[k].racks === 1 ? "" : "s"}
              {counts[k].logical !== counts[k].racks ? ` (${counts[k].logical} logical)` : ""}
            </strong>
          </label>
        ))}
        <label>
          <input
            type="radio"
            name="pick-mode"
            checked={s.mode === "failures"}
            onChange={() => setPickMode("failures")}
            data-testid="pick-mode-failures"
          />{" "}
          <span className="sw" style={{ background: FAILURE_COLOUR }} /> Failures{" "}
          <strong data-testid="pick-count-failures">{s.failures.length}</strong>
        </label>
      </div>
      {s.mode === "failures" && (
        <div className="pick-modes" role="radiogroup" aria-label="What a click fails">
          <span className="muted small">A click fails:</span>
          <label>
            <input
              type="radio"
              name="pick-fail-kind"
              checked={s.failKind === "device"}
              onChange={() => setFailKind("device")}
              data-testid="pick-failkind-device"
            />{" "}
            a ToR or switch
          </label>
          <label>
            <input
              type="radio"
              name="pick-fail-kind"
              checked={s.failKind === "cable"}
              onChange={() => setFailKind("cable")}
              data-testid="pick-failkind-cable"
            />{" "}
            a cable
          </label>
        </div>
      )}
      <p className="muted small">
        {s.mode === "failures" ? HINT[s.failKind] : HINT.set} Escape or Done: back to the form.
      </p>
      {s.failures.length > 0 && (
        <ul className="pick-failures small">
          {s.failures.map((f, i) => (
            <li key={`${f.kind}:${f.id}`} data-testid={`pick-failure-${i}`} data-kind={f.kind} data-id={f.id}>
              {f.kind === "link" ? "cable " : ""}
              {f.label}{" "}
              <button type="button" className="link" onClick={() => dropFailure(f)} aria-label={`Take back ${f.label}`}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
