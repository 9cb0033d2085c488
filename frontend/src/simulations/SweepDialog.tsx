/**
 * Sweeps: a grid over the hall (each point generates its plan and simulates it, fanned out over
 * every worker); the points arrive into a table, the configurations (seeds averaged, their spread
 * as error bars) into a cost-against-time chart and a table with the Pareto frontier marked; cancel;
 * download. Costs are priced when read: a saved price book reads the sweep again.
 */
import { useEffect, useMemo, useState } from "react";
import { useWiring } from "../state/wiring";
import { ApiError, request } from "../sync/http";
import { BusBwSweep } from "./BusBwSweep";
import { Chart } from "./Chart";
import { isCollectiveSweep } from "./collective";
import { Dialog } from "../widgets/Dialog";
import { defaultsOf, paramsOf, PresetError, type Preset, type Shown } from "./presets";
import { formatSeconds } from "./results";
import { PresetSweepForm, RailInputs } from "./PresetSweepForm";
import { usePresets } from "./SimulateDialogHooks";
import { ParamInput } from "./SimulateDialogWorkload";
import {
  configRows,
  costTimeSeries,
  gridOf,
  GridError,
  needsRail,
  railBase,
  pointRows,
  speedChoices,
  SWEEP_PARAMS,
  type PortSpeeds,
  type RailChoice,
  type SweepDetail,
  type SweepParam,
} from "./sweeps";

const POLL_MS = 1000;
const PATTERNS = [
  "single-homed",
  "mc-lag",
  "side-to-side",
  "paired-row",
  "inter-chassis",
  "grin",
  "rail-optimized",
  "rail-only",
];
const COST_SERIES = [
  { label: "configurations (mean of seeds)", colour: "#4e9af1", points: true },
  { label: "Pareto frontier", colour: "#e0b341" },
];
const SPREAD_COLOUR = "#8fa3bf";
/** The shuffle's parameters a sweep's base shares with the simulation form (the server's table). */
const SHARED = [
  { name: "job_racks", testId: "sweep-job-racks" },
  { name: "bytes", testId: "sweep-mb" },
] as const;
const sharedOf = (shuffle: Preset): Preset => ({
  ...shuffle,
  params: shuffle.params.filter((p) => SHARED.some((s) => s.name === p.name)),
});
const RAIL_FIELDS = ["su_size", "rail_leaf_model_id", "oversubscription"];
const over = (s: SweepDetail) => s.status === "succeeded" || s.status === "failed" || s.status === "cancelled";

