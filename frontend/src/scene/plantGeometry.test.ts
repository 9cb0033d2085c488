import * as THREE from "three";
import { describe, expect, it } from "vitest";
import { toCableSet, type RenderBuffers } from "../state/wiring";
import {
  carrierIndex,
  devicePoint,
  findRack,
  panelBox,
  routeOf,
  trunkPath,
  trunkRadius,
  tubeGeometry,
} from "./plantGeometry";
import type { RackPlacement } from "./selectors";

/** A rack at (x, z), 600 wide along world x, 1200 deep, port face towards +z; only what the plant reads. */
const rack = (x: number, z: number): RackPlacement =>
  ({ id: "k", rowId: "r", x, z, sx: 0.6, sz: 1.2, h: 2, fx: 0, fz: 1 }) as unknown as RackPlacement;

/** Render buffers of cables with these labels, cable i through the given points (API mm, z up). */
function buffers(cables: { label: string; points: [number, number, number][] }[]): RenderBuffers {
  const offsets: number[] = [];
  const points: number[] = [];
  for (const c of cables) {
    offsets.push(points.length / 3);
    for (const p of c.points) points.push(...p);
  }
  return {
    cable_ids: cables.map((_, i) => `C${i}`),
    labels: cables.map((c) => c.label),
    media: ["optical"],
    medium: cables.map(() => 0),
    offsets,
    points,
    raw_length_mm: cables.map(() => 1000),
  };
}

const v = (x: number, y: number, z: number) => new THREE.Vector3(x, y, z);
const xyz = (pts: THREE.Vector3[]) => pts.map((p) => [p.x, p.y, p.z].map((n) => Math.round(n * 1e6) / 1e6));

describe("panels", () => {
  it("a panel is a thin box at its U, proud of its rack's port face, as wide as 90 % of the rack", () => {
    const b = panelBox(rack(1, 2), 40);
    // Port face towards +z: the rack's depth (1.2 m) is along z, so the face is 0.6 m + 0.02 m from its centre.
    expect(b.x).toBe(1);
    expect(b.z).toBeCloseTo(2.62, 9);
    // U40's middle: 39.5 U of 44.45 mm.
    expect(b.y).toBeCloseTo(1.755775, 9);
    expect([b.w, b.h, b.d, b.yaw]).toEqual([0.54, (44.45 * 0.9) / 1000, 0.03, 0]);
  });

  it("finds a rack by its plan name, or by its own name when the plan's hall prefix differs", () => {
    const k3 = rack(3, 0);
    const index = new Map([
      ["H1.R01.K03", k3],
      ["K03", k3],
    ]);
    expect(findRack(index, "H1.R01.K03")).toBe(k3);
    expect(findRack(index, "H9.R01.K03")).toBe(k3);
    expect(findRack(index, "H1.R01.K04")).toBeNull();
    // A device's point is on the same face, at the middle of its lowest U.
    expect(xyz([devicePoint(index, "H1.R01.K03.U41:e49")!])).toEqual([[3, 1.800225, 0.62]]);
    expect(devicePoint(index, "H1.R09.K01.U41")).toBeNull();
  });
});

