import { describe, expect, it } from "vitest";
import {
  defaultsOf,
  failureSpec,
  paramsOf,
  parseSeeds,
  PresetError,
  racksOfNetwork,
  requestsFor,
  splitName,
  switchesOfNetwork,
  workloadLabel,
  type Preset,
  type PresetParam,
} from "./presets";

/** A parameter as the server's table gives it (only what a test changes is said). */
const param = (name: string, over: Partial<PresetParam>): PresetParam => ({
  name,
  label: name,
  kind: "integer",
  help: "",
  default: null,
  engine_field: null,
  unit: null,
  minimum: null,
  exclusive_minimum: false,
  maximum: null,
  choices: [],
  display_unit: null,
  display_scale: 1,
  step: 1,
  ...over,
});

const JOB = param("job_racks", { default: 2, unit: "logical racks", minimum: 1 });
const PLACEMENT = param("placement", {
  kind: "choice",
  default: "contiguous",
  choices: [
    { value: "contiguous", label: "side by side" },
    { value: "spread", label: "spread over the hall" },
  ],
});
const MB = param("bytes", { default: 15e6, unit: "bytes", minimum: 1, display_unit: "MB", display_scale: 1e6 });
const SHUFFLE: Preset = {
  name: "shuffle",
  label: "MapReduce shuffle",
  explain: "",
  params: [JOB, PLACEMENT, MB],
  rack_sets: [{ name: "job", label: "Racks of the job", replaces: ["job_racks", "placement"], otherwise: "" }],
};
const INCAST: Preset = {
  name: "incast",
  label: "Incast / query",
  explain: "",
  params: [
    param("fan_in", { default: 8, engine_field: "workload.query.fan_in", minimum: 1 }),
    param("bytes", { default: 64_000, minimum: 1, display_unit: "KB", display_scale: 1e3 }),
    param("queries", { default: null, minimum: 1 }),
    param("rate_per_s", { kind: "number", default: 1000, minimum: 0, exclusive_minimum: true }),
  ],
  rack_sets: [],
};
const POISSON: Preset = {
  name: "poisson",
  label: "Background traffic",
  explain: "",
  params: [
    param("load", { kind: "number", default: 0.4, minimum: 0, exclusive_minimum: true, maximum: 1 }),
    param("flows", { default: 2000, minimum: 1 }),
    param("job_racks", { default: 0, minimum: 0 }),
    param("inter_rack_only", { kind: "boolean", default: null }),
    param("cdf", { kind: "choice", default: "websearch", choices: [{ value: "websearch", label: "web search" }] }),
  ],
  rack_sets: [],
};
const shuffle = (mb: number, racks = 2) => paramsOf(SHUFFLE, { ...defaultsOf(SHUFFLE), job_racks: racks, bytes: mb });

describe("the form's values of a preset (the server's table)", () => {
  it("start at the table's defaults in display units; none known shows empty", () => {
    expect(defaultsOf(SHUFFLE)).toEqual({ job_racks: 2, placement: "contiguous", bytes: 15 });
    expect(defaultsOf(INCAST)).toEqual({ fan_in: 8, bytes: 64, queries: NaN, rate_per_s: 1000 });
    expect(defaultsOf(POISSON)).toMatchObject({ inter_rack_only: false, cdf: "websearch" });
  });
  it("become params in the table's units; an empty field with no default is left to the server", () => {
    expect(shuffle(0.2)).toEqual({ job_racks: 2, placement: "contiguous", bytes: 200_000 });
    expect(paramsOf(INCAST, defaultsOf(INCAST))).toEqual({ fan_in: 8, bytes: 64_000, rate_per_s: 1000 });
  });
  it("mirror the table's kind and bounds, naming the field", () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return [(e as PresetError).field, (e as PresetError).message];
      }
      return null;
    };
    expect(refusal(() => shuffle(15, 0))).toEqual(["job_racks", "must be at least 1"]);
    expect(refusal(() => shuffle(15, 1.5))).toEqual(["job_racks", "must be a whole number, got 1.5"]);
    expect(refusal(() => shuffle(NaN))).toEqual(["bytes", "must be a whole number"]);
    expect(refusal(() => paramsOf(POISSON, { ...defaultsOf(POISSON), load: 0 }))).toEqual([
      "load",
      "must be more than 0",
    ]);
    expect(refusal(() => paramsOf(POISSON, { ...defaultsOf(POISSON), load: 1.5 }))).toEqual([
      "load",
      "must be at most 1",
    ]);
    expect(refusal(() => shuffle(1))).toBeNull();
  });
});

