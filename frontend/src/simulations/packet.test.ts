import { describe, expect, it } from "vitest";
import {
  estimateText,
  FLOW_MODE,
  formatDuration,
  formatKb,
  hasQueueSeries,
  packetReport,
  queueOccupancy,
  withMode,
  type PacketResult,
} from "./packet";
import type { PlanSimulationCreate } from "./presets";
import { engineResult, linkReport, serverReport } from "./results.fixture";

const req: PlanSimulationCreate = {
  name: "shuffle 2 racks × 15 MB · ECMP · seed 1",
  routing: { type: "ecmp" },
  workload: { type: "shuffle", bytes_per_pair: 15_000_000 },
  engine: { seed: 1, stop_time_s: null, failures: [] },
  mode: "flow",
};

describe("withMode", () => {
  it("sends no packet settings in flow mode", () => {
    expect(withMode({ ...req, mode: "packet", packet: { transport: "dctcp" } }, FLOW_MODE)).toEqual({
      ...req,
      mode: "flow",
      packet: null,
    });
  });

  it("sends the transport and only the sizes given, in bytes", () => {
    const m = { mode: "packet", transport: "newreno", bufferKb: null, ecnKb: 30, clusterThreshold: 0.2 } as const;
    // the ECN threshold is DCTCP's: NewReno ignores marks, so it is not sent
    expect(withMode(req, m)).toEqual({ ...req, mode: "packet", packet: { transport: "newreno" } });
    expect(withMode(req, { ...m, transport: "dctcp", bufferKb: 97.5 })).toEqual({
      ...req,
      mode: "packet",
      packet: { transport: "dctcp", buffer_bytes: 97_500, ecn_threshold_bytes: 30_000 },
    });
    // a cleared number field (NaN) is the engine's default, as null is
    expect(withMode(req, { ...m, transport: "mptcp", bufferKb: NaN }).packet).toEqual({ transport: "mptcp" });
  });
});

describe("withMode in decomposed mode", () => {
  const m = { mode: "decomposed", transport: "dctcp", bufferKb: 97.5, ecnKb: 30, clusterThreshold: 0.05 } as const;

  it("sends the packet settings its link simulations use and the cluster threshold", () => {
    expect(withMode(req, m)).toEqual({
      ...req,
      mode: "decomposed",
      packet: { transport: "dctcp", buffer_bytes: 97_500, ecn_threshold_bytes: 30_000 },
      decomposed: { cluster_threshold: 0.05 },
    });
    // 0 is a threshold (no clustering), not the default
    expect(withMode(req, { ...m, clusterThreshold: 0 }).decomposed).toEqual({ cluster_threshold: 0 });
  });

  it("leaves the threshold to the engine when the field is empty or cleared", () => {
    for (const clusterThreshold of [null, NaN]) {
      const sent = withMode(req, { ...m, transport: "newreno", bufferKb: null, clusterThreshold });
      expect(sent).toEqual({ ...req, mode: "decomposed", packet: { transport: "newreno" } });
      expect("decomposed" in sent).toBe(false);
    }
  });

  it("drops the decomposed settings when the mode changes back", () => {
    const decomposed = withMode(req, m);
    expect("decomposed" in withMode(decomposed, { ...m, mode: "packet" })).toBe(false);
    expect(withMode(decomposed, FLOW_MODE)).toEqual({ ...req, mode: "flow", packet: null });
  });
});

describe("estimate in words", () => {
  it.each([
    [0.05, "0.1 s"],
    [3.04, "3.0 s"],
    [42.4, "42 s"],
    [119.4, "119 s"],
    [240, "4 min"],
    [7199, "120 min"],
    [5400 * 2, "3 h"],
    [Infinity, "—"],
  ])("%s s reads %s", (s, text) => {
    expect(formatDuration(s)).toBe(text);
  });

  it("rounds memory up", () => {
    expect(estimateText({ wall_s: 240, memory_mb: 6.2 })).toBe("about 4 min, 7 MB");
  });
});

const result = (extra: Partial<PacketResult>): PacketResult =>
  engineResult({
    simulated_time_s: 0.01,
    flows: {
      total: 1,
      finished: 1,
      unfinished: 0,
      stalled: 0,
      not_started: 0,
      rerouted: 0,
      fct_s: { count: 1 },
      slowdown: { count: 1 },
      by_size: [],
    },
    ...extra,
  });

