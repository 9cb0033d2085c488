import { describe, expect, it } from "vitest";
import {
  DEFAULT_PARAMS,
  failureSpec,
  parseSeeds,
  pickRacks,
  PRESETS,
  PresetError,
  racksOfNetwork,
  requestsFor,
  switchesOfNetwork,
  splitName,
  workloadOf,
  type LogicalRack,
  type Params,
} from "./presets";

/** 5 logical racks L0..L4 of 3 servers each: L<r>S<s>. */
const RACKS: LogicalRack[] = Array.from({ length: 5 }, (_, r) => ({
  name: `L${r}`,
  servers: [0, 1, 2].map((s) => `L${r}S${s}`),
}));
const P = (p: Partial<Params>): Params => ({ ...DEFAULT_PARAMS, ...p });

describe("presets -> engine workloads", () => {
  it("shuffle over the first N racks: every server of them, bytes per pair in bytes", () => {
    expect(workloadOf("shuffle", P({ racks: 2, mb: 15 }), RACKS)).toEqual({
      type: "shuffle",
      servers: ["L0S0", "L0S1", "L0S2", "L1S0", "L1S1", "L1S2"],
      bytes_per_pair: 15_000_000,
    });
  });
  it("spread picks evenly spaced racks, first and last included", () => {
    expect(pickRacks(RACKS, 3, "spread").map((r) => r.name)).toEqual(["L0", "L2", "L4"]);
    expect(pickRacks(RACKS, 2, "spread").map((r) => r.name)).toEqual(["L0", "L4"]);
    expect(pickRacks(RACKS, 1, "spread").map((r) => r.name)).toEqual(["L0"]);
    // every spread pick is N distinct racks
    for (let n = 1; n <= 5; n++) expect(new Set(pickRacks(RACKS, n, "spread")).size).toBe(n);
  });
  it("refuses more racks than the plan has, naming the field", () => {
    expect(() => workloadOf("permutation", P({ racks: 6 }), RACKS)).toThrow(PresetError);
    try {
      workloadOf("shuffle", P({ racks: 0 }), RACKS);
    } catch (e) {
      expect((e as PresetError).field).toBe("racks");
    }
  });
  it("rack to rack: the first senders' servers to the next receivers' servers, one flow per pair", () => {
    expect(workloadOf("rack_to_rack", P({ senderRacks: 1, receiverRacks: 2, mb: 0.5 }), RACKS)).toEqual({
      type: "many_to_many",
      senders: ["L0S0", "L0S1", "L0S2"],
      receivers: ["L1S0", "L1S1", "L1S2", "L2S0", "L2S1", "L2S2"],
      flows_per_pair: 1,
      bytes: 500_000,
    });
    expect(() => workloadOf("rack_to_rack", P({ senderRacks: 3, receiverRacks: 3 }), RACKS)).toThrow(/exceed/);
  });
  it("background: a bundled CDF at a load, the whole hall by default, inter-rack when asked", () => {
    expect(workloadOf("background", P({ racks: 0, cdf: "hadoop", load: 0.3, flows: 500 }), RACKS)).toEqual({
      type: "poisson",
      cdf: "hadoop",
      load: 0.3,
      flows: 500,
    });
    expect(workloadOf("background", P({ racks: 1, interRackOnly: true }), RACKS)).toMatchObject({
      servers: ["L0S0", "L0S1", "L0S2"],
      inter_rack_only: true,
    });
    expect(() => workloadOf("background", P({ load: 1.5 }), RACKS)).toThrow(/at most 1/);
  });
  it("incast is repeated queries; memcache names the cache racks and keeps clients elsewhere", () => {
    expect(workloadOf("incast", P({ fanIn: 4, responseKb: 20, queries: 10, ratePerS: 500 }), RACKS)).toEqual({
      type: "query",
      fan_in: 4,
      response_bytes: 20_000,
      queries: 10,
      rate_per_s: 500,
    });
    expect(
      workloadOf(
        "memcache",
        P({ cacheRacks: 2, requestBytes: 100, responseKb: 100, ratePerS: 1e4, latencyBoundUs: 500 }),
        RACKS,
      ),
    ).toEqual({
      type: "memcache",
      server_racks: ["L0", "L1"],
      request_bytes: 100,
      response_bytes: 100_000,
      rate_per_s: 10_000,
      latency_bound_us: 500,
    });
    expect(() => workloadOf("memcache", P({ cacheRacks: 5 }), RACKS)).toThrow(/at most 4/);
  });
  it("every preset with its defaults makes a workload of one of the engine's kinds", () => {
    const kinds = new Set(["shuffle", "permutation", "all_to_all", "many_to_many", "poisson", "query", "memcache"]);
    for (const p of PRESETS) expect(kinds.has(workloadOf(p.kind, DEFAULT_PARAMS, RACKS).type as string)).toBe(true);
  });
});

