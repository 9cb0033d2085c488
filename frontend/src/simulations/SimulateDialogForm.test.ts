import { describe, expect, it } from "vitest";
import { EMPTY_CHOSEN } from "../state/floorPick";
import { ApiError } from "../sync/http";
import { PresetError } from "./presets";
import { chosenOf, failuresOf, formErrorOf, replacedBy, SETS_OF, shownAtField, tid } from "./SimulateDialogForm";

describe("the simulation form's rules", () => {
  it("a chosen rack set replaces the counts it stands for, only for the workload that takes it", () => {
    const picked = { ...EMPTY_CHOSEN, senders: ["R01-01/1"], job: [] };
    expect(replacedBy(SETS_OF.rack_to_rack, picked, "senderRacks")).toBe(true);
    expect(replacedBy(SETS_OF.rack_to_rack, picked, "receiverRacks")).toBe(false);
    expect(replacedBy(SETS_OF.shuffle, picked, "racks")).toBe(false);
    expect(replacedBy(SETS_OF.shuffle, { ...picked, job: ["R01-01/1"] }, "placement")).toBe(true);
    expect(chosenOf(SETS_OF.rack_to_rack, picked)).toEqual({ senders: ["R01-01/1"], receivers: [] });
    expect(chosenOf(SETS_OF.incast, picked)).toEqual({});
  });

  it("failures go to the request as a node or a link with their times; test ids keep the first row plain", () => {
    expect(
      failuresOf([
        { kind: "node", id: "SP1", label: "SP1 (spine)", atMs: 1, recoverMs: null },
        { kind: "link", id: "L7", label: "cable 7", atMs: 0, recoverMs: 3 },
      ]),
    ).toEqual([
      { node: "SP1", atMs: 1, recoverMs: null },
      { link: "L7", atMs: 0, recoverMs: 3 },
    ]);
    expect([tid("sim-fail-at", 0), tid("sim-fail-at", 2)]).toEqual(["sim-fail-at", "sim-fail-at-2"]);
  });

  it("a refusal goes under its field, or above the Run button", () => {
    const seeds = formErrorOf(new PresetError("seeds", "seeds must be whole numbers"));
    expect(seeds).toEqual({ field: "seeds", text: "seeds must be whole numbers" });
    expect(shownAtField(seeds, ["racks"])).toBe(true);
    const api = formErrorOf(
      new ApiError(422, [{ loc: ["body", "workload"], field: "workload.flows", msg: "too many" }]),
    );
    expect(api).toEqual({ field: "workload.flows", text: "too many" });
    expect(shownAtField(api, ["racks", "mb"])).toBe(false);
    expect(shownAtField({ field: "mb", text: "x" }, ["racks", "mb"])).toBe(true);
    expect(formErrorOf(new Error("network down"))).toEqual({ field: "", text: "network down" });
  });
});
