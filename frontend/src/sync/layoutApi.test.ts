import { describe, expect, it } from "vitest";
import { isRack, racksOf, type RackRecord, type RowRecord } from "../model/records";
import type { HallLayout } from "./apiTypes";
import { refusalSentence, diffParts, editorField, rackSpec, recordsFromLayout, rowBody } from "./layoutApi";

const lr = (ordinal: number) => ({
  ordinal,
  servers: 15,
  server_model_id: 1,
  ports_used: 2,
  tor_model_id: 7,
  tor_position: "top" as const,
  base_u: 1 + 16 * ordinal,
  top_u: 16 + 16 * ordinal,
  tor_u: 16 + 16 * ordinal,
});
const rack = (id: number, rowId: number, name: string, pos: number) => ({
  id,
  row_id: rowId,
  hall_id: 1,
  name,
  rack_type_id: 3,
  position_m: pos,
  role: "compute" as const,
  port_face: "front" as const,
  version: 2,
  logical_racks: [lr(0), lr(1)],
  fabric_switches: [],
});
const row = (id: number, name: string, y: number, front: "left" | "right") => ({
  id,
  hall_id: 1,
  name,
  x_m: 2,
  y_m: y,
  direction: 0,
  front,
  version: 5,
  rack_count: 2,
  racks: [rack(id * 10 + 1, id, `${name}-01`, 0), rack(id * 10 + 2, id, `${name}-02`, 0.6)],
});

const DOC = {
  hall: {
    id: 1,
    project_id: 1,
    name: "H1",
    site: "S1",
    width_m: 14,
    depth_m: 13,
    raised_floor: false,
    raised_floor_height_m: 0,
    tray_height_m: 0.3,
    tile_m: 0.6,
    min_cold_aisle_m: 1.2,
    min_hot_aisle_m: 0.9,
    version: 1,
  },
  rows: [row(1, "R01", 2, "left"), row(2, "R02", 4.4, "right")],
  aisles: [],
  warnings: [],
  oversubscription: [],
  server_models: [{ id: 1, name: "2x25G server", nic_ports: 2, port_gbps: 25, height_u: 1, builtin: true, version: 1 }],
  switch_models: [
    {
      id: 7,
      name: "48x25G+8x100G ToR",
      server_ports: 48,
      server_port_gbps: 25,
      uplink_ports: 8,
      uplink_gbps: 100,
      height_u: 1,
      builtin: true,
      version: 1,
    },
  ],
  rack_types: [{ id: 3, name: "42U 600x1200", width_m: 0.6, depth_m: 1.2, height_u: 42, builtin: true, version: 1 }],
} as unknown as HallLayout;

