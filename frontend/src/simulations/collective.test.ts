import { describe, expect, it } from "vitest";
import {
  busBwRows,
  busBwSeries,
  collectiveOf,
  exposedShare,
  formatBandwidth,
  formatBytes,
  isCollectiveSweep,
  log2SizeLabel,
  trainingOf,
  type SweepPointLike,
} from "./collective";
import { engineResult } from "./results.fixture";

const MiB = 2 ** 20;
const GiB = 2 ** 30;

describe("units", () => {
  it("message sizes in binary units, as nccl-tests' sizes are powers of two", () => {
    expect([1024, MiB, 256 * MiB, 4 * GiB, 1.5 * MiB, 100].map(formatBytes)).toEqual([
      "1 KiB",
      "1 MiB",
      "256 MiB",
      "4 GiB",
      "1.5 MiB",
      "100 B",
    ]);
  });

  it("bandwidth in the engine's Gb/s with nccl-tests' GB/s (an eighth) beside it", () => {
    expect(formatBandwidth(400)).toBe("400 Gb/s (50 GB/s)");
    expect(formatBandwidth(372.5)).toBe("372.5 Gb/s (46.6 GB/s)");
    expect(formatBandwidth(8)).toBe("8 Gb/s (1 GB/s)");
    expect(formatBandwidth(null)).toBe("—");
  });

  it("the axis names the sizes at the doublings", () => {
    expect([20, 25, 32, 20.5].map(log2SizeLabel)).toEqual(["1 MiB", "32 MiB", "4 GiB", ""]);
  });
});

describe("a run's collective and training objects", () => {
  it("a run without them has neither", () => {
    const r = engineResult();
    expect([collectiveOf(r), trainingOf(r)]).toEqual([null, null]);
  });

  it("reads the training step as the engine reports it; its exposed share is exposed / step", () => {
    // forward 0.1 s + backward 0.3 s = 0.4 s compute; a 0.5 s step exposes 0.1 s of communication (20 %).
    const training = {
      iterations: 2,
      buckets: 40,
      step_time_s: 0.5,
      step_times_s: [0.52, 0.48],
      compute_s: 0.4,
      exposed_communication_s: 0.1,
      algbw_gbps: 150,
      busbw_gbps: 262.5,
    };
    const t = trainingOf(engineResult({ training }));
    expect(t).toEqual(training);
    expect(exposedShare(t!)).toBeCloseTo(0.2, 12);
    // a step that did not finish has no time: no share either
    expect(exposedShare({ ...training, step_time_s: null, exposed_communication_s: null })).toBeNull();
  });
});

const point = (index: number, bytes: number, busbw: number | null, status = "succeeded"): SweepPointLike => ({
  index,
  status,
  params: { bytes, seed: 1 },
  figures:
    busbw === null
      ? null
      : { collective: { bytes, time_s: 0.001, algbw_gbps: busbw / 1.75, busbw_gbps: busbw }, outcome: "complete" },
  error: null,
});

describe("a message-size sweep: nccl-tests' table and chart", () => {
  const points = [point(2, 4 * GiB, 392), point(0, MiB, 40), point(1, 2 * MiB, null, "running")];

  it("is a collective sweep once a point carries collective figures", () => {
    expect(isCollectiveSweep(points)).toBe(true);
    expect(isCollectiveSweep([point(1, 2 * MiB, null, "running")])).toBe(false);
  });

  it("one row per point, smallest message first; a running point has no figures yet", () => {
    expect(busBwRows(points).map((r) => [r.index, r.bytes, r.status, r.busbwGbps])).toEqual([
      [0, MiB, "succeeded", 40],
      [1, 2 * MiB, "running", null],
      [2, 4 * GiB, "succeeded", 392],
    ]);
  });

  it("x is log2 of the size (20 for 1 MiB, 32 for 4 GiB); y the bus and algorithm bandwidths, seeds averaged", () => {
    const again = { ...point(3, MiB, 44), params: { bytes: MiB, seed: 2 } };
    const [x, bus, alg] = busBwSeries(busBwRows([...points, again]));
    expect(x).toEqual([20, 21, 32]);
    expect(bus).toEqual([42, null, 392]);
    expect(alg).toEqual([(40 / 1.75 + 44 / 1.75) / 2, null, 392 / 1.75]);
  });
});
