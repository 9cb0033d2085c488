import { describe, expect, it } from "vitest";
import type { RenderBuffers } from "../state/wiring";
import { longestCables, warningTarget } from "./summary";

const buffers = (raw: number[]): RenderBuffers => ({
  media: ["dac"],
  cable_ids: raw.map((_, i) => `C${i}`),
  labels: raw.map((_, i) => `L${i}`),
  medium: raw.map(() => 0),
  raw_length_mm: raw,
  offsets: raw.map(() => 0),
  points: [],
});

describe("summary", () => {
  it("lists the longest cables first, at most n", () => {
    expect(longestCables(buffers([3000, 9000, 1000, 5000]))).toEqual([1, 3, 0, 2]);
    expect(longestCables(buffers([3000, 9000, 1000, 5000]), 2)).toEqual([1, 3]);
  });

  it("leads a warning naming a rack or device to the first cable with that name", () => {
    const labels = ["H1.R01.K01.U1:p1 / H1.R01.K01.U42:e1", "H1.R02.K03.U5:p2 / H1.R02.K03.U42:e3"];
    expect(warningTarget(labels, "uplink of H1.R02.K03 is short")).toBe(1);
    expect(warningTarget(labels, "H1.R09.K01 and H1.R01.K01 are far apart")).toBe(0);
    expect(warningTarget(labels, "aisle too narrow")).toBeNull();
  });
});
