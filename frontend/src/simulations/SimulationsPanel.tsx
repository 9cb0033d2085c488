/**
 * Simulations (view): the project's runs, newest first, each with its progress bar (the engine's
 * share of flows done), its place in the line while workers are busy, a cancel button while it is
 * not over; a finished one opens its result; ticked runs of one workload open the comparison.
 */
import { useEffect, useState } from "react";
import { notify, READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";
import { useWiring } from "../state/wiring";
import { cancelJob, finished, listJobs, queuePosition, type Job } from "./api";
import { CompareDialog } from "./CompareDialog";
import { HeatMapPanel } from "./HeatMapPanel";
import { splitName } from "./presets";
import { decomposedRunningText } from "./decomposed";
import { formatSeconds, runPlan, runTitle } from "./results";
import { ResultDialog } from "./ResultDialog";
import { SimulateDialog } from "./SimulateDialog";
import { SweepDialog } from "./SweepDialog";
import type { SweepDetail, SweepRead } from "./sweeps";
import { request } from "../sync/http";
import { useSimulations } from "./store";

const POLL_MS = 1000;
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

const STATUS: Record<Job["status"], string> = {
  queued: "waiting for a worker",
  running: "running",
  succeeded: "finished",
  failed: "failed",
  cancelled: "cancelled",
};

function Progress({ job, all }: { job: Job; all: Job[] }) {
  const pct = Math.round(job.progress * 100);
  const text =
    job.status === "queued"
      ? `waiting for a worker: ${ordinal(job.queue_position ?? queuePosition(job, all))} in line`
      : job.status === "running"
        ? runningText(job, pct)
        : job.status === "succeeded" && job.outcome === "partial"
          ? `finished incomplete: ${(job.stalled_flows ?? 0).toLocaleString("en")} stalled, ${(job.unfinished_flows ?? 0).toLocaleString("en")} unfinished`
          : STATUS[job.status];
  return (
    <div className="sim-progress">
      <div
        className={`sim-bar ${job.status}`}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-label={`Progress of simulation ${job.id}`}
        data-testid={`sim-progress-${job.id}`}
      >
        <div style={{ width: `${pct}%` }} />
      </div>
      <span
        className={`small ${job.outcome === "partial" ? "warn" : "muted"}`}
        data-testid={`sim-status-${job.id}`}
        data-status={job.status}
        data-outcome={job.outcome ?? ""}
      >
        {text}
      </span>
    </div>
  );
}

/**
 * The engine's own progress: flows done, simulated time, events (once it has reported); a decomposed
 * run counts the links simulated (its flows finish only when every link's simulation is combined).
 */
function runningText(job: Job, pct: number): string {
  if (job.model === "decomposed") return decomposedRunningText(job);
  if (job.flows_total == null) return `${pct}% of flows done`;
  const parts = [`${(job.flows_done ?? 0).toLocaleString("en")} of ${job.flows_total.toLocaleString("en")} flows done`];
  if (job.sim_time_s != null) parts.push(`simulated ${formatSeconds(job.sim_time_s)}`);
  if (job.events != null) parts.push(`${job.events.toLocaleString("en")} events`);
  return parts.join(" · ");
}

function ordinal(n: number): string {
  const teen = Math.floor(n / 10) % 10 === 1;
  return `${n}${teen || n % 10 > 3 ? "th" : ["th", "st", "nd", "rd"][n % 10]}`;
}

/** The hall's sweeps (newest first), each opening its points; a new one from the grid form. */
function Sweeps() {
  const projectId = useSession((s) => s.projectId);
  const hallId = useSession((s) => s.hallId);
  const dialog = useSimulations((s) => s.dialog);
  const readOnly = useReadOnly();
  const [sweeps, setSweeps] = useState<SweepRead[]>([]);
  useEffect(() => {
    if (!projectId || dialog.d !== "none") return;
    request<{ items: SweepRead[] }>("GET", `/projects/${projectId}/sweeps?limit=20`).then(
      (r) => setSweeps(r.items.filter((s) => s.hall_id === hallId)),
      () => undefined,
    );
  }, [projectId, hallId, dialog.d]);
  const open = (id: number) =>
    void request<SweepDetail>("GET", `/sweeps/${id}`).then(
      (sweep) => useSimulations.setState({ dialog: { d: "sweep", sweep } }),
      (e: unknown) => notify("error", `Sweep ${id}: ${message(e)}`),
    );
  return (
    <>
      <h3>Sweeps</h3>
      <ul className="plan-list">
        {sweeps.map((s) => (
          <li key={s.id} className="plan-row small" data-testid={`sweep-${s.id}`}>
            <button type="button" className="link" onClick={() => open(s.id)}>
              #{s.id} {s.name}
            </button>{" "}
            <span className="muted">
              {s.points_by_status.succeeded ?? 0} of {s.points_total} points · {s.status}
            </span>
          </li>
        ))}
      </ul>
      <div className="button-row">
        <button
          type="button"
          disabled={readOnly}
          title={readOnly ? READ_ONLY_TITLE : undefined}
          onClick={() => useSimulations.setState({ dialog: { d: "sweep", sweep: null } })}
          data-testid="sweep-new"
        >
          Sweep parameters…
        </button>
      </div>
    </>
  );
}

export function SimulationsPanel() {
  const projectId = useSession((s) => s.projectId);
  const hallId = useSession((s) => s.hallId);
  const plans = useWiring((s) => s.plans);
  const jobs = useSimulations((s) => s.jobs);
  const selected = useSimulations((s) => s.selected);
  const dialog = useSimulations((s) => s.dialog);
  const readOnly = useReadOnly();
  const busy = jobs.some((j) => !finished(j));

  // Poll while a run is not over (and once when the project opens or a submission changed the ticks).
  useEffect(() => {
    if (!projectId) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const list = await listJobs(projectId);
        if (stop) return;
        useSimulations.setState({ jobs: list });
        if (list.some((j) => !finished(j))) timer = setTimeout(() => void tick(), POLL_MS);
      } catch (e) {
        if (!stop) notify("error", `Simulations: ${message(e)}`);
      }
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [projectId, busy, selected]);

  const hallPlans = new Set(plans.map((p) => p.id));
  const shown = jobs.filter((j) => j.plan_id !== null && hallPlans.has(j.plan_id));
  const chosen = shown.filter((j) => selected.includes(j.id));
  const workloads = new Set(chosen.map((j) => splitName(j.name).workload));
  const comparable = chosen.length >= 2 && workloads.size === 1 && chosen.every((j) => j.status === "succeeded");
  const close = () => useSimulations.setState({ dialog: { d: "none" } });
  const toggle = (id: number, on: boolean) =>
    useSimulations.setState((s) => ({ selected: on ? [...s.selected, id] : s.selected.filter((x) => x !== id) }));

  return (
    <section className="panel-section sim-panel" data-testid="simulations-panel">
      <h2>Simulations</h2>
      {shown.length === 0 && (
        <p className="muted small">No run yet: tick a plan (or two, to compare) above and press “Simulate…”.</p>
      )}
      <ul className="plan-list">
        {shown.map((j) => (
          <li key={j.id} className="plan-row sim-row" data-testid={`sim-${j.id}`}>
            <label className="plan-check">
              <input
                type="checkbox"
                checked={selected.includes(j.id)}
                onChange={(e) => toggle(j.id, e.target.checked)}
                aria-label={`Select simulation ${j.id} to compare`}
                data-testid={`sim-select-${j.id}`}
              />
            </label>
            <div className="plan-body">
              <div className="small" data-testid={`sim-title-${j.id}`}>
                <strong>{runTitle(j)}</strong>{" "}
                {j.model === "packet" && (
                  <span className="badge" title="A packet-level run: TCP and queues" data-testid={`sim-packet-${j.id}`}>
                    packet
                  </span>
                )}
                {j.model === "decomposed" && (
                  <span className="badge" title={j.note} data-testid={`sim-decomposed-${j.id}`}>
                    decomposed
                  </span>
                )}{" "}
                <span className="muted">{runPlan(j, plans.find((p) => p.id === j.plan_id)?.name)}</span>
              </div>
              <Progress job={j} all={jobs} />
              {j.status === "failed" && j.error && <p className="field-error small">{j.error}</p>}
              <div className="button-row">
                {!finished(j) && (
                  <button
                    type="button"
                    disabled={readOnly}
                    title={readOnly ? READ_ONLY_TITLE : undefined}
                    onClick={() =>
                      void cancelJob(j.id).then(
                        (c) => useSimulations.setState((s) => ({ jobs: s.jobs.map((x) => (x.id === c.id ? c : x)) })),
                        (e: unknown) => notify("error", `Cancel: ${message(e)}`),
                      )
                    }
                    data-testid={`sim-cancel-${j.id}`}
                  >
                    Cancel
                  </button>
                )}
                {j.status === "succeeded" && (
                  <button
                    type="button"
                    onClick={() => useSimulations.setState({ dialog: { d: "result", jobId: j.id } })}
                    data-testid={`sim-open-${j.id}`}
                  >
                    Result…
                  </button>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
      {shown.length > 1 && (
        <div className="button-row">
          <button
            type="button"
            disabled={!comparable}
            onClick={() => useSimulations.setState({ dialog: { d: "compare", jobIds: chosen.map((j) => j.id) } })}
            data-testid="sim-compare"
          >
            Compare {chosen.length >= 2 ? chosen.length : ""} runs
          </button>
          {!comparable && (
            <span className="muted small">
              {workloads.size > 1
                ? "Pick runs of one workload and routing."
                : "Tick two or more finished runs of one workload."}
            </span>
          )}
        </div>
      )}
      <Sweeps />
      <HeatMapPanel />
      {dialog.d === "form" && <SimulateDialog plans={dialog.plans} onClose={close} />}
      {dialog.d === "result" && <ResultDialog jobId={dialog.jobId} onClose={close} />}
      {dialog.d === "compare" && <CompareDialog jobIds={dialog.jobIds} onClose={close} />}
      {dialog.d === "sweep" && hallId && <SweepDialog hallId={hallId} open={dialog.sweep} onClose={close} />}
    </section>
  );
}