describe("requests", () => {
  it("one request per seed, same workload, named workload · routing · seed", () => {
    const reqs = requestsFor("shuffle", P({ racks: 2, mb: 1 }), "grin", [1, 3], RACKS);
    expect(reqs.map((r) => r.name)).toEqual([
      "shuffle 2 racks × 1 MB · GRIN multipath · seed 1",
      "shuffle 2 racks × 1 MB · GRIN multipath · seed 3",
    ]);
    expect(reqs.map((r) => r.engine?.seed)).toEqual([1, 3]);
    expect(reqs[0]!.routing).toEqual({ type: "grin" });
    expect(reqs[0]!.workload).toEqual(reqs[1]!.workload);
    expect(splitName(reqs[1]!.name)).toEqual({ workload: "shuffle 2 racks × 1 MB · GRIN multipath", seed: 3 });
  });
  it("a switch failure becomes the engine's failures entry, in seconds, and is part of the workload's name", () => {
    const [r] = requestsFor("shuffle", P({ racks: 1, mb: 1 }), "ecmp", [1], RACKS, {
      node: "T1",
      atMs: 5,
      recoverMs: 20,
    });
    expect(r!.engine?.failures).toEqual([{ node: "T1", at_s: 0.005, recover_at_s: 0.02 }]);
    expect(r!.name).toBe("shuffle 1 rack × 1 MB · T1 down at 5 ms · ECMP · seed 1");
    expect(failureSpec({ node: "S", atMs: 0, recoverMs: null })).toEqual({ node: "S", at_s: 0 });
    expect(() => failureSpec({ node: "S", atMs: 10, recoverMs: 10 })).toThrow(/after the failure/);
    expect(requestsFor("shuffle", P({ racks: 1 }), "ecmp", [1], RACKS)[0]!.engine?.failures).toEqual([]);
  });
  it("seeds: lists and ranges, distinct, refusals name the field", () => {
    expect(parseSeeds("1, 2, 5..7, 2")).toEqual([1, 2, 5, 6, 7]);
    expect(() => parseSeeds("")).toThrow(/at least one/);
    expect(() => parseSeeds("x")).toThrow(/not a seed/);
    expect(() => parseSeeds("1..30")).toThrow(/at most 20/);
  });
  it("logical racks from the scenario's nodes, in order, servers only", () => {
    const nodes = [
      { id: "T1", role: "tor", logical_rack: "A" },
      { id: "s1", role: "server", logical_rack: "A" },
      { id: "s2", role: "server", logical_rack: "B" },
      { id: "s3", role: "server", logical_rack: "A" },
      { id: "SP", role: "spine" },
    ];
    expect(switchesOfNetwork(nodes)).toEqual([
      { id: "T1", role: "tor" },
      { id: "SP", role: "spine" },
    ]);
    expect(racksOfNetwork(nodes)).toEqual([
      { name: "A", servers: ["s1", "s3"] },
      { name: "B", servers: ["s2"] },
    ]);
  });
});

describe("racks chosen on the floor (or from the list) instead of counts", () => {
  it("chosen receivers; the senders are the first racks that are not receivers", () => {
    const w = workloadOf("rack_to_rack", P({ senderRacks: 1, mb: 1 }), RACKS, { receivers: ["L0", "L3"] });
    expect(w).toEqual({
      type: "many_to_many",
      senders: ["L1S0", "L1S1", "L1S2"],
      receivers: ["L0S0", "L0S1", "L0S2", "L3S0", "L3S1", "L3S2"],
      flows_per_pair: 1,
      bytes: 1_000_000,
    });
    const [r] = requestsFor("rack_to_rack", P({ senderRacks: 1, mb: 1 }), "ecmp", [2], RACKS, [], {
      receivers: ["L0", "L3"],
    });
    expect(r!.name).toBe("rack-to-rack 1→2 chosen × 1 MB · ECMP · seed 2");
  });
  it("chosen job and cache racks by name, in the order chosen; a name the plan lacks is refused", () => {
    expect(workloadOf("shuffle", P({ racks: 1, mb: 1 }), RACKS, { job: ["L4", "L2"] })).toMatchObject({
      servers: ["L4S0", "L4S1", "L4S2", "L2S0", "L2S1", "L2S2"],
    });
    expect(workloadOf("memcache", P({}), RACKS, { cache: ["L2"] })).toMatchObject({ server_racks: ["L2"] });
    expect(() => workloadOf("shuffle", P({}), RACKS, { job: ["L9"] })).toThrow(/rack L9 is not in this plan/);
    expect(() => workloadOf("rack_to_rack", P({}), RACKS, { senders: ["L1"], receivers: ["L1"] })).toThrow(
      /cannot both send and receive/,
    );
  });
  it("several failures, switches and cables, each in the name", () => {
    const [r] = requestsFor("shuffle", P({ racks: 1, mb: 1 }), "ecmp", [1], RACKS, [
      { node: "T1", atMs: 0, recoverMs: null },
      { link: "C42", atMs: 3, recoverMs: 7 },
    ]);
    expect(r!.engine?.failures).toEqual([
      { node: "T1", at_s: 0 },
      { link: "C42", at_s: 0.003, recover_at_s: 0.007 },
    ]);
    expect(r!.name).toBe("shuffle 1 rack × 1 MB · T1 down at 0 ms, cable C42 down at 3 ms · ECMP · seed 1");
  });
});
