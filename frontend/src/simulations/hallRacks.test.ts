import { describe, expect, it } from "vitest";
import { DEFAULT_CONTENTS, type RackRecord, type Records, type RowRecord } from "../model/records";
import { HALL } from "../model/testing";
import { rackPickInfo, racksByFullName, torsByRack } from "./hallRacks";

const row: RowRecord = {
  typeName: "row",
  id: "row:1",
  hallId: HALL.id,
  name: "R01",
  xMm: 0,
  yMm: 0,
  direction: 0,
  front: "left",
};
const rack = (id: string, name: string, over: Partial<RackRecord> = {}): RackRecord => ({
  ...DEFAULT_CONTENTS,
  logicalRacks: 2,
  serversPerLogicalRack: 15,
  typeName: "rack",
  role: "compute",
  fabricSwitches: [],
  id,
  rowId: row.id,
  name,
  positionMm: 0,
  ...over,
});
const records: Records = {
  [HALL.id]: HALL,
  [row.id]: row,
  "rack:a": rack("rack:a", "R01-01"),
  "rack:n": rack("rack:n", "R01-NET", {
    role: "network",
    logicalRacks: 0,
    fabricSwitches: [
      { name: "SPINE1", role: "spine", u: 20, heightU: 1 },
      { name: "SPINE2", role: "spine", u: 22, heightU: 2 },
    ],
  }),
};
// As the scenario of a plan lists them (servers of L2 before L1 on purpose: order is by logical index).
const nodes = [
  { id: "H1.R01.R01-01.L2.S01", role: "server", rack: "H1.R01.R01-01", logical_rack: "H1.R01.R01-01.L2" },
  { id: "H1.R01.R01-01.L1.S01", role: "server", rack: "H1.R01.R01-01", logical_rack: "H1.R01.R01-01.L1" },
  { id: "H1.R01.R01-01.L1.TOR1", role: "tor", rack: "H1.R01.R01-01", logical_rack: "H1.R01.R01-01.L1" },
  { id: "H1.R01.R01-01.L2.TOR1", role: "tor", rack: "H1.R01.R01-01", logical_rack: "H1.R01.R01-01.L2" },
  { id: "H1.SPINE2", role: "spine", rack: "H1.R01.R01-NET" },
  { id: "H1.SPINE1", role: "spine", rack: "H1.R01.R01-NET" },
  { id: "H1.CORE1", role: "core", rack: "H1.R09.R09-01" },
];

describe("the plan's network on the hall's racks", () => {
  it("finds racks by their full name, hall.row.rack", () => {
    expect([...racksByFullName(records).keys()].sort()).toEqual(["H1.R01.R01-01", "H1.R01.R01-NET"]);
  });

  it("logical racks bottom first; a ToR takes its logical rack's units; a fabric switch its slot", () => {
    const info = rackPickInfo(nodes, records);
    // 15 x 1U servers + a 1U ToR = 16 U per logical rack, from U1.
    expect(info.get("rack:a")).toEqual({
      name: "R01-01",
      logical: ["H1.R01.R01-01.L1", "H1.R01.R01-01.L2"],
      devices: [
        { node: "H1.R01.R01-01.L1.TOR1", role: "tor", u0: 1, u1: 17 },
        { node: "H1.R01.R01-01.L2.TOR1", role: "tor", u0: 17, u1: 33 },
      ],
    });
    expect(info.get("rack:n")?.devices).toEqual([
      { node: "H1.SPINE2", role: "spine", u0: 22, u1: 24 },
      { node: "H1.SPINE1", role: "spine", u0: 20, u1: 21 },
    ]);
    // A node in a rack the layout does not have is left out.
    expect(info.size).toBe(2);
  });

  it("ToRs per rack for the heat map", () => {
    const { tors, names } = torsByRack(nodes, records);
    expect(tors).toEqual(new Map([["rack:a", ["H1.R01.R01-01.L1.TOR1", "H1.R01.R01-01.L2.TOR1"]]]));
    expect(names.get("rack:a")).toBe("R01-01");
  });
});
