import { describe, expect, it } from "vitest";
import { CATALOG_KINDS, entryBody } from "./Catalog";

describe("entryBody", () => {
  it("sends numbers as numbers, leaves empty fields out and anything else as typed for the API to judge", () => {
    const body = entryBody(CATALOG_KINDS["rack-types"], {
      name: " 47U ",
      width_m: "0,8",
      depth_m: "",
      height_u: "tall",
    });
    expect(body).toEqual({ name: "47U", width_m: 0.8, height_u: "tall" });
  });
  it("keeps every field of each kind the API takes", () => {
    expect(CATALOG_KINDS["switch-models"].columns.map((c) => c.key)).toEqual([
      "name",
      "server_ports",
      "server_port_gbps",
      "uplink_ports",
      "uplink_gbps",
      "height_u",
    ]);
  });
});