describe("requests", () => {
  it("one request per seed: the preset and its params for the server to build, named workload · routing · seed", () => {
    const reqs = requestsFor(SHUFFLE, shuffle(1), "grin", [1, 3]);
    expect(reqs.map((r) => r.name)).toEqual([
      "shuffle 2 racks × 1 MB · GRIN multipath · seed 1",
      "shuffle 2 racks × 1 MB · GRIN multipath · seed 3",
    ]);
    expect(reqs[0]).toMatchObject({
      preset: "shuffle",
      params: { job_racks: 2, placement: "contiguous", bytes: 1_000_000 },
      racks: null,
      routing: { type: "grin" },
      mode: "flow",
    });
    expect(reqs[0]).not.toHaveProperty("workload");
    expect(reqs.map((r) => r.engine?.seed)).toEqual([1, 3]);
    expect(splitName(reqs[1]!.name)).toEqual({ workload: "shuffle 2 racks × 1 MB · GRIN multipath", seed: 3 });
  });
  it("a switch failure becomes the engine's failures entry, in seconds, and is part of the workload's name", () => {
    const [r] = requestsFor(SHUFFLE, shuffle(1, 1), "ecmp", [1], { node: "T1", atMs: 5, recoverMs: 20 });
    expect(r!.engine?.failures).toEqual([{ node: "T1", at_s: 0.005, recover_at_s: 0.02 }]);
    expect(r!.name).toBe("shuffle 1 rack × 1 MB · T1 down at 5 ms · ECMP · seed 1");
    expect(failureSpec({ node: "S", atMs: 0, recoverMs: null })).toEqual({ node: "S", at_s: 0 });
    expect(() => failureSpec({ node: "S", atMs: 10, recoverMs: 10 })).toThrow(/after the failure/);
    expect(requestsFor(SHUFFLE, shuffle(1, 1), "ecmp", [1])[0]!.engine?.failures).toEqual([]);
  });
  it("racks chosen by name go as `racks`, empty sets left out; the name counts them", () => {
    const [r] = requestsFor(SHUFFLE, shuffle(1, 1), "ecmp", [2], [], { job: ["L4", "L2"], senders: [] });
    expect(r!.racks).toEqual({ job: ["L4", "L2"] });
    expect(r!.name).toBe("shuffle 2 chosen racks × 1 MB · ECMP · seed 2");
  });
  it("several failures, switches and cables, each in the name", () => {
    const [r] = requestsFor(
      SHUFFLE,
      shuffle(1, 1),
      "ecmp",
      [1],
      [
        { node: "T1", atMs: 0, recoverMs: null },
        { link: "C42", atMs: 3, recoverMs: 7 },
      ],
    );
    expect(r!.engine?.failures).toEqual([
      { node: "T1", at_s: 0 },
      { link: "C42", at_s: 0.003, recover_at_s: 0.007 },
    ]);
    expect(r!.name).toBe("shuffle 1 rack × 1 MB · T1 down at 0 ms, cable C42 down at 3 ms · ECMP · seed 1");
  });
  it("names use the table's default where a field is left to it, and words for every preset's values", () => {
    expect(workloadLabel(INCAST, paramsOf(INCAST, defaultsOf(INCAST)))).toBe("incast 8→1 × 64 KB, default at 1,000/s");
    expect(workloadLabel(POISSON, { load: 0.3, flows: 500, job_racks: 0, cdf: "hadoop" })).toBe(
      "background hadoop at 30% × 500 flows",
    );
    expect(workloadLabel({ ...SHUFFLE, name: "all-to-all" }, { job_racks: 3, placement: "spread", bytes: 5e6 })).toBe(
      "all-to-all 3 racks spread × 5 MB",
    );
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

describe("GPU presets (issue 31)", () => {
  const COLLECTIVE: Preset = {
    name: "collective",
    label: "Collective",
    explain: "",
    params: [
      param("op", {
        kind: "choice",
        default: "all_reduce",
        choices: [
          { value: "all_reduce", label: "all-reduce" },
          { value: "all_to_all", label: "all-to-all" },
        ],
      }),
      param("algorithm", {
        kind: "choice",
        default: null,
        engine_field: "workload.collective.algorithm",
        choices: [
          { value: "ring", label: "ring" },
          { value: "direct", label: "direct" },
        ],
      }),
      param("bytes", { default: 2 ** 30, minimum: 1, display_unit: "MiB", display_scale: 2 ** 20 }),
      param("iterations", { default: 1, minimum: 1, engine_field: "workload.collective.iterations" }),
      param("gpus", { default: 0, minimum: 0 }),
      param("placement", {
        kind: "choice",
        default: "packed",
        choices: [
          { value: "packed", label: "packed into SUs" },
          { value: "spread", label: "spread over the SUs" },
        ],
      }),
    ],
    rack_sets: [],
  };

  it("a choice with no default is the engine's: none chosen on the form, left out of the request", () => {
    const shown = defaultsOf(COLLECTIVE);
    expect(shown).toEqual({
      op: "all_reduce",
      algorithm: "",
      bytes: 1024,
      iterations: 1,
      gpus: 0,
      placement: "packed",
    });
    expect(paramsOf(COLLECTIVE, shown)).toEqual({
      op: "all_reduce",
      bytes: 2 ** 30,
      iterations: 1,
      gpus: 0,
      placement: "packed",
    });
    expect(paramsOf(COLLECTIVE, { ...shown, op: "all_to_all", algorithm: "direct" }).algorithm).toBe("direct");
  });

  it("names the job after the op, algorithm, size in binary units and the GPUs", () => {
    const shown = defaultsOf(COLLECTIVE);
    expect(workloadLabel(COLLECTIVE, paramsOf(COLLECTIVE, shown))).toBe("all-reduce 1 GiB on every GPU");
    expect(
      workloadLabel(
        COLLECTIVE,
        paramsOf(COLLECTIVE, { ...shown, algorithm: "ring", bytes: 256, gpus: 32, placement: "spread", iterations: 5 }),
      ),
    ).toBe("all-reduce ring 256 MiB on 32 GPUs spread × 5");
  });

  it("a GPU server's interconnect is part of the server: not offered as a switch to fail", () => {
    const nodes = [
      { id: "H.SU01-01.L1.S01/gpu0", role: "server" },
      { id: "H.SU01-01.L1.S01/interconnect", role: "interconnect" },
      { id: "H.SU1.RAIL1", role: "tor" },
      { id: "H.SPINE01", role: "spine" },
    ];
    expect(switchesOfNetwork(nodes)).toEqual([
      { id: "H.SU1.RAIL1", role: "tor" },
      { id: "H.SPINE01", role: "spine" },
    ]);
  });
});

describe("the training step (issue 31)", () => {
  const TRAINING: Preset = {
    name: "training-step",
    label: "Training step",
    explain: "",
    params: [
      param("bytes", { default: 1e9, minimum: 1, display_unit: "MB", display_scale: 1e6 }),
      param("bucket_bytes", { default: 25e6, minimum: 1, display_unit: "MB", display_scale: 1e6 }),
      param("forward_s", { kind: "number", default: 0.05, minimum: 0 }),
      param("iterations", { default: 1, minimum: 1 }),
      param("algorithm", {
        kind: "choice",
        default: "ring",
        choices: [
          { value: "ring", label: "ring" },
          { value: "hierarchical", label: "hierarchical" },
        ],
      }),
      param("gpus", { default: 0, minimum: 0 }),
      param("placement", { kind: "choice", default: "packed", choices: [{ value: "packed", label: "packed" }] }),
      param("failed", { kind: "node", default: null }),
    ],
    rack_sets: [],
  };

  it("a failed switch is none by default (left out) or the node id chosen", () => {
    const shown = defaultsOf(TRAINING);
    expect(shown.failed).toBe("");
    const none = paramsOf(TRAINING, shown);
    expect(none).toEqual({
      bytes: 1e9,
      bucket_bytes: 25e6,
      forward_s: 0.05,
      iterations: 1,
      algorithm: "ring",
      gpus: 0,
      placement: "packed",
    });
    expect(paramsOf(TRAINING, { ...shown, failed: "H.SU1.RAIL3" }).failed).toBe("H.SU1.RAIL3");
  });

  it("names the job after its gradients, buckets, algorithm, GPUs and the failed switch", () => {
    const shown = defaultsOf(TRAINING);
    expect(workloadLabel(TRAINING, paramsOf(TRAINING, { ...shown, gpus: 32 }))).toBe(
      "training step 1,000 MB gradients in 25 MB buckets, ring on 32 GPUs packed",
    );
    expect(
      workloadLabel(
        TRAINING,
        paramsOf(TRAINING, { ...shown, iterations: 3, failed: "H.SPINE01", algorithm: "hierarchical" }),
      ),
    ).toBe("training step 1,000 MB gradients in 25 MB buckets, hierarchical on every GPU × 3, H.SPINE01 down");
  });
});
