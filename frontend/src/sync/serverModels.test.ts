import { describe, expect, it } from "vitest";
import { serverModelSwitch } from "./serverModels";

describe("server model switch", () => {
  it("switching the server model touches only the racks, and the logical racks, short of NIC ports", () => {
    const lr = (model: number) => ({
      servers: 15,
      server_model_id: model,
      ports_used: 2,
      tor_model_id: 7,
      tor_position: "top",
      base_u: 1,
    });
    const racks = [
      { id: 1, version: 3, logical_racks: [lr(1), lr(2)] }, // model 1: 2 ports (short), model 2: 4 ports
      { id: 2, version: 5, logical_racks: [lr(2)] },
      { id: 3, version: 1, logical_racks: [] }, // a network rack
    ];
    const ports = new Map([
      [1, 2],
      [2, 4],
    ]);
    expect(serverModelSwitch(racks, ports, 3, 9)).toEqual([
      { rackId: 1, version: 3, body: { logical_racks: [lr(9), lr(2)] } },
    ]);
  });
});
