/**
 * Run: the simulation form for one plan, or two for a like-for-like comparison. A preset in the
 * planner's words with its parameters (the server's table, which also builds the workload), a routing
 * scheme, seeds; one job per plan and seed.
 *
 * Composed by concern: the workload (SimulateDialogWorkload), its rack sets (SimulateDialogRacks),
 * routing and seeds (SimulateDialogRouting), failures (SimulateDialogFailures), the mode (ModeChoice);
 * the state lives in hooks (SimulateDialogHooks), the pure rules in SimulateDialogForm.
 */
import { useMemo, useState } from "react";
import type { PickSet } from "../state/floorPick";
import { Dialog } from "../widgets/Dialog";
import type { WiringPlan } from "./api";
import { ModeChoice } from "./ModeChoice";
import { FLOW_MODE, type ModeSettings } from "./packet";
import { PickBar } from "./PickBar";
import { defaultsOf, paramsOf, requestsFor, type RoutingType, type Shown, type ShownValues } from "./presets";
import { Failures } from "./SimulateDialogFailures";
import { atParam, chosenOf, replacedBy, setsOf, shownAtField } from "./SimulateDialogForm";
import { usePlanNetwork, usePresets, useRackPicks, useSubmitRuns } from "./SimulateDialogHooks";
import { RackSets } from "./SimulateDialogRacks";
import { RoutingAndSeeds } from "./SimulateDialogRouting";
import { WorkloadChoice, WorkloadParams } from "./SimulateDialogWorkload";

const NO_SETS: readonly PickSet[] = [];

export function SimulateDialog({ plans, onClose }: { plans: WiringPlan[]; onClose: () => void }) {
  const { presets, error: presetsError } = usePresets();
  const [chosenKind, setKind] = useState<string | null>(null);
  // Each preset's fields as the planner left them (a preset not yet shown starts at the table's defaults).
  const [shown, setShown] = useState<Record<string, ShownValues>>({});
  const [routing, setRouting] = useState<RoutingType>("ecmp");
  const [seeds, setSeeds] = useState("1");
  const [mode, setMode] = useState<ModeSettings>(FLOW_MODE);
  const first = plans[0];
  const preset = presets?.find((p) => p.name === chosenKind) ?? presets?.[0] ?? null;
  const kind = preset?.name ?? "";
  const values = useMemo(() => (preset ? (shown[preset.name] ?? defaultsOf(preset)) : {}), [preset, shown]);
  const sets = useMemo(() => (preset ? setsOf(preset) : NO_SETS), [preset]);
  const { network, rackInfo } = usePlanNetwork(first);
  const picks = useRackPicks(first, rackInfo, sets);
  const { busy, error: refusal, run } = useSubmitRuns(plans);
  // an engine refusal of the built workload goes under the parameter that sets the field it names
  const error = refusal && preset ? atParam(preset, refusal) : refusal;
  const { picked } = picks;
  const setValue = (name: string, v: Shown) =>
    setShown((s) => ({ ...s, [kind]: { ...(s[kind] ?? (preset ? defaultsOf(preset) : {})), [name]: v } }));
  // The first plan's request for one seed, as the form stands: what the run-time estimate is of.
  const draft = useMemo(() => {
    if (!preset) return null;
    try {
      return requestsFor(preset, paramsOf(preset, values), routing, [1], null, chosenOf(sets, picked))[0] ?? null;
    } catch {
      return null; // the form says what is wrong when it is submitted
    }
  }, [preset, values, routing, sets, picked]);

  // While picking on the floor the form steps aside (its state stays here) for the bar over the hall.
  if (picks.picking) return <PickBar onDone={picks.finishPick} />;

  return (
    <Dialog
      className="sim-dialog"
      title={`Simulate ${plans.map((p) => `#${p.id}`).join(" and ")}`}
      onClose={onClose}
      testId="simulate-dialog"
    >
      <p className="muted small">
        {plans.length > 1
          ? `The same workload on ${plans.map((p) => `#${p.id} ${p.name}`).join(" and ")}, like for like.`
          : `On #${plans[0]?.id} ${plans[0]?.name}.`}{" "}
        {mode.mode === "packet"
          ? "Packet-level runs: TCP, queues and losses; slower."
          : mode.mode === "decomposed"
            ? "Link-level decomposition: every busy link at packet level, spread over the workers; the result states its measured error."
            : "Fluid estimate; tails, incast and latency bounds need packet mode."}
      </p>
      {presetsError && (
        <p className="field-error" role="alert" data-testid="sim-presets-error">
          The workload presets could not be read: {presetsError}
        </p>
      )}
      {!preset && !presetsError && <p className="muted small">Loading the workload presets…</p>}
      {preset && presets && (
        <>
          <WorkloadChoice presets={presets} kind={kind} onKind={setKind} />
          <WorkloadParams
            preset={preset}
            values={values}
            onValue={setValue}
            replaced={(k) => replacedBy(preset, picked, k)}
            error={error}
            switches={network?.switches}
          />
        </>
      )}
      <RackSets
        sets={preset?.rack_sets ?? []}
        picked={picked}
        rackInfo={rackInfo}
        onPick={(k) => void picks.beginPick(k)}
        onClear={picks.clearSet}
        onToggle={picks.toggleFromList}
      />
      <RoutingAndSeeds routing={routing} onRouting={setRouting} seeds={seeds} onSeeds={setSeeds} error={error} />
      <Failures
        failures={picks.failures}
        setFailures={picks.setFailures}
        network={network}
        canPick={rackInfo !== null}
        onPickFloor={() => void picks.beginPick("failures")}
        error={error}
      />
      <ModeChoice planId={first?.id} draft={draft} value={mode} onChange={setMode} />
      {error && !shownAtField(error, preset?.params.map((p) => p.name) ?? []) && (
        <p className="field-error" role="alert" data-testid="sim-error">
          {error.field && <code>{error.field}</code>} {error.text}
        </p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="primary"
          disabled={busy || !preset}
          onClick={() =>
            preset && void run({ preset, values, routing, seeds, mode, sets, picked, failures: picks.failures })
          }
          data-testid="sim-run"
        >
          {busy ? "Submitting…" : "Run simulation"}
        </button>
      </div>
    </Dialog>
  );
}
