/**
 * Packet mode in the planner's words: the mode and transport a request carries, the run-time estimate
 * in words, and what a packet-mode result adds (drops, retransmissions, timeouts, the busiest queues,
 * queue occupancy over time for the heat map). Pure: tested in packet.test.ts.
 */
import type { components } from "../api/schema";
import type { LinkSeries } from "../state/heatMap";
import type { PlanSimulationCreate } from "./presets";
import type { EngineResult } from "./results";

export type SimulationEstimate = components["schemas"]["SimulationEstimate"];
export type ModeEstimate = components["schemas"]["ModeEstimateRead"];
export type Transport = "newreno" | "dctcp" | "mptcp";

export const TRANSPORTS: readonly { value: Transport; label: string; explain: string }[] = [
  { value: "newreno", label: "TCP NewReno", explain: "Loss-based TCP: fills buffers until they drop." },
  { value: "dctcp", label: "DCTCP", explain: "Backs off on ECN marks before queues fill (set the marking threshold)." },
  {
    value: "mptcp",
    label: "MPTCP",
    explain: "One flow over every path the routing gives it (GRIN, multi-homed servers).",
  },
];

/** The engine's modes: fluid rates, every packet, or every busy link at packet level on its own. */
export type EngineMode = "flow" | "packet" | "decomposed";

/**
 * The mode part of the form. Sizes in KB (1 KB = 1,000 bytes); null: the engine's default. The packet
 * settings apply to decomposed mode's link simulations too.
 */
export interface ModeSettings {
  mode: EngineMode;
  transport: Transport;
  bufferKb: number | null;
  ecnKb: number | null;
  /** Decomposed mode: links this similar (0..1) share one simulation; null: the engine's default. */
  clusterThreshold: number | null;
}

export const FLOW_MODE: ModeSettings = {
  mode: "flow",
  transport: "newreno",
  bufferKb: null,
  ecnKb: null,
  clusterThreshold: null,
};

/** The engine's packet defaults the form shows as placeholders (sim-engine `PacketSpec`). */
export const DEFAULT_BUFFER_KB = 150;
export const DEFAULT_ECN_KB = 30;

const bytes = (kb: number | null) => (kb === null || !Number.isFinite(kb) ? undefined : Math.round(kb * 1000));

/**
 * A request with the form's mode: flow mode sends no packet settings; the ECN threshold only with
 * DCTCP; decomposed mode the packet settings of its link simulations and, when given, its cluster
 * threshold (the engine judges its range and names the field).
 */
export function withMode(req: PlanSimulationCreate, m: ModeSettings): PlanSimulationCreate {
  // only a decomposed request carries the decomposed settings
  const rest = { ...req };
  delete rest.decomposed;
  if (m.mode === "flow") return { ...rest, mode: "flow", packet: null };
  const buffer = bytes(m.bufferKb);
  const ecn = m.transport === "dctcp" ? bytes(m.ecnKb) : undefined;
  const packet = {
    transport: m.transport,
    ...(buffer !== undefined ? { buffer_bytes: buffer } : {}),
    ...(ecn !== undefined ? { ecn_threshold_bytes: ecn } : {}),
  };
  if (m.mode === "packet") return { ...rest, mode: "packet", packet };
  const threshold = m.clusterThreshold !== null && Number.isFinite(m.clusterThreshold) ? m.clusterThreshold : null;
  return {
    ...rest,
    mode: "decomposed",
    packet,
    ...(threshold !== null ? { decomposed: { cluster_threshold: threshold } } : {}),
  };
}

/** A wall time in words: "0.3 s", "42 s", "4 min", "1.5 h". */
export function formatDuration(s: number): string {
  if (!Number.isFinite(s)) return "—";
  if (s < 10) return `${s.toLocaleString("en", { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s`;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toLocaleString("en", { maximumFractionDigits: 1 })} h`;
}

/** "about 4 min, 120 MB". */
export function estimateText(e: Pick<ModeEstimate, "wall_s" | "memory_mb">): string {
  return `about ${formatDuration(e.wall_s)}, ${Math.ceil(e.memory_mb).toLocaleString("en")} MB`;
}

/**
 * Where a queue is: a switch's output port (drop-tail, at most the run's switch buffer per port) or a
 * server's NIC (unbounded, as in htsim: it never drops, and holds what the server has yet to send).
 */
export type QueueAt = "switch" | "nic";

/** One busy queue (one direction of a cable), sizes in KB. */
export interface QueueRow {
  at: QueueAt;
  link: string;
  from: string;
  to: string;
  maxKb: number;
  p99Kb: number;
  drops: number;
}

export interface PacketReport {
  transport: string;
  mtuBytes: number;
  packetsSent: number | null;
  drops: number;
  retransmissions: number;
  timeouts: number;
  ecnMarks: number;
  /** Every queue that held a packet waiting, busiest first (largest max, then p99, then link). */
  queues: QueueRow[];
}

/** A result as packet mode writes it: `packet`, and per link its queue's largest backlog per bucket (the engine's result). */
export type PacketResult = EngineResult;

/** The packet statistics of a result (null for a flow-mode result). */
export function packetReport(result: PacketResult | null | undefined): PacketReport | null {
  const p = result?.packet;
  if (!p) return null;
  // Every server of the network is in the result's server list: a queue sent from one is its NIC's.
  const servers = new Set((result.servers ?? []).flatMap((x) => (x.id ? [x.id] : [])));
  const queues = p.queues
    .map((q) => ({
      at: (servers.has(q.from) ? "nic" : "switch") as QueueAt,
      link: q.link,
      from: q.from,
      to: q.to,
      maxKb: q.max_bytes / 1000,
      p99Kb: q.p99_bytes / 1000,
      drops: q.drops,
    }))
    .sort(
      (a, b) => b.maxKb - a.maxKb || b.p99Kb - a.p99Kb || a.link.localeCompare(b.link) || a.from.localeCompare(b.from),
    );
  return {
    transport: p.transport,
    mtuBytes: p.mtu_bytes,
    packetsSent: p.packets_sent ?? null,
    drops: p.drops,
    retransmissions: p.retransmissions,
    timeouts: p.timeouts,
    ecnMarks: p.ecn_marks,
    queues,
  };
}

/** A size in KB as shown: "36 KB", "1.5 KB". */
export function formatKb(kb: number): string {
  return `${kb.toLocaleString("en", { maximumFractionDigits: kb < 10 ? 1 : 0 })} KB`;
}

/** Whether a result has queue occupancy over time (packet mode with link series). */
export function hasQueueSeries(result: PacketResult | null | undefined): boolean {
  return Boolean(result?.links?.links.some((l) => (l.queue_max_bytes?.length ?? 0) > 0));
}

/**
 * Queue occupancy as the heat map reads utilisation: each direction's largest backlog per time bucket
 * as a share of the run's largest backlog anywhere (`peakBytes`), so the hottest queue is 100 %.
 */
export function queueOccupancy(result: PacketResult): {
  links: { interval_s: number; links: LinkSeries[] };
  peakBytes: number;
} {
  const src = result.links?.links ?? [];
  let peak = 0;
  for (const l of src) for (const q of l.queue_max_bytes ?? []) if (q > peak) peak = q;
  const links = src.map((l) => ({
    id: l.id,
    from: l.from,
    to: l.to,
    util: peak > 0 ? (l.queue_max_bytes ?? []).map((q) => q / peak) : [],
  }));
  return { links: { interval_s: result.links?.interval_s ?? 0, links }, peakBytes: peak };
}
