import { describe, expect, it } from "vitest";
import {
  facilityBand,
  facilityColour,
  facilityCounts,
  facilityView,
  findingTarget,
  modelsOfRack,
  rackLoadLines,
  rackFacilityColour,
  trayBox,
  trayColour,
  trayWorst,
  worstItems,
  type FacilityReportApi,
  type RackModels,
} from "./facility";
import { DEFAULT_CONTENTS, type RackRecord } from "../model/records";

const GREEN = "#22c55e";
const AMBER = "#f59e0b";
const RED = "#ef4444";
const GREY = "#9ca3af";

type RackApi = FacilityReportApi["racks"][number];
type TrayApi = FacilityReportApi["trays"][number];

function rack(name: string, worstPct: number, worst = "", row = "R01"): RackApi {
  return {
    rack: name,
    row,
    typical_w: 0,
    max_w: 0,
    budget_w: null,
    cooling_w: null,
    weight_kg: 0,
    static_load_kg: null,
    floor_kg_m2: 0,
    feeds: [],
    worst_pct: worstPct,
    worst,
  };
}

function tray(name: string, fill: number, limit: number, kgPerM = 0, rating = 75): TrayApi {
  return {
    name,
    run: name.split("-")[0] ?? name,
    level: "above-racks",
    start_m: [1, 2, 2.6],
    end_m: [1.6, 2, 2.6],
    cables: 1,
    fill_pct: fill,
    limit_pct: limit,
    kg_per_m: kgPerM,
    load_kg_per_m: rating,
  };
}

function report(racks: RackApi[], trays: TrayApi[] = [], issues: FacilityReportApi["errors"] = []): FacilityReportApi {
  return {
    errors: issues.filter((i) => i.severity === "error"),
    warnings: issues.filter((i) => i.severity !== "error"),
    racks,
    trays,
    totals: {
      typical_w: 0,
      max_w: 0,
      heat_w: 0,
      weight_kg: 0,
      fullest_tray: null,
      fullest_tray_pct: 0,
      incomplete: [],
    },
  };
}

describe("the facility colour scale", () => {
  it("is green below 80 %, amber from 80 % up to and at 100 %, red above 100 %", () => {
    expect(facilityColour(0)).toBe(GREEN);
    expect(facilityColour(79.99)).toBe(GREEN);
    expect(facilityColour(80)).toBe(AMBER);
    expect(facilityColour(100)).toBe(AMBER);
    expect(facilityColour(100.01)).toBe(RED);
    expect(facilityColour(476)).toBe(RED);
  });

  it("is grey when the share is unknown, or under its limit while a fact is missing; over stays red", () => {
    expect(facilityColour(null)).toBe(GREY);
    expect(facilityColour(Number.NaN)).toBe(GREY);
    expect(facilityColour(Infinity)).toBe(GREY);
    expect(facilityColour(20, true)).toBe(GREY);
    expect(facilityColour(100, true)).toBe(GREY);
    // What was not counted can only add load: a rack over its limit is over whatever else it holds.
    expect(facilityColour(150, true)).toBe(RED);
    expect(facilityBand(150, true)).toBe("over");
  });
});

describe("the report as the editor reads it", () => {
  it("colours each rack by its worst share, grey for a rack whose devices lack max_w or not in the report", () => {
    const models: Record<string, RackModels> = {
      "R01-01": { servers: ["X"], switches: ["ToR"] },
      "R01-02": { servers: ["S"], switches: ["ToR"] },
      "R01-03": { servers: ["S"], switches: ["ToR"] },
      "R01-04": { servers: ["X"], switches: ["ToR"] },
    };
    const v = facilityView(
      7,
      null,
      report(
        [rack("R01-01", 476), rack("R01-02", 85), rack("R01-03", 12), rack("R01-04", 40)],
        [],
        [
          {
            severity: "warning",
            code: "fact_missing",
            field: "catalog.server_models[X].max_w",
            message: "server model 'X' has no max_w",
          },
          // A weight gap does not grey a rack: its power ratios are whole.
          {
            severity: "warning",
            code: "fact_missing",
            field: "catalog.switch_models[ToR].weight_kg",
            message: "switch model 'ToR' has no weight_kg",
          },
        ],
      ),
      (name) => models[name],
    );
    expect(rackFacilityColour(v, "R01-01")).toBe(RED);
    expect(rackFacilityColour(v, "R01-02")).toBe(AMBER);
    expect(rackFacilityColour(v, "R01-03")).toBe(GREEN);
    expect(rackFacilityColour(v, "R01-04")).toBe(GREY);
    expect(rackFacilityColour(v, "R09-09")).toBe(GREY);
    expect(v.byRack.get("R01-04")?.missing).toEqual(["server model 'X' has no max_w"]);
    // Over its limit with the same gap: still red (the gap can only add load).
    expect(v.byRack.get("R01-01")?.missing).toEqual(["server model 'X' has no max_w"]);
    expect(v.byRack.get("R01-02")?.missing).toEqual([]);
    expect(v.issues.map((i) => i.severity)).toEqual(["warning", "warning"]);
  });

  it("reads tray points in millimetres (x, y, z) and frames a segment with a margin", () => {
    const v = facilityView(7, 3, report([], [tray("T3-12", 47, 40)]));
    const t = v.byTray.get("T3-12")!;
    expect(t.start).toEqual([1000, 2000, 2600]);
    expect(trayBox(t, 1500)).toEqual({ x0: -500, y0: 500, x1: 3100, y1: 3500 });
    expect(v.planId).toBe(3);
  });
});

