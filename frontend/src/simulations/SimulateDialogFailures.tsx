/** Failures of the simulation form: switches and cables that fail (and come back) at given times. */
import type { Dispatch, SetStateAction } from "react";
import type { PlanNetwork } from "./api";
import { FieldError } from "./SimulateDialogFieldError";
import { tid, type FailureRow, type FormError } from "./SimulateDialogForm";

export function Failures({
  failures,
  setFailures,
  network,
  canPick,
  onPickFloor,
  error,
}: {
  failures: FailureRow[];
  setFailures: Dispatch<SetStateAction<FailureRow[]>>;
  network: PlanNetwork | null;
  /** The hall's racks are known: failures can be picked on the floor. */
  canPick: boolean;
  onPickFloor: () => void;
  error: FormError | null;
}) {
  const update = (f: FailureRow, change: Partial<FailureRow>) =>
    setFailures((xs) => xs.map((x) => (x === f ? { ...x, ...change } : x)));
  const remove = (f: FailureRow) => setFailures((xs) => xs.filter((x) => x !== f));
  return (
    <>
      <h3>Failures</h3>
      <div className="sim-failures" data-testid="sim-failures">
        {failures.map((f, i) => (
          <div key={`${f.kind}:${f.id}`} className="sim-params" data-testid={`sim-failure-${i}`} data-kind={f.kind}>
            <label className="sim-param">
              <span>{f.kind === "link" ? "A cable fails" : "A switch fails"}</span>
              {f.kind === "link" ? (
                <span className="small">
                  {f.label}{" "}
                  <button
                    type="button"
                    className="link"
                    onClick={() => remove(f)}
                    aria-label={`Remove the failure of ${f.label}`}
                  >
                    ✕
                  </button>
                </span>
              ) : (
                <select
                  value={f.id}
                  onChange={(e) => {
                    const id = e.target.value;
                    const n = network?.switches.find((x) => x.id === id);
                    if (id && n) update(f, { id, label: `${id} (${n.role})` });
                    else remove(f);
                  }}
                  data-testid={tid("sim-fail-node", i)}
                >
                  <option value="">none (remove)</option>
                  {network?.switches.map((n) => (
                    <option key={n.id} value={n.id}>
                      {n.id} ({n.role})
                    </option>
                  ))}
                </select>
              )}
            </label>
            <label className="sim-param">
              <span>Fails at (ms)</span>
              <input
                type="number"
                min={0}
                value={f.atMs}
                onChange={(e) => update(f, { atMs: e.target.valueAsNumber })}
                data-testid={tid("sim-fail-at", i)}
              />
            </label>
            <label className="sim-param">
              <span>Back at (ms, empty: stays down)</span>
              <input
                type="number"
                min={0}
                value={f.recoverMs ?? ""}
                onChange={(e) =>
                  update(f, { recoverMs: Number.isFinite(e.target.valueAsNumber) ? e.target.valueAsNumber : null })
                }
                data-testid={tid("sim-fail-recover", i)}
              />
            </label>
          </div>
        ))}
        <div className="sim-params">
          <label className="sim-param">
            <span>{failures.length ? "Another switch fails" : "A switch fails"}</span>
            <select
              value=""
              onChange={(e) => {
                const n = network?.switches.find((x) => x.id === e.target.value);
                if (n)
                  setFailures((xs) => [
                    ...xs,
                    { kind: "node", id: n.id, label: `${n.id} (${n.role})`, atMs: 0, recoverMs: null },
                  ]);
              }}
              data-testid={tid("sim-fail-node", failures.length)}
            >
              <option value="">none</option>
              {network?.switches
                .filter((n) => !failures.some((f) => f.kind === "node" && f.id === n.id))
                .map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.id} ({n.role})
                  </option>
                ))}
            </select>
          </label>
          <div className="sim-param">
            <span>or on the floor: a ToR, a switch, a cable</span>
            <button type="button" disabled={!canPick} onClick={onPickFloor} data-testid="sim-pick-failures">
              Pick failures on the floor
            </button>
          </div>
        </div>
        <FieldError error={error} field="failAtMs" />
        <FieldError error={error} field="failures" />
      </div>
    </>
  );
}
