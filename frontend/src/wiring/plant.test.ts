import { describe, expect, it } from "vitest";
import type { ChainStep, PlantItem } from "../state/plant";
import { countsLine, findingTarget, linkLabels, metres, stepLine, trunkLine } from "./plant";

const item = (patch: Partial<PlantItem>): PlantItem => ({
  item_id: "I1",
  kind: "cord",
  label: "H1.R01.K01.U41:e49 / H1.R01.K01.U42:F01",
  part: "LC-LC duplex OS2",
  a_end: "H1.R01.K01.U41",
  a_port: "e49",
  b_end: "H1.R01.K01.U42",
  b_port: "F01",
  length_m: 1.5,
  ordered_length_m: 2,
  made_to_order: false,
  fibres: 2,
  route: "",
  ...patch,
});

describe("the plant as the wiring panel prints it", () => {
  it("counts everything the plant holds, zeros and singulars as they are", () => {
    expect(
      countsLine({
        links: 16,
        panels: 4,
        cassettes: 2,
        panel_ports: 32,
        trunks: 1,
        cords: 32,
        breakout_cables: 0,
        fibres: 24,
        optics: 20,
      }),
    ).toBe(
      "16 links · 4 panels (32 ports used) · 2 cassettes · 1 trunk (24 fibres) · 32 cords · 0 breakout cables · 20 optics",
    );
  });

  it("a cord step: its ends with their ports, what of it the link uses, its length and the sold length bought", () => {
    const step: ChainStep = { position: 0, detail: "fibres 1-2", item: item({}) };
    expect(stepLine(step)).toEqual({
      kind: "cord",
      label: "H1.R01.K01.U41:e49 / H1.R01.K01.U42:F01",
      ends: "H1.R01.K01.U41:e49 → H1.R01.K01.U42:F01 · fibres 1-2",
      part: "LC-LC duplex OS2",
      length: "1.50 m (bought 2.00 m)",
    });
  });

  it("a panel port has no length; a made-to-order trunk says so", () => {
    const port = item({
      kind: "panel port",
      length_m: 0,
      ordered_length_m: 0,
      a_port: "F01",
      b_port: "R01",
      fibres: 0,
    });
    expect(stepLine({ position: 1, detail: "front F01 -> rear R01", item: port }).length).toBe("");
    const trunk = item({ kind: "trunk", length_m: 212.3, ordered_length_m: 212.3, made_to_order: true });
    expect(stepLine({ position: 2, detail: "fibres 1-2", item: trunk }).length).toBe("212.30 m (made to order)");
  });

  it("a trunk's line names its part, fibres, routed and bought lengths and its two panels", () => {
    const t = item({
      kind: "trunk",
      part: "MPO-24 trunk OS2 Type B",
      fibres: 24,
      length_m: 17.25,
      ordered_length_m: 20,
      a_end: "H1.R01.K06.U42",
      b_end: "H1.N01.N01-01.U40",
    });
    expect(trunkLine(t)).toBe(
      "MPO-24 trunk OS2 Type B · 24 fibres · 17.25 m (SKU 20.00 m) · H1.R01.K06.U42 → H1.N01.N01-01.U40",
    );
    expect(trunkLine({ ...t, made_to_order: true, ordered_length_m: 17.25 })).toBe(
      "MPO-24 trunk OS2 Type B · 24 fibres · 17.25 m (made to order) · H1.R01.K06.U42 → H1.N01.N01-01.U40",
    );
    expect(metres(0.0004)).toBe("0.00 m");
  });

  it("a finding leads to its link on screen; one naming no link, or a link not on screen, leads nowhere", () => {
    const ids = ["Ca", "Cb", "Cc"];
    expect([findingTarget(ids, "Cb"), findingTarget(ids, null), findingTarget(ids, "Cz")]).toEqual([1, null, null]);
  });

  it("the links through a port are named by their labels (an unknown id stays an id)", () => {
    expect(linkLabels(["Cb", "Cz"], ["Ca", "Cb"], ["A / B", "C / D"])).toEqual(["C / D", "Cz"]);
  });
});
