import { describe, expect, it } from "vitest";
import { EMPTY_CHOSEN } from "../state/floorPick";
import { ApiError } from "../sync/http";
import { PresetError, type Preset } from "./presets";
import {
  atParam,
  chosenOf,
  failuresOf,
  formErrorOf,
  replacedBy,
  setsOf,
  shownAtField,
  tid,
} from "./SimulateDialogForm";

/** Presets as the server's table gives them: their rack sets and what each replaces. */
const preset = (name: Preset["name"], rack_sets: Preset["rack_sets"]): Preset => ({
  name,
  label: name,
  explain: "",
  params: [],
  rack_sets,
});
const R2R = preset("many-to-many", [
  { name: "senders", label: "", replaces: ["sender_racks"], otherwise: "" },
  { name: "receivers", label: "", replaces: ["receiver_racks"], otherwise: "" },
]);
const SHUFFLE = preset("shuffle", [{ name: "job", label: "", replaces: ["job_racks", "placement"], otherwise: "" }]);

describe("the simulation form's rules", () => {
  it("a chosen rack set replaces the counts it stands for, only for the workload that takes it", () => {
    const picked = { ...EMPTY_CHOSEN, senders: ["R01-01/1"], job: [] };
    expect(replacedBy(R2R, picked, "sender_racks")).toBe(true);
    expect(replacedBy(R2R, picked, "receiver_racks")).toBe(false);
    expect(replacedBy(SHUFFLE, picked, "job_racks")).toBe(false);
    expect(replacedBy(SHUFFLE, { ...picked, job: ["R01-01/1"] }, "placement")).toBe(true);
    expect(chosenOf(setsOf(R2R), picked)).toEqual({ senders: ["R01-01/1"], receivers: [] });
    expect(chosenOf(setsOf(preset("incast", [])), picked)).toEqual({});
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
    expect(shownAtField(seeds, ["job_racks"])).toBe(true);
    const api = formErrorOf(
      new ApiError(422, [{ loc: ["body", "workload"], field: "workload.flows", msg: "too many" }]),
    );
    expect(api).toEqual({ field: "workload.flows", text: "too many" });
    expect(shownAtField(api, ["job_racks", "bytes"])).toBe(false);
    // the server names a preset's parameter params.<name>: shown at the field <name>
    const param = formErrorOf(new ApiError(422, [{ loc: [], field: "params.bytes", msg: "must be at least 1" }]));
    expect(param).toEqual({ field: "bytes", text: "must be at least 1" });
    expect(shownAtField(param, ["job_racks", "bytes"])).toBe(true);
    expect(formErrorOf(new Error("network down"))).toEqual({ field: "", text: "network down" });
  });
});

describe("an engine refusal of the built workload", () => {
  const skew = {
    name: "skew",
    label: "Skew (all-to-all)",
    kind: "number" as const,
    help: "",
    default: 0,
    engine_field: "workload.collective.skew",
    unit: null,
    minimum: 0,
    exclusive_minimum: false,
    maximum: null,
    choices: [],
    display_unit: null,
    display_scale: 1,
    step: 0.1,
  };
  const COLLECTIVE: Preset = { ...preset("collective", []), params: [skew] };

  it("goes under the parameter that sets the field it names; anything else stays as it is", () => {
    const text = "only all_to_all has a skew, not all_reduce";
    expect(atParam(COLLECTIVE, { field: "scenario.workload.skew", text })).toEqual({ field: "skew", text });
    expect(atParam(COLLECTIVE, { field: "scenario.workload.servers", text })).toEqual({
      field: "scenario.workload.servers",
      text,
    });
    expect(atParam(COLLECTIVE, { field: "gpus", text })).toEqual({ field: "gpus", text });
    expect(atParam(SHUFFLE, { field: "scenario.workload.skew", text })).toEqual({
      field: "scenario.workload.skew",
      text,
    });
  });
});