describe("a tray segment's worst share", () => {
  it("is its fill over the fill limit: 47 % of a 40 % limit is 117.5 %", () => {
    const w = trayWorst(facilityView(1, 1, report([], [tray("T3-12", 47, 40)])).trays[0]!);
    expect(w.pct).toBeCloseTo(117.5, 10);
    expect(w.text).toBe("filled to 47.0 % of the tray (limit 40.0 %)");
  });

  it("is the weight over the rating when that is the larger share: 60 kg/m on 75 kg/m is 80 %", () => {
    const t = facilityView(1, 1, report([], [tray("T1-1", 10, 40, 60, 75)])).trays[0]!;
    const w = trayWorst(t);
    expect(w.pct).toBeCloseTo(80, 10);
    expect(w.text).toBe("60.0 kg/m of cables on a 75 kg/m tray (80.0 %)");
    expect(trayColour(t)).toBe(AMBER);
  });

  it("is coloured by that share: 28.3 % of 40 % is green (70.75 %)", () => {
    expect(trayColour(facilityView(1, 1, report([], [tray("T1-1", 28.3, 40)])).trays[0]!)).toBe(GREEN);
  });
});

describe("the worst items", () => {
  it("lists racks and tray segments by their share, the worst first; ties racks first, then by name", () => {
    const v = facilityView(
      1,
      2,
      report(
        [
          rack("R01-02", 90, "heat at 90.0 % of the rack's cooling"),
          rack("R01-01", 476, "feed A at 476.0 % of its 80 % limit"),
          rack("R02-01", 117.5, "weight at 117.5 % of its static load"),
          rack("R01-03", 12, "feed A at 12.0 % of its 80 % limit"),
        ],
        [tray("T3-12", 47, 40), tray("T3-11", 47, 40), tray("T1-1", 4, 40)],
      ),
    );
    expect(worstItems(v).map((i) => [i.kind, i.name, i.band])).toEqual([
      ["rack", "R01-01", "over"],
      // 117.5 % each: the rack first, then the two segments by name.
      ["rack", "R02-01", "over"],
      ["tray", "T3-11", "over"],
      ["tray", "T3-12", "over"],
      ["rack", "R01-02", "near"],
      ["rack", "R01-03", "ok"],
      ["tray", "T1-1", "ok"],
    ]);
    expect(worstItems(v)[0]!.text).toBe("feed A at 476.0 % of its 80 % limit");
    expect(worstItems(v, 2).map((i) => i.name)).toEqual(["R01-01", "R02-01"]);
  });

  it("puts racks that cannot be told (a power fact missing, under their limits) after the rest", () => {
    const v = facilityView(
      1,
      null,
      report(
        [rack("R01-01", 90), rack("R01-02", 5), rack("R01-03", 130)],
        [],
        [{ severity: "warning", code: "fact_missing", field: "catalog.switch_models[T].max_w", message: "no max_w" }],
      ),
      (name) => ({ servers: [], switches: name === "R01-02" ? [] : ["T"] }),
    );
    expect(worstItems(v).map((i) => [i.name, i.band])).toEqual([
      ["R01-03", "over"],
      ["R01-02", "ok"],
      ["R01-01", "unknown"],
    ]);
  });
});

describe("the violation counts", () => {
  it("counts errors and warnings apart", () => {
    expect(
      facilityCounts([{ severity: "error" }, { severity: "warning" }, { severity: "error" }, { severity: "error" }]),
    ).toEqual({ errors: 3, warnings: 1 });
    expect(facilityCounts([])).toEqual({ errors: 0, warnings: 0 });
  });
});