describe("layout document <-> records", () => {
  it("reads the API's metres and catalog ids into millimetre records with versions", () => {
    const { records, versions } = recordsFromLayout(DOC);
    expect(records["row:2"]).toMatchObject({ xMm: 2000, yMm: 4400, front: "right" });
    const r = records["rack:12"] as RackRecord;
    expect(r).toMatchObject({
      rowId: "row:1",
      name: "R01-02",
      positionMm: 600,
      logicalRacks: 2,
      serversPerLogicalRack: 15,
      portsUsed: 2,
    });
    expect(r.torModel.id).toBe(7);
    expect(r.rackType).toMatchObject({ id: 3, widthMm: 600, depthMm: 1200 });
    expect(versions.get("row:1")).toBe(5);
    expect(versions.get("rack:12")).toBe(2);
    // The hall's own aisle minimums, which the rows the editor lays keep.
    expect(records["hall:1"]).toMatchObject({ minColdAisleMm: 1200, minHotAisleMm: 900 });
  });

  it("writes records back as API bodies", () => {
    const { records } = recordsFromLayout(DOC);
    const r = racksOf(records, "row:1")[1]!;
    const spec = rackSpec({ ...r, serversPerLogicalRack: 10, torPosition: "middle" }, (x) => ({
      rackType: x.rackType.id!,
      server: x.serverModel.id!,
      tor: x.torModel.id!,
    }));
    expect(spec).toMatchObject({ name: "R01-02", rack_type_id: 3, position_m: 0.6, port_face: "front" });
    expect(spec.logical_racks).toEqual([
      { servers: 10, server_model_id: 1, ports_used: 2, tor_model_id: 7, tor_position: "middle" },
      { servers: 10, server_model_id: 1, ports_used: 2, tor_model_id: 7, tor_position: "middle" },
    ]);
    expect(rowBody({ ...(records["row:1"] as RowRecord), xMm: 2600 })).toEqual({
      name: "R01",
      x_m: 2.6,
      y_m: 2,
      direction: 0,
      front: "left",
    });
  });

  it("a fabric switch keeps its network through an edit: a front-end spine is written back as one, a new one is compute", () => {
    const spine = (name: string, u: number, network: "compute" | "front_end") => ({
      name,
      role: "spine" as const,
      switch_model_id: 7,
      u,
      network,
    });
    const net = {
      ...rack(31, 1, "R01-N", 1.2),
      role: "network" as const,
      logical_racks: [],
      fabric_switches: [spine("SPINE01", 1, "compute"), spine("FESPINE01", 2, "front_end")],
    };
    const doc = { ...DOC, rows: [{ ...DOC.rows[0]!, racks: [...DOC.rows[0]!.racks, net] }] } as HallLayout;
    const r = recordsFromLayout(doc).records["rack:31"] as RackRecord;
    expect(r.fabricSwitches.map((f) => f.network)).toEqual(["compute", "front_end"]);
    const ids = () => ({ rackType: 3, server: 1, tor: 7 });
    const added = { name: "SPINE02", role: "spine", u: 3, heightU: 1, modelId: 7 };
    const spec = rackSpec({ ...r, fabricSwitches: [...r.fabricSwitches, added] }, ids);
    expect(spec.fabric_switches).toEqual([
      spine("SPINE01", 1, "compute"),
      spine("FESPINE01", 2, "front_end"),
      spine("SPINE02", 3, "compute"),
    ]);
  });

  it("maps API error paths to editor fields and splits diffs by kind", () => {
    expect(editorField(["body", "logical_racks", 0, "servers"])).toBe("serversPerLogicalRack");
    expect(editorField(["body", "x_m"])).toBe("position");
    expect(editorField(["logical_racks", 1, "ports_used"])).toBe("portsUsed");
    const { records } = recordsFromLayout(DOC);
    const r = Object.values(records).filter(isRack)[0]!;
    const parts = diffParts({
      added: {},
      updated: { [r.id]: [r, { ...r, positionMm: 1200 }] },
      removed: { "row:2": records["row:2"]! },
    });
    expect(parts.updatedRacks).toHaveLength(1);
    expect(parts.removedRows.map((x) => x.name)).toEqual(["R02"]);
  });
});

describe("refusals in the planner's words", () => {
  it("one sentence: the first message unquoted and capitalised, and how many more", () => {
    expect(
      refusalSentence([
        "rack 'R01-01' of row 'R01' spans x -0.6..5.4 m, y 1.2..2.4 m, outside the hall floor (20 x 14 m)",
        "rack 'R01-02' of row 'R01' overlaps rack 'R02-01' of row 'R02'",
        "rack 'R01-03' of row 'R01' overlaps rack 'R02-02' of row 'R02'",
      ]),
    ).toBe(
      "Rack R01-01 of row R01 spans x -0.6..5.4 m, y 1.2..2.4 m, outside the hall floor (20 x 14 m). (2 more problems like it.)",
    );
    expect(refusalSentence(["a row named 'R01' already exists.", "a row named 'R01' already exists."])).toBe(
      "A row named R01 already exists.",
    );
    expect(refusalSentence([])).toBe("The server refused it.");
  });
});
