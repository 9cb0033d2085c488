/**
 * What a packet-mode run adds to the result: losses (drops, retransmissions, timeouts, ECN marks) and
 * the busiest queues, each one direction of a cable, with its largest and 99th-percentile backlog.
 */
import { formatKb, packetReport, type PacketResult } from "./packet";

/** Queues listed; the download (result JSON) has every one. */
const SHOWN = 8;

export function PacketStats({ result }: { result: PacketResult }) {
  const r = packetReport(result);
  if (!r) return null;
  const figures = [
    { label: "Drops", value: r.drops, id: "drops" },
    { label: "Retransmissions", value: r.retransmissions, id: "retransmissions" },
    { label: "Timeouts", value: r.timeouts, id: "timeouts" },
    { label: "ECN marks", value: r.ecnMarks, id: "ecn" },
  ];
  return (
    <section className="sim-packet" data-testid="packet-stats" aria-label="Packet statistics">
      <h3>Queues and losses ({r.transport === "newreno" ? "TCP NewReno" : r.transport.toUpperCase()})</h3>
      <dl className="sim-figures">
        {figures.map((f) => (
          <div key={f.id}>
            <dt>{f.label}</dt>
            <dd data-testid={`packet-${f.id}`}>{f.value.toLocaleString("en")}</dd>
          </div>
        ))}
        {r.packetsSent !== null && (
          <div>
            <dt>Packets sent</dt>
            <dd>{r.packetsSent.toLocaleString("en")}</dd>
          </div>
        )}
      </dl>
      {r.queues.length === 0 ? (
        <p className="muted small">No packet ever waited in a queue.</p>
      ) : (
        <table className="plans-table small" data-testid="packet-queues">
          <caption>
            Busiest queues ({Math.min(SHOWN, r.queues.length)} of {r.queues.length.toLocaleString("en")} that held a
            packet waiting; MTU {r.mtuBytes.toLocaleString("en")} bytes)
          </caption>
          <thead>
            <tr>
              <th>Cable</th>
              <th>From → to</th>
              <th>Max</th>
              <th>p99</th>
              <th>Drops</th>
            </tr>
          </thead>
          <tbody>
            {r.queues.slice(0, SHOWN).map((q) => (
              <tr key={`${q.link}:${q.from}`} data-testid="packet-queue-row">
                <td>{q.link}</td>
                <td>
                  {q.from} → {q.to}
                </td>
                <td>{formatKb(q.maxKb)}</td>
                <td>{formatKb(q.p99Kb)}</td>
                <td>{q.drops.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
