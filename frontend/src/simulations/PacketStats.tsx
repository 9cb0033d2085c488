/**
 * What a packet-mode run adds to the result: losses (drops, retransmissions, timeouts, ECN marks) and
 * the busiest queues, each one direction of a cable, with its largest and 99th-percentile backlog:
 * switch ports (held to the switch buffer) apart from server NIC queues (unbounded).
 */
import { DEFAULT_BUFFER_KB, formatKb, packetReport, type PacketResult, type QueueAt, type QueueRow } from "./packet";

/** Queues listed; the download (result JSON) has every one. */
const SHOWN = 8;

/** Which queues a table holds and the buffer they are held to, in the planner's words. */
const QUEUES: Record<QueueAt, { title: string; buffer: string }> = {
  switch: {
    title: "Busiest switch ports",
    buffer: `each holds at most the switch buffer per port set for the run (${DEFAULT_BUFFER_KB} KB unless the form set another) and drops beyond it`,
  },
  nic: {
    title: "Busiest server NIC queues",
    buffer:
      "a server's NIC queue is unbounded (as in htsim) and never drops: it holds what the server has yet to send, so it is not held to the switch buffer",
  },
};

function QueueTable({ at, queues, mtuBytes }: { at: QueueAt; queues: QueueRow[]; mtuBytes: number }) {
  if (queues.length === 0) return null;
  const q = QUEUES[at];
  return (
    <table className="plans-table small" data-testid={`packet-queues-${at}`}>
      <caption>
        {q.title} ({Math.min(SHOWN, queues.length)} of {queues.length.toLocaleString("en")} that held a packet waiting;
        MTU {mtuBytes.toLocaleString("en")} bytes): {q.buffer}.
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
        {queues.slice(0, SHOWN).map((x) => (
          <tr key={`${x.link}:${x.from}`} data-testid="packet-queue-row">
            <td>{x.link}</td>
            <td>
              {x.from} → {x.to}
            </td>
            <td>{formatKb(x.maxKb)}</td>
            <td>{formatKb(x.p99Kb)}</td>
            <td>{x.drops.toLocaleString("en")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

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
      <h3>
        Queues and losses ({r.transport === "newreno" ? "TCP NewReno" : r.transport.toUpperCase()})
        {result.model === "decomposed" && ", summed over the link simulations"}
      </h3>
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
        (["switch", "nic"] as const).map((at) => (
          <QueueTable key={at} at={at} queues={r.queues.filter((q) => q.at === at)} mtuBytes={r.mtuBytes} />
        ))
      )}
    </section>
  );
}
