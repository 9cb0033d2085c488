/**
 * What a decomposed run adds to the result: where the method is known to be weak for this scenario
 * (first, as a warning), how many links were simulated, clustered and idle, and per flow-size bucket
 * the slowdown with the error measured against full packet mode (or "not measured").
 */
import { accuracyText, bucketRows, clusterText, decompositionOf, linkCountsText } from "./decomposed";
import { type EngineResult } from "./results";

const n = (x: number) => x.toLocaleString("en");
const times = (x: number | null) => (x === null ? "—" : `${x.toFixed(2)}×`);

export function DecomposedStats({ result }: { result: EngineResult }) {
  const read = decompositionOf(result);
  if (!read) return null;
  if (!read.ok)
    return (
      <p className="field-error" role="alert" data-testid="decomposed-error">
        The result's decomposition could not be read ({read.error}): its link counts and accuracy are not shown.
      </p>
    );
  const d = read.value;
  const rows = bucketRows(result.flows.by_size, d);
  const counts = [
    { label: "Links simulated", value: d.links_simulated, id: "simulated" },
    { label: "Links clustered", value: d.links_clustered, id: "clustered" },
    { label: "Idle links (no flow)", value: d.links_idle, id: "idle" },
    { label: "Directed links", value: d.links_total, id: "total" },
  ];
  return (
    <section className="sim-decomposed" data-testid="decomposed-stats" aria-label="Decomposition">
      {d.warnings.length > 0 && (
        <div className="sim-why" role="alert" data-testid="decomposed-warnings">
          <p>
            <strong>⚠ Where decomposition is weak for this scenario</strong> (compare with a packet-mode run before
            relying on these tails):
          </p>
          <ul className="small">
            {d.warnings.map((w) => (
              <li key={w} data-testid="decomposed-warning">
                {w}
              </li>
            ))}
          </ul>
        </div>
      )}
      <h3>Link-level decomposition</h3>
      <dl className="sim-figures" aria-label={linkCountsText(d)}>
        {counts.map((c) => (
          <div key={c.id}>
            <dt>{c.label}</dt>
            <dd data-testid={`decomposed-${c.id}`}>{n(c.value)}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small" data-testid="decomposed-cluster">
        Cluster threshold {d.cluster_threshold}: {clusterText(d.cluster_threshold)}.
        {d.link_events !== undefined && ` ${n(d.link_events)} events over the link simulations.`}
      </p>
      {rows.length > 0 && (
        <table className="plans-table small" data-testid="decomposed-accuracy">
          <caption data-testid="decomposed-accuracy-caption">
            {d.accuracy
              ? `Slowdown by flow size, with the largest error measured against full packet mode on ${d.accuracy.measured_on.join(", ")} (${d.accuracy.source}).`
              : "Slowdown by flow size. Not yet measured against full packet mode (no calibration has been run): how far these tails are from packet mode's is unknown."}
          </caption>
          <thead>
            <tr>
              <th>Flow size</th>
              <th>Flows</th>
              <th>Mean slowdown</th>
              <th>p99 slowdown</th>
              <th>Accuracy</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.bucket} data-testid="decomposed-bucket" data-bucket={r.bucket}>
                <td>{r.bucket}</td>
                <td>{n(r.flows)}</td>
                <td>{times(r.meanSlowdown)}</td>
                <td>{times(r.p99Slowdown)}</td>
                <td data-testid="decomposed-bucket-accuracy">
                  {r.accuracy ? (
                    <>
                      <span data-testid="decomposed-accuracy-p99">
                        {accuracyText("p99", r.accuracy.p99_slowdown_error)}
                      </span>
                      ; <span>{accuracyText("mean", r.accuracy.mean_slowdown_error)}</span>
                    </>
                  ) : (
                    <span className="warn">not measured for this flow size</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