describe("trunks", () => {
  const set = toCableSet(
    1,
    buffers([
      {
        label: "H1.R01.K01.U41:e49 / H1.N01.N01-01.U20:e1",
        points: [
          [0, 0, 0],
          [0, 0, 2500],
          [5000, 0, 2500],
        ],
      },
      {
        label: "H1.R01.K03.U41:e49 / H1.N01.N01-01.U22:e1",
        points: [
          [1200, 0, 1800],
          [1200, 0, 2500],
        ],
      },
      {
        label: "H1.R01.K01.U01:p1 / H1.R01.K01.U41:e1",
        points: [
          [0, 0, 100],
          [0, 0, 1800],
        ],
      },
    ]),
  );

  const carrierCable = carrierIndex(set);

  it("borrows the route of a link between the trunk's two racks, either way round", () => {
    expect(carrierCable("H1.R01.K03", "H1.N01.N01-01")).toBe(1);
    expect(carrierCable("H1.N01.N01-01", "H1.R01.K03")).toBe(1);
  });

  it("a row-end trunk borrows the first link from its row to the far rack; a trunk no link follows has none", () => {
    expect(carrierCable("H1.R01.K06", "H1.N01.N01-01")).toBe(0);
    expect(carrierCable("H1.R02.K01", "H1.N01.N01-01")).toBeNull();
  });

  it("rebuilds a cable's polyline from its segments (scene metres, up is y)", () => {
    expect(xyz(routeOf(set, 0))).toEqual([
      [0, 0, 0],
      [0, 2.5, 0],
      [5, 2.5, 0],
    ]);
  });

  const route = [v(0, 1.8, 0), v(0, 2.5, 0), v(5, 2.5, 0), v(5, 2.5, 4), v(5, 1, 4)];
  const a = v(0, 1.9, 0.5);
  const b = v(5, 1.2, 4.5);
  const expected = [
    [0, 1.9, 0.5],
    [0, 2.5, 0.5],
    [0, 2.5, 0],
    [5, 2.5, 0],
    [5, 2.5, 4],
    [5, 2.5, 4.5],
    [5, 1.2, 4.5],
  ];

  it("runs from panel to panel along the route's tray part (above the rack tops), up and down at the ends", () => {
    const p = trunkPath(a, b, route, 2, 2.3);
    expect(p.routed).toBe(true);
    expect(xyz(p.points)).toEqual(expected);
  });

  it("the same path from a route drawn the other way", () => {
    expect(xyz(trunkPath(a, b, [...route].reverse(), 2, 2.3).points)).toEqual(expected);
  });

  it("without a route: straight across at the tray height, and says so", () => {
    const p = trunkPath(a, b, null, 2, 2.3);
    expect(p.routed).toBe(false);
    expect(xyz(p.points)).toEqual([
      [0, 1.9, 0.5],
      [0, 2.3, 0.5],
      [5, 2.3, 4.5],
      [5, 1.2, 4.5],
    ]);
  });

  it("a trunk's tube grows with its fibres", () => {
    expect(trunkRadius(0)).toBe(0.02);
    expect(trunkRadius(16)).toBeCloseTo(0.036, 12);
    expect(trunkRadius(144)).toBeCloseTo(0.068, 12);
  });
});

describe("a trunk's tube", () => {
  it("is one open six-sided cylinder per leg, its vertices exactly `radius` from the leg's axis, spanning it", () => {
    const g = tubeGeometry([v(0, 0, 0), v(0, 2, 0), v(3, 2, 0)], 0.1);
    const pos = g.getAttribute("position");
    // CylinderGeometry(6 radial, 1 height segment, open): (6 + 1) x 2 vertices a leg.
    expect(pos.count).toBe(2 * 14);
    const leg1 = Array.from({ length: 14 }, (_, i) => v(pos.getX(i), pos.getY(i), pos.getZ(i)));
    const leg2 = Array.from({ length: 14 }, (_, i) => v(pos.getX(14 + i), pos.getY(14 + i), pos.getZ(14 + i)));
    for (const p of leg1) expect(Math.hypot(p.x, p.z)).toBeCloseTo(0.1, 6);
    expect([Math.min(...leg1.map((p) => p.y)), Math.max(...leg1.map((p) => p.y))]).toEqual([0, 2]);
    for (const p of leg2) expect(Math.hypot(p.y - 2, p.z)).toBeCloseTo(0.1, 6);
    expect(Math.min(...leg2.map((p) => p.x))).toBeCloseTo(0, 6);
    expect(Math.max(...leg2.map((p) => p.x))).toBeCloseTo(3, 6);
  });

  it("a leg of no length adds nothing", () => {
    expect(tubeGeometry([v(1, 1, 1), v(1, 1, 1)], 0.1).getAttribute("position")).toBeUndefined();
  });
});
