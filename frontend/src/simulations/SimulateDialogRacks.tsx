/** The rack sets of the simulation form (senders, receivers, job, cache): picked on the floor or from a list. */
import { PICK_SETS, type PickMode, type PickSet } from "../state/floorPick";
import type { RackSet } from "./presets";
import type { RackInfo } from "./SimulateDialogHooks";

export function RackSets({
  sets,
  picked,
  rackInfo,
  onPick,
  onClear,
  onToggle,
}: {
  /** The preset's rack sets (the server's table: what each replaces, what is used while none is chosen). */
  sets: readonly RackSet[];
  picked: Record<PickSet, readonly string[]>;
  rackInfo: RackInfo | null;
  onPick: (mode: PickMode) => void;
  onClear: (k: PickSet) => void;
  onToggle: (k: PickSet, rackId: string) => void;
}) {
  if (sets.length === 0) return null;
  return (
    <>
      <h3>Racks</h3>
      {sets.map((set) => {
        const k = set.name;
        const names = picked[k];
        const chosenRacks = rackInfo
          ? [...rackInfo.values()].filter((r) => r.logical.some((l) => names.includes(l)))
          : [];
        return (
          <fieldset key={k} className="sim-pick" data-testid={`sim-set-${k}`}>
            <legend>
              <span className="sw" style={{ background: PICK_SETS[k].colour }} /> {PICK_SETS[k].label}
            </legend>
            <p className="small" data-testid={`sim-set-${k}-chosen`} data-logical={names.join(" ")}>
              {names.length
                ? `${chosenRacks.length} rack${chosenRacks.length === 1 ? "" : "s"} chosen (${names.length} logical): ${chosenRacks.map((r) => r.name).join(", ")}`
                : `None chosen: ${set.otherwise}.`}
            </p>
            <div className="button-row">
              <button type="button" disabled={!rackInfo} onClick={() => onPick(k)} data-testid={`sim-pick-${k}`}>
                Pick on the floor
              </button>
              {names.length > 0 && (
                <button type="button" className="link" onClick={() => onClear(k)}>
                  Clear
                </button>
              )}
            </div>
            <details>
              <summary className="small">Choose from the list</summary>
              <div className="sim-pick-list small">
                {[...(rackInfo ?? new Map()).entries()]
                  .filter(([, r]) => r.logical.length > 0)
                  .map(([id, r]) => (
                    <label key={id}>
                      <input
                        type="checkbox"
                        checked={r.logical.every((l: string) => names.includes(l))}
                        onChange={() => onToggle(k, id)}
                        data-testid={`sim-set-${k}-rack-${r.name}`}
                      />{" "}
                      {r.name}
                    </label>
                  ))}
              </div>
            </details>
          </fieldset>
        );
      })}
    </>
  );
}