describe("packetReport", () => {
  it("is null for a flow-mode result", () => {
    expect(packetReport(result({ model: "fluid" }))).toBeNull();
    expect(packetReport(null)).toBeNull();
  });

  it("puts the busiest queues first, in KB", () => {
    const r = packetReport(
      result({
        model: "packet",
        packet: {
          transport: "dctcp",
          mtu_bytes: 1500,
          packets_sent: 1000,
          drops: 3,
          retransmissions: 5,
          timeouts: 1,
          ecn_marks: 40,
          queues: [
            { link: "C1", from: "T1", to: "S1", max_bytes: 36_000, p99_bytes: 3_000, drops: 0 },
            { link: "C2", from: "T1", to: "S2", max_bytes: 150_000, p99_bytes: 120_000, drops: 3 },
            { link: "C0", from: "S1", to: "T1", max_bytes: 36_000, p99_bytes: 3_000, drops: 0 },
            { link: "C3", from: "S3", to: "T1", max_bytes: 36_000, p99_bytes: 4_500, drops: 0 },
          ],
        },
      }),
    );
    expect(r).not.toBeNull();
    expect(r?.queues.map((q) => [q.link, q.maxKb, q.p99Kb])).toEqual([
      ["C2", 150, 120],
      ["C3", 36, 4.5],
      ["C0", 36, 3],
      ["C1", 36, 3],
    ]);
    expect([r?.drops, r?.retransmissions, r?.timeouts, r?.ecnMarks, r?.packetsSent]).toEqual([3, 5, 1, 40, 1000]);
  });

  it("tells server NIC queues from switch ports by the result's servers", () => {
    const r = packetReport(
      result({
        model: "packet",
        servers: [serverReport("S1", 1), serverReport("S3", 1)],
        packet: {
          transport: "newreno",
          mtu_bytes: 1500,
          packets_sent: 0,
          drops: 0,
          retransmissions: 0,
          timeouts: 0,
          ecn_marks: 0,
          queues: [
            { link: "C0", from: "S1", to: "T1", max_bytes: 7_500_000, p99_bytes: 7_000_000, drops: 0 },
            { link: "C1", from: "T1", to: "S3", max_bytes: 150_000, p99_bytes: 150_000, drops: 2 },
            { link: "C2", from: "T1", to: "SP1", max_bytes: 3_000, p99_bytes: 1_500, drops: 0 },
          ],
        },
      }),
    );
    expect(r?.queues.map((q) => [q.link, q.at])).toEqual([
      ["C0", "nic"],
      ["C1", "switch"],
      ["C2", "switch"],
    ]);
  });

  it("formats sizes", () => {
    expect([formatKb(1.5), formatKb(36), formatKb(150.4), formatKb(1234.5)]).toEqual([
      "1.5 KB",
      "36 KB",
      "150 KB",
      "1,235 KB",
    ]);
  });
});

const link = (id: string, from: string, to: string) => linkReport(id, from, to);

describe("queueOccupancy", () => {
  const links = {
    interval_s: 0.001,
    links: [
      { ...link("C1", "A", "B"), util: [1, 1], queue_max_bytes: [0, 30_000, 15_000] },
      { ...link("C1", "B", "A"), util: [0.1], queue_max_bytes: [60_000] },
      { ...link("C2", "B", "C"), util: [0.5], queue_max_bytes: null },
    ],
  };

  it("is a share of the run's largest backlog, per direction and bucket", () => {
    const q = queueOccupancy(result({ links }));
    expect(q.peakBytes).toBe(60_000);
    expect(q.links.interval_s).toBe(0.001);
    expect(q.links.links.map((l) => [l.id, l.from, l.util])).toEqual([
      ["C1", "A", [0, 0.5, 0.25]],
      ["C1", "B", [1]],
      ["C2", "B", []],
    ]);
  });

  it("is there only with queue series", () => {
    expect(hasQueueSeries(result({ links }))).toBe(true);
    expect(hasQueueSeries(result({ links: { interval_s: 1, links: [{ ...link("C", "a", "b"), util: [1] }] } }))).toBe(
      false,
    );
    expect(hasQueueSeries(null)).toBe(false);
  });
});
