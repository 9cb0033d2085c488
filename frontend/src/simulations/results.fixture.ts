/**
 * Engine results for tests: the generated type's required parts at neutral values, so a test says only
 * what it reads (the type itself is the engine's schema: `make result-types`).
 */
import type { LinkUtilReport, ServerReport } from "../api/engineResult";
import type { EngineResult } from "./results";

export function engineResult(parts: Partial<EngineResult> = {}): EngineResult {
  return {
    schema_version: 1,
    model: "fluid",
    note: "",
    routing: "ecmp",
    seed: 1,
    workload: "shuffle",
    events_processed: 0,
    simulated_time_s: 0,
    flows: {
      total: 0,
      finished: 0,
      unfinished: 0,
      stalled: 0,
      not_started: 0,
      rerouted: 0,
      fct_s: { count: 0 },
      slowdown: { count: 0 },
      by_size: [],
    },
    links: { interval_s: 0, links: [] },
    servers: [],
    routing_stats: { controller_ticks: 0, detours: [], rebinds: 0, reroutes: 0 },
    solver: { rate_changes: 0, rounds: 0, subflows_resolved: 0 },
    ...parts,
  };
}

/** One direction of a link; utilisation and queue series as given. */
export const linkReport = (
  id: string,
  from: string,
  to: string,
  parts: Partial<LinkUtilReport> = {},
): LinkUtilReport => ({
  id,
  from,
  to,
  bytes: 0,
  gbps: 100,
  mean_util: 0.5,
  peak_util: 1,
  ...parts,
});

/** A server's throughput. */
export const serverReport = (id: string, tx_gbps: number, rx_gbps = tx_gbps): ServerReport => ({
  id,
  tx_gbps,
  rx_gbps,
  bytes_sent: 0,
  bytes_received: 0,
});