describe("a rack's loads against its limits", () => {
  it("reads the issue's rack: 28 kW on each of two 230 V 32 A feeds, a 10 kW budget, no cooling of its own", () => {
    const api = rack("R01-01", 475.54, "feed A at 475.5 % of its 80 % limit");
    const feed = (name: string) => ({ feed: name, capacity_w: 7360, limit_w: 5888, load_w: 28000, phase_w: [28000] });
    api.max_w = 28000;
    api.typical_w = 14000;
    api.feeds = [feed("A"), feed("B")];
    api.budget_w = 10000;
    api.weight_kg = 900;
    api.static_load_kg = 800;
    api.floor_kg_m2 = 1250;
    const r = facilityView(1, null, report([api])).byRack.get("R01-01")!;
    const lines = rackLoadLines(r, 1224);
    expect(lines.map((l) => [l.key, l.text])).toEqual([
      ["feed-A", "28.0 kW of 5.9 kW (80 % of 7.4 kW)"],
      ["feed-B", "28.0 kW of 5.9 kW (80 % of 7.4 kW)"],
      ["budget", "28.0 kW max of 10.0 kW"],
      ["heat", "28.0 kW, cooled by its row or the hall"],
      ["weight", "900 kg of 800 kg static load"],
      ["floor", "1,250 of 1,224 kg/m²"],
    ]);
    // 28,000 / 5,888 = 475.54 %; 28,000 / 10,000 = 280 %; 900 / 800 = 112.5 %; 1,250 / 1,224 = 102.12 %.
    expect(lines[0]!.pct).toBeCloseTo(475.543, 3);
    expect(lines[2]!.pct).toBeCloseTo(280, 10);
    expect(lines[3]!.pct).toBeNull();
    expect(lines[4]!.pct).toBeCloseTo(112.5, 10);
    expect(lines[5]!.pct).toBeCloseTo(102.124, 3);
    expect(lines.map((l) => facilityColour(l.pct))).toEqual([RED, RED, RED, GREY, RED, RED]);
    // The continuous share is read from the report: a hall at 90 % says so.
    const ninety = { ...r, feeds: [{ feed: "A", capacity_w: 10000, limit_w: 9000, load_w: 4500, phase_w: [4500] }] };
    expect(rackLoadLines(ninety, null)[0]!.text).toBe("4.5 kW of 9.0 kW (90 % of 10.0 kW)");
  });
});

describe("a rack's models, as the report's findings name them", () => {
  const base: RackRecord = {
    ...DEFAULT_CONTENTS,
    typeName: "rack",
    role: "compute",
    fabricSwitches: [],
    id: "rack:1",
    rowId: "row:1",
    name: "R01-01",
    positionMm: 0,
  };
  it("are its servers and ToR when it holds servers, and its fabric switches by catalog name", () => {
    expect(modelsOfRack({ ...base, logicalRacks: 2, serversPerLogicalRack: 10 }, () => undefined)).toEqual({
      servers: [base.serverModel.name],
      switches: [base.torModel.name],
    });
    expect(modelsOfRack({ ...base, logicalRacks: 1, serversPerLogicalRack: 0 }, () => undefined)).toEqual({
      servers: [],
      switches: [base.torModel.name],
    });
    const network: RackRecord = {
      ...base,
      role: "network",
      logicalRacks: 0,
      fabricSwitches: [
        { name: "SP1", role: "spine", u: 20, heightU: 2, modelId: 7 },
        { name: "SP2", role: "spine", u: 22, heightU: 2, modelId: 99 },
      ],
    };
    expect(modelsOfRack(network, (id) => (id === 7 ? "64x100G spine" : undefined))).toEqual({
      servers: [],
      switches: ["64x100G spine"],
    });
  });
});

describe("what a finding is about", () => {
  const v = facilityView(1, 2, report([rack("R01-03", 120)], [tray("T3-12", 47, 40)]));
  it("is the rack or tray segment its field names, when the report has it", () => {
    expect(findingTarget(v, "rows[R01].racks[R01-03].feeds[A]")).toEqual({ kind: "rack", name: "R01-03" });
    expect(findingTarget(v, "rows[R01].racks[R01-03]")).toEqual({ kind: "rack", name: "R01-03" });
    expect(findingTarget(v, "trays[T3-12]")).toEqual({ kind: "tray", name: "T3-12" });
  });
  it("is nothing to fly to for a row, a level's tray, a catalog model or an unknown name", () => {
    expect(findingTarget(v, "rows[R01]")).toBeNull();
    expect(findingTarget(v, "trays[above-racks]")).toBeNull();
    expect(findingTarget(v, "catalog.server_models[2x25G server].max_w")).toBeNull();
    expect(findingTarget(v, "rows[R09].racks[R09-01]")).toBeNull();
  });
});
