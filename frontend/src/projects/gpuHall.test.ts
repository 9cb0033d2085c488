import { describe, expect, it } from "vitest";
import { ApiError } from "../sync/http";
import { formErrors } from "./forms";
import {
  GPU_DEFAULTS,
  GPU_FIELDS,
  gpuClusterBody,
  gpuHallBody,
  HALL_DEFAULTS,
  HALL_FIELDS,
  HALL_KIND_LABELS,
} from "./hallForm";

const chosen = { ...GPU_DEFAULTS, server_model_id: "6", rail_leaf_model_id: "7" };

describe("the GPU hall form", () => {
  it("DGX SuperPOD's shape by default: 4 SUs of 32 servers, 4 a rack, rail-only until a spine model is chosen", () => {
    expect(gpuClusterBody(chosen)).toEqual({
      value: {
        scalable_units: 4,
        servers_per_su: 32,
        server_model_id: 6,
        servers_per_rack: 4,
        rail_leaf_model_id: 7,
        spine_model_id: null,
        spines: 0,
        frontend_spine_model_id: null,
        frontend_spines: 0,
      },
    });
    const spined = gpuClusterBody({
      ...chosen,
      spine_model_id: "8",
      spines: "16",
      frontend_tor_model_id: "1",
      frontend_spine_model_id: "4",
      frontend_spines: "2",
    });
    expect(
      "value" in spined && [
        spined.value.spine_model_id,
        spined.value.spines,
        spined.value.frontend_tor_model_id,
        spined.value.frontend_spine_model_id,
        spined.value.frontend_spines,
      ],
    ).toEqual([8, 16, 1, 4, 2]);
  });

  it("asks for the models, whole numbers within the API's limits, each under its field", () => {
    expect(
      gpuClusterBody({
        ...GPU_DEFAULTS,
        scalable_units: "0",
        servers_per_su: "2.5",
        servers_per_rack: "65",
        spines: "",
      }),
    ).toEqual({
      errors: {
        scalable_units: "Scalable units (SUs) must be at least 1.",
        servers_per_su: "GPU servers per SU must be a whole number.",
        servers_per_rack: "GPU servers per rack can be at most 64.",
        spines: "Spines is required.",
        server_model_id: "Choose the GPU server model.",
        rail_leaf_model_id: "Choose the rail leaf model.",
      },
    });
  });

  it("a GPU hall's body is the hall's with its cluster; the errors of both parts come together", () => {
    const ok = gpuHallBody({ ...HALL_DEFAULTS, name: "GPU1", width_m: "40" }, chosen);
    expect("body" in ok && [ok.body.name, ok.body.width_m, ok.body.gpu_cluster?.servers_per_su]).toEqual([
      "GPU1",
      40,
      32,
    ]);
    expect(gpuHallBody({ ...HALL_DEFAULTS, name: "" }, { ...chosen, scalable_units: "x" })).toEqual({
      errors: { name: "Name is required.", scalable_units: "Scalable units (SUs) must be a number." },
    });
  });

  it("the server's refusals land at the field they name: the cluster's (gpu_cluster.<field>) and the floor's", () => {
    const err = new ApiError(422, [
      { loc: ["gpu_cluster", "servers_per_su"], msg: "an SU of 80 servers needs 80 server ports on each rail leaf" },
      { loc: ["width_m"], msg: "the GPU cluster's 5 rows need a floor of 31.2 x 18 m" },
      { loc: ["gpu_cluster", "spines"], msg: "a hall with a spine model needs at least 1 spine" },
    ]);
    expect(formErrors(err, { ...HALL_FIELDS, ...GPU_FIELDS })).toEqual({
      fields: {
        servers_per_su: "An SU of 80 servers needs 80 server ports on each rail leaf.",
        width_m: "The GPU cluster's 5 rows need a floor of 31.2 x 18 m.",
        spines: "A hall with a spine model needs at least 1 spine.",
      },
      form: null,
    });
  });

  it("names both kinds of hall", () => {
    expect(HALL_KIND_LABELS).toEqual({ gpu: "GPU hall", general: "general hall" });
  });
});
