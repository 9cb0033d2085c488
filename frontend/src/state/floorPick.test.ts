import { describe, expect, it } from "vitest";
import { U_MM } from "../model/records";
import {
  clickRack,
  deviceAt,
  EMPTY_CHOSEN,
  endPick,
  FAILURE_COLOUR,
  PICK_SETS,
  pickCable,
  pickCounts,
  pickRack,
  rackPickColour,
  setFailKind,
  setPickMode,
  startPick,
  toggleRack,
  useFloorPick,
  type PickSession,
} from "./floorPick";

/** Rack A: two logical racks, ToR of L1 at U21, of L2 at U42; rack N: two spines; rack E: nothing in the plan. */
function session(over: Partial<PickSession> = {}): PickSession {
  return {
    planId: 1,
    sets: ["senders", "receivers"],
    mode: "receivers",
    chosen: EMPTY_CHOSEN,
    failures: [],
    failKind: "device",
    racks: new Map([
      [
        "rack:a",
        {
          name: "R01-01",
          logical: ["H1.R01.R01-01.L1", "H1.R01.R01-01.L2"],
          devices: [
            { node: "H1.R01.R01-01.L1.TOR1", role: "tor", u0: 1, u1: 22 },
            { node: "H1.R01.R01-01.L2.TOR1", role: "tor", u0: 22, u1: 43 },
          ],
        },
      ],
      ["rack:b", { name: "R01-02", logical: ["H1.R01.R01-02.L1"], devices: [] }],
      [
        "rack:n",
        {
          name: "R01-NET",
          logical: [],
          devices: [
            { node: "H1.SPINE1", role: "spine", u0: 20, u1: 21 },
            { node: "H1.SPINE2", role: "spine", u0: 22, u1: 23 },
          ],
        },
      ],
      ["rack:e", { name: "R01-03", logical: [], devices: [] }],
    ]),
    ...over,
  };
}

describe("picking racks into a set", () => {
  it("a click adds the rack's logical racks, a second click takes them out", () => {
    const once = toggleRack(session(), "rack:a");
    expect(once.chosen.receivers).toEqual(["H1.R01.R01-01.L1", "H1.R01.R01-01.L2"]);
    const twice = toggleRack(once, "rack:a");
    expect(twice.chosen.receivers).toEqual([]);
  });

  it("a rack is in one set: picking it as a sender takes it out of the receivers", () => {
    let s = toggleRack(toggleRack(session(), "rack:a"), "rack:b");
    s = toggleRack({ ...s, mode: "senders" }, "rack:a");
    expect(s.chosen.senders).toEqual(["H1.R01.R01-01.L1", "H1.R01.R01-01.L2"]);
    expect(s.chosen.receivers).toEqual(["H1.R01.R01-02.L1"]);
  });

  it("a rack half in the set is completed by a click, not emptied", () => {
    const s = toggleRack(session({ chosen: { ...EMPTY_CHOSEN, receivers: ["H1.R01.R01-01.L2"] } }), "rack:a");
    // In the rack's order, bottom first.
    expect(s.chosen.receivers).toEqual(["H1.R01.R01-01.L1", "H1.R01.R01-01.L2"]);
  });

  it("a rack with no logical rack in the plan, or failure mode, changes nothing", () => {
    const s = session();
    expect(toggleRack(s, "rack:e")).toBe(s);
    expect(toggleRack(s, "rack:unknown")).toBe(s);
    expect(toggleRack({ ...s, mode: "failures" }, "rack:a").chosen).toBe(s.chosen);
  });

  it("counts logical racks and the physical racks they are in; colours racks by set", () => {
    const s = toggleRack(toggleRack(session(), "rack:a"), "rack:b");
    expect(pickCounts(s).receivers).toEqual({ logical: 3, racks: 2 });
    expect(pickCounts(s).senders).toEqual({ logical: 0, racks: 0 });
    expect(rackPickColour(s, "rack:a")).toBe(PICK_SETS.receivers.colour);
    expect(rackPickColour(s, "rack:n")).toBeNull();
  });
});

describe("picking failures on a rack", () => {
  it("the switch whose rack units hold the clicked height, else the nearest; the top takes the topmost", () => {
    const info = session().racks.get("rack:a");
    // 10 U up is U11 (L1's ToR's span), 30 U up is U31 (L2's).
    expect(deviceAt(info, 10 * U_MM)?.node).toBe("H1.R01.R01-01.L1.TOR1");
    expect(deviceAt(info, 30 * U_MM)?.node).toBe("H1.R01.R01-01.L2.TOR1");
    expect(deviceAt(info, 48 * U_MM)?.node).toBe("H1.R01.R01-01.L2.TOR1");
    const net = session().racks.get("rack:n");
    expect(deviceAt(net, 0)?.node).toBe("H1.SPINE1");
    // Between the two spines (U21.5): as far from each; the upper one wins the tie.
    expect(deviceAt(net, 20.5 * U_MM)?.node).toBe("H1.SPINE2");
    expect(deviceAt(session().racks.get("rack:e"), 0)).toBeNull();
  });

  it("a click fails the switch, a second click on it takes the failure back; the rack turns red", () => {
    const s = session({ mode: "failures" });
    const once = clickRack(s, "rack:a", 1000);
    expect(once.failures).toEqual([
      { kind: "node", id: "H1.R01.R01-01.L2.TOR1", label: "H1.R01.R01-01.L2.TOR1 (tor)" },
    ]);
    expect(rackPickColour(once, "rack:a")).toBe(FAILURE_COLOUR);
    expect(clickRack(once, "rack:a", 1000).failures).toEqual([]);
    // Picking cables: a click on a rack fails nothing.
    expect(clickRack({ ...s, failKind: "cable" }, "rack:a", 1000)).toEqual({ ...s, failKind: "cable" });
  });
});

describe("the picking session store", () => {
  it("routes clicks by mode and hands the choice back when done", () => {
    startPick(session());
    pickRack("rack:b", 0);
    setPickMode("failures");
    pickRack("rack:n", 0);
    pickCable("C1", "A / B"); // still failing switches: a cable click is not for now
    setFailKind("cable");
    pickCable("C1", "A / B");
    const s = endPick();
    expect(useFloorPick.getState().session).toBeNull();
    expect(s?.chosen.receivers).toEqual(["H1.R01.R01-02.L1"]);
    expect(s?.failures).toEqual([
      { kind: "node", id: "H1.SPINE1", label: "H1.SPINE1 (spine)" },
      { kind: "link", id: "C1", label: "A / B" },
    ]);
    expect(endPick()).toBeNull();
  });
});