function SweepForm({ hallId, onCreated }: { hallId: number; onCreated: (s: SweepDetail) => void }) {
  const [name, setName] = useState("sweep");
  const [pattern, setPattern] = useState("single-homed");
  const { presets } = usePresets();
  const shuffle = useMemo(() => {
    const found = presets?.find((p) => p.name === "shuffle");
    return found ? sharedOf(found) : null;
  }, [presets]);
  const [shown, setShown] = useState<Record<string, Shown> | null>(null);
  const values = shown ?? (shuffle ? defaultsOf(shuffle) : {});
  const [rows, setRows] = useState<{ param: SweepParam; values: string }[]>([
    { param: "pattern", values: "single-homed, side-to-side" },
    { param: "seed", values: "1, 2, 3" },
  ]);
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // A GPU hall's plans: the rail options every point's rail plan is wired with.
  const [rail, setRail] = useState<RailChoice>({ suSize: "", leafModelId: null, oversubscription: "" });
  const railShown = rows.some((r) => r.param === "pattern" && /rail-/.test(r.values)) || /^rail-/.test(pattern);
  // The port speeds this hall's devices run: offered beside a speed row, and checked before submitting.
  const [speeds, setSpeeds] = useState<PortSpeeds | null>(null);
  useEffect(() => {
    request<PortSpeeds>("GET", `/halls/${hallId}/sweeps/port-speeds`).then(setSpeeds, () => undefined);
  }, [hallId]);
  const submit = async () => {
    setError(null);
    setBusy(true);
    try {
      const grid = gridOf(rows, speeds);
      if (!shuffle) throw new Error("the workload presets are not read yet");
      const rails = needsRail(pattern, grid) ? railBase(pattern, rail) : {};
      const base = { pattern, workload: "shuffle", ...paramsOf(shuffle, values), ...rails };
      onCreated(await request<SweepDetail>("POST", `/halls/${hallId}/sweeps`, { body: { name, base, grid } }));
    } catch (e) {
      if (e instanceof GridError || e instanceof PresetError) setError({ field: e.field, text: e.message });
      else if (e instanceof ApiError) setError({ field: e.items[0]?.field ?? "", text: e.message });
      else setError({ field: "", text: String(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <p className="muted small">
        Every point generates its plan of this hall (wiring, lengths, priced bill of materials) and simulates a
        MapReduce shuffle on it; the points run on every worker there is. Port speeds set every server or fabric link of
        the point's plan to that speed: its cables, optics and cost follow.
      </p>
      <div className="sim-params">
        <label className="sim-param">
          <span>Name</span>
          <input value={name} onChange={(e) => setName(e.target.value)} data-testid="sweep-name" />
        </label>
        <label className="sim-param">
          <span>Pattern (unless varied)</span>
          <select value={pattern} onChange={(e) => setPattern(e.target.value)} data-testid="sweep-base-pattern">
            {PATTERNS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        {railShown && (
          <RailInputs
            pattern={pattern}
            rail={rail}
            setRail={setRail}
            fieldError={(f: string) => error?.field === f && <span className="field-error">{error.text}</span>}
          />
        )}
        {SHARED.map(({ name: key, testId }) => {
          const p = shuffle?.params.find((x) => x.name === key);
          return (
            p && (
              <label key={key} className="sim-param" title={p.help}>
                <span>{p.label}</span>
                <ParamInput
                  p={p}
                  value={values[key]}
                  onValue={(v) => setShown({ ...values, [key]: v })}
                  testId={testId}
                />
              </label>
            )
          );
        })}
      </div>
      <h3>Vary</h3>
      {rows.map((r, i) => (
        <div className="sim-params" key={i}>
          <label className="sim-param">
            <span>Parameter</span>
            <select
              value={r.param}
              onChange={(e) =>
                setRows((rs) => rs.map((x, j) => (j === i ? { ...x, param: e.target.value as SweepParam } : x)))
              }
              data-testid={`sweep-param-${i}`}
            >
              {SWEEP_PARAMS.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <label className="sim-param">
            <span>Values (comma-separated)</span>
            <input
              value={r.values}
              onChange={(e) => setRows((rs) => rs.map((x, j) => (j === i ? { ...x, values: e.target.value } : x)))}
              data-testid={`sweep-values-${i}`}
            />
            {speedChoices(r.param, speeds) && (
              <span className="muted small" data-testid={`sweep-speeds-${i}`}>
                this hall runs {speedChoices(r.param, speeds)}
              </span>
            )}
            {error?.field === r.param && <span className="field-error">{error.text}</span>}
          </label>
          <button type="button" className="link" onClick={() => setRows((rs) => rs.filter((_, j) => j !== i))}>
            remove
          </button>
        </div>
      ))}
      <div className="button-row">
        <button type="button" onClick={() => setRows((rs) => [...rs, { param: "job_racks", values: "2, 4" }])}>
          Vary another parameter
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void submit()} data-testid="sweep-run">
          Run sweep
        </button>
      </div>
      {error && !rows.some((r) => r.param === error.field) && !(railShown && RAIL_FIELDS.includes(error.field)) && (
        <p className="field-error" role="alert" data-testid="sweep-error">
          {error.field && <code>{error.field}</code>} {error.text}
        </p>
      )}
    </>
  );
}

/** A grid of the planner's own, or a sweep picked by name from the server's table (the collective sweep). */
function SweepStart({ hallId, onCreated }: { hallId: number; onCreated: (s: SweepDetail) => void }) {
  const { presets, sweeps } = usePresets();
  const [kind, setKind] = useState("");
  const chosen = sweeps.find((s) => s.name === kind) ?? null;
  return (
    <>
      <label className="sim-param">
        <span>Sweep</span>
        <select value={kind} onChange={(e) => setKind(e.target.value)} data-testid="sweep-kind">
          <option value="">a grid of parameters</option>
          {sweeps.map((s) => (
            <option key={s.name} value={s.name}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {chosen && presets ? (
        <PresetSweepForm key={chosen.name} hallId={hallId} sweep={chosen} presets={presets} onCreated={onCreated} />
      ) : (
        <SweepForm hallId={hallId} onCreated={onCreated} />
      )}
    </>
  );
}

function SweepView({ initial }: { initial: SweepDetail }) {
  const [sweep, setSweep] = useState(initial);
  useEffect(() => {
    if (over(sweep)) return;
    const t = setTimeout(() => {
      request<SweepDetail>("GET", `/sweeps/${sweep.id}`).then(setSweep, () => undefined);
    }, POLL_MS);
    return () => clearTimeout(t);
  }, [sweep]);
  // Costs are priced on read: a saved price book makes every shown cost stale.
  const pricesRevision = useWiring((s) => s.pricesRevision);
  useEffect(() => {
    if (pricesRevision === 0) return;
    request<SweepDetail>("GET", `/sweeps/${sweep.id}`).then(setSweep, () => undefined);
  }, [pricesRevision, sweep.id]);
  const rows = useMemo(() => pointRows(sweep), [sweep]);
  const configs = useMemo(() => configRows(rows), [rows]);
  const chart = useMemo(() => costTimeSeries(configs), [configs]);
  const bars = useMemo(() => ({ lo: chart.lo, hi: chart.hi, colour: SPREAD_COLOUR }), [chart]);
  const yRange = useMemo((): [number, number] | undefined => {
    if (!chart.lo.length) return undefined;
    const [lo, hi] = [Math.min(...chart.lo), Math.max(...chart.hi)];
    const pad = Math.max((hi - lo) * 0.1, hi * 0.02, 1e-6);
    return [Math.max(0, lo - pad), hi + pad];
  }, [chart]);
  const done = rows.filter((r) => r.status === "succeeded" || r.status === "failed").length;
  const currency = rows.find((r) => r.currency)?.currency ?? "";
  return (
    <>
      <div className="sim-progress">
        <div
          className={`sim-bar ${sweep.status}`}
          role="progressbar"
          aria-valuenow={Math.round((100 * done) / Math.max(1, sweep.points_total))}
          aria-valuemin={0}
          aria-valuemax={100}
          data-testid="sweep-progress"
        >
          <div style={{ width: `${(100 * done) / Math.max(1, sweep.points_total)}%` }} />
        </div>
        <span className="small" data-testid="sweep-status" data-status={sweep.status} data-done={done}>
          {done} of {sweep.points_total} points · {sweep.status}
        </span>
        {!over(sweep) && (
          <button
            type="button"
            onClick={() =>
              void request<unknown>("POST", `/sweeps/${sweep.id}/cancel`).then(() =>
                request<SweepDetail>("GET", `/sweeps/${sweep.id}`).then(setSweep),
              )
            }
            data-testid="sweep-cancel"
          >
            Cancel sweep
          </button>
        )}
        <a href={`/api/v1/sweeps/${sweep.id}/points.csv`} download className="small" data-testid="sweep-csv">
          points (CSV)
        </a>
      </div>
      {isCollectiveSweep(sweep.points) && <BusBwSweep points={sweep.points} />}
      <Chart
        title="Cost against mean job completion per configuration, bars: the seeds' spread (◆ line: the Pareto frontier, nothing both cheaper and faster on average)"
        data={chart.data}
        series={COST_SERIES}
        xLabel={`cost ${currency}`}
        yLabel="job completion, ms"
        yRange={yRange}
        errorBars={bars}
        testId="sweep-chart"
      />
      <table className="plans-table" data-testid="sweep-configs">
        <thead>
          <tr>
            <th>Configuration</th>
            <th className="num">Seeds</th>
            <th className="num">Cost</th>
            <th className="num">Mean job completion</th>
            <th className="num">Spread (min – max)</th>
            <th>Pareto</th>
          </tr>
        </thead>
        <tbody>
          {configs.map((c) => (
            <tr key={c.key} data-testid="sweep-config" data-config={c.key} data-pareto={c.pareto}>
              <td>{c.label}</td>
              <td className="num">
                {c.seeds} of {c.points}
                {c.partialSeeds > 0 && <span className="warn"> · {c.partialSeeds} incomplete</span>}
              </td>
              <td className="num">
                {c.cost === null ? "—" : `${c.cost.toLocaleString("en", { maximumFractionDigits: 0 })} ${c.currency}`}
              </td>
              <td className="num" data-testid="sweep-config-mean">
                {formatSeconds(c.meanJobS)}
              </td>
              <td className="num">
                {c.minJobS === null ? "—" : `${formatSeconds(c.minJobS)} – ${formatSeconds(c.maxJobS)}`}
              </td>
              <td>{c.pareto ? "◆" : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="plans-table" data-testid="sweep-table">
        <thead>
          <tr>
            <th className="num">#</th>
            <th>Point</th>
            <th>State</th>
            <th className="num">Cost</th>
            <th className="num">Job completion</th>
            <th className="num">Mean FCT</th>
            <th>Pareto</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.index} data-testid={`sweep-point-${r.index}`} data-status={r.status} data-pareto={r.pareto}>
              <td className="num">{r.index}</td>
              <td>{r.label}</td>
              <td>
                {r.status === "succeeded" && r.outcome === "partial" ? (
                  <span className="warn">incomplete: {r.stalled.toLocaleString("en")} stalled</span>
                ) : (
                  r.status
                )}
                {r.error && <span className="field-error small"> {r.error}</span>}
              </td>
              <td className="num">
                {r.cost === null ? "—" : `${r.cost.toLocaleString("en", { maximumFractionDigits: 0 })} ${r.currency}`}
              </td>
              <td className="num">{r.outcome === "partial" ? "none" : formatSeconds(r.jobCompletionS)}</td>
              <td className="num">{formatSeconds(r.meanFctS)}</td>
              <td>{r.pareto ? "◆" : ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="sim-note">fluid estimate; tails, incast and latency bounds need packet mode.</p>
    </>
  );
}

export function SweepDialog({
  hallId,
  open,
  onClose,
}: {
  hallId: number;
  open: SweepDetail | null;
  onClose: () => void;
}) {
  const [sweep, setSweep] = useState<SweepDetail | null>(open);
  return (
    <Dialog
      className="sim-dialog"
      title={sweep ? `Sweep ${sweep.id}: ${sweep.name}` : "New sweep"}
      onClose={onClose}
      testId="sweep-dialog"
    >
      {sweep ? <SweepView initial={sweep} /> : <SweepStart hallId={hallId} onCreated={setSweep} />}
    </Dialog>
  );
}
