/**
 * A GPU cluster run's own figures (issue 31): the collective's time and nccl-tests' algbw / busbw, and a
 * training step's mean step time, the compute in it, the communication it could not hide and the
 * bucket all-reduces' bandwidths. Nothing shown when the run was neither.
 */
import { collectiveOf, exposedShare, formatBandwidth, formatBytes, trainingOf } from "./collective";
import { formatSeconds, type EngineResult } from "./results";

const OPS: Record<string, string> = {
  all_reduce: "All-reduce",
  all_gather: "All-gather",
  reduce_scatter: "Reduce-scatter",
  all_to_all: "All-to-all",
};

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

export function CollectiveStats({ result }: { result: EngineResult }) {
  const c = collectiveOf(result);
  const t = trainingOf(result);
  if (!c && !t) return null;
  const share = t ? exposedShare(t) : null;
  return (
    <section className="sim-collective" aria-label="GPU collectives">
      {t && (
        <div data-testid="sim-training">
          <h3>Training step</h3>
          <dl className="sim-figures">
            <Figure label="Step time (mean)" value={formatSeconds(t.step_time_s)} testId="sim-training-step" />
            <Figure
              label="Compute (forward + backward)"
              value={formatSeconds(t.compute_s)}
              testId="sim-training-compute"
            />
            <Figure
              label="Exposed communication"
              value={`${formatSeconds(t.exposed_communication_s)}${share === null ? "" : ` (${(share * 100).toFixed(1)}% of the step)`}`}
              testId="sim-training-exposed"
            />
            <Figure
              label="Bus bandwidth (bucket all-reduces)"
              value={formatBandwidth(t.busbw_gbps)}
              testId="sim-training-busbw"
            />
            <Figure label="Algorithm bandwidth" value={formatBandwidth(t.algbw_gbps)} testId="sim-training-algbw" />
            <Figure
              label="Iterations × buckets"
              value={`${t.iterations.toLocaleString("en")} × ${t.buckets.toLocaleString("en")}`}
              testId="sim-training-buckets"
            />
          </dl>
          {t.step_times_s.length > 1 && (
            <p className="small muted" data-testid="sim-training-steps">
              Per iteration: {t.step_times_s.map((s) => formatSeconds(s)).join(", ")}
            </p>
          )}
        </div>
      )}
      {c && (
        <div data-testid="sim-collective">
          <h3>
            {OPS[c.op] ?? c.op} · {c.algorithm}
            {c.model ? ` · ${c.model}` : ""} · {c.ranks.toLocaleString("en")} ranks · {formatBytes(c.bytes)}
          </h3>
          <dl className="sim-figures">
            <Figure label="Time per iteration" value={formatSeconds(c.time_s)} testId="sim-collective-time" />
            <Figure label="Bus bandwidth (busbw)" value={formatBandwidth(c.busbw_gbps)} testId="sim-collective-busbw" />
            <Figure
              label="Algorithm bandwidth (algbw)"
              value={formatBandwidth(c.algbw_gbps)}
              testId="sim-collective-algbw"
            />
            <Figure label="Iterations" value={c.iterations.toLocaleString("en")} testId="sim-collective-iterations" />
          </dl>
          <p className="small muted">
            As nccl-tests defines them: algbw = size / time; busbw = algbw × {c.bus_factor.toFixed(3)} (the op&apos;s
            factor for {c.ranks} ranks), comparable with the links&apos; speed.
          </p>
        </div>
      )}
    </section>
  );
}
