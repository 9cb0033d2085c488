import { describe, expect, it } from "vitest";
import { applyDiff } from "../model/diff";
import { racksOf, type RackRecord, type Records, type SwitchModel } from "../model/records";
import { HALL, hallOnly } from "../model/testing";
import {
  addFabricSwitch,
  createRow,
  moveFabricSwitch,
  nextFreeU,
  removeFabricSwitch,
  setRackRole,
  type Result,
} from "./layout";

const SPINE: SwitchModel = {
  id: 7,
  name: "64x100G spine",
  serverPorts: 64,
  serverPortGbps: 100,
  uplinkPorts: 0,
  uplinkGbps: 100,
  heightU: 2,
};

function apply(records: Records, r: Result): Records {
  if ("error" in r) throw new Error(r.error.message);
  return applyDiff(records, r.diff);
}
function errorOf(r: Result) {
  if (!("error" in r)) throw new Error("expected an error");
  return r.error;
}
function twoRacks(): { records: Records; a: RackRecord; b: RackRecord } {
  const records = apply(
    hallOnly(),
    createRow(hallOnly(), {
      hallId: HALL.id,
      draft: { xMm: 0, yMm: 0, direction: 0, count: 2, lengthMm: 1200 },
      front: "left",
    }),
  );
  const [a, b] = racksOf(records);
  return { records, a: a!, b: b! };
}
const rack = (records: Records, id: string) => records[id] as RackRecord;

describe("network racks", () => {
  it("a network rack gives up its servers; back to compute gets the default contents", () => {
    const { records, a } = twoRacks();
    const net = apply(records, setRackRole(records, a.id, "network"));
    expect(rack(net, a.id)).toMatchObject({ role: "network", logicalRacks: 0, fabricSwitches: [] });
    const withSpine = apply(net, addFabricSwitch(net, a.id, { role: "spine", model: SPINE }));
    const back = apply(withSpine, setRackRole(withSpine, a.id, "compute"));
    expect(rack(back, a.id)).toMatchObject({ role: "compute", logicalRacks: 2, serversPerLogicalRack: 15 });
    expect(rack(back, a.id).fabricSwitches).toEqual([]);
  });

  it("adds switches at the next free U with hall-unique names, bottom up", () => {
    const { records, a, b } = twoRacks();
    let r = apply(records, setRackRole(records, a.id, "network"));
    r = apply(r, setRackRole(r, b.id, "network"));
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE }));
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE, u: 10 }));
    // U1-2 and U10-11 taken: a 2U switch fits at U3 next.
    expect(nextFreeU(rack(r, a.id), 2)).toBe(3);
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE }));
    // Names are unique in the hall, not per rack: the other rack's first spine is SP4.
    r = apply(r, addFabricSwitch(r, b.id, { role: "spine", model: SPINE }));
    r = apply(r, addFabricSwitch(r, b.id, { role: "core", model: SPINE }));
    expect(rack(r, a.id).fabricSwitches.map((f) => [f.name, f.u, f.heightU, f.modelId])).toEqual([
      ["SP1", 1, 2, 7],
      ["SP3", 3, 2, 7],
      ["SP2", 10, 2, 7],
    ]);
    expect(rack(r, b.id).fabricSwitches.map((f) => `${f.name}@${f.u}:${f.role}`)).toEqual([
      "SP4@1:spine",
      "CO1@3:core",
    ]);
  });

  it("refuses overlaps, racks too short and compute racks, in the planner's words", () => {
    const { records, a } = twoRacks();
    expect(errorOf(addFabricSwitch(records, a.id, { role: "spine", model: SPINE })).message).toBe(
      "R01-01 holds servers: set it to Network before adding switches.",
    );
    let r = apply(records, setRackRole(records, a.id, "network"));
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE, u: 20 }));
    expect(errorOf(addFabricSwitch(r, a.id, { role: "spine", model: SPINE, u: 21 }))).toEqual({
      field: "fabricSwitches.u",
      message: "U21 to U22 overlaps SP1 (U20).",
    });
    expect(errorOf(addFabricSwitch(r, a.id, { role: "spine", model: SPINE, u: 42 })).message).toBe(
      "A 2U switch at U42 would stick out of the 42U rack.",
    );
    expect(errorOf(moveFabricSwitch(r, a.id, "SP1", 0))).toEqual({
      field: "switch.SP1",
      message: "The U position is a whole number from 1.",
    });
    // 42U full of 2U spines: 21 fit, the 22nd has no room.
    let full = apply(records, setRackRole(records, a.id, "network"));
    for (let i = 0; i < 21; i++) full = apply(full, addFabricSwitch(full, a.id, { role: "spine", model: SPINE }));
    expect(errorOf(addFabricSwitch(full, a.id, { role: "spine", model: SPINE })).message).toBe(
      "There is no free 2U space left in R01-01 for a spine.",
    );
  });

  it("moves and removes a switch; undo is the inverse diff", () => {
    const { records, a } = twoRacks();
    let r = apply(records, setRackRole(records, a.id, "network"));
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE }));
    r = apply(r, addFabricSwitch(r, a.id, { role: "spine", model: SPINE }));
    const moved = apply(r, moveFabricSwitch(r, a.id, "SP1", 30));
    expect(rack(moved, a.id).fabricSwitches.map((f) => `${f.name}@${f.u}`)).toEqual(["SP2@3", "SP1@30"]);
    const removed = removeFabricSwitch(moved, a.id, "SP2");
    expect(rack(apply(moved, removed), a.id).fabricSwitches.map((f) => f.name)).toEqual(["SP1"]);
    if ("error" in removed) throw new Error();
    const [before] = Object.values(removed.diff.updated)[0]!;
    expect(before).toEqual(rack(moved, a.id));
  });
});
