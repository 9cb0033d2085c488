import { describe, expect, it } from "vitest";
import { applyDiff, emptyDiff } from "../model/diff";
import { DEFAULT_CONTENTS, type AnyRecord, type RackRecord, type Records } from "../model/records";
import { HALL, hallOnly } from "../model/testing";
import { placements } from "./selectors";

function hall(rows: number, perRow: number): Records {
  const out: Record<string, AnyRecord> = { ...hallOnly() };
  for (let r = 0; r < rows; r++) {
    out[`row:${r}`] = {
      typeName: "row",
      id: `row:${r}`,
      hallId: HALL.id,
      name: `R${r}`,
      xMm: 600,
      yMm: 600 + r * 3000,
      direction: 0,
      front: "left",
    };
    for (let k = 0; k < perRow; k++) {
      const n = r * 100 + k;
      out[`rack:${n}`] = {
        ...DEFAULT_CONTENTS,
        typeName: "rack",
        role: "compute",
        fabricSwitches: [],
        id: `rack:${n}`,
        rowId: `row:${r}`,
        name: `K${n}`,
        positionMm: k * 600,
      };
    }
  }
  return out;
}

describe("scene selectors", () => {
  it("placements: an unrelated rack's placement is the same object after an edit elsewhere", () => {
    const before = hall(2, 3);
    const p0 = placements(before);
    const moved = before["rack:100"] as RackRecord;
    const after = applyDiff(before, {
      ...emptyDiff(),
      updated: { [moved.id]: [moved, { ...moved, positionMm: 4800 }] },
    });
    const p1 = placements(after);
    expect(p1).toHaveLength(6);
    p1.forEach((p, i) => {
      if (p.id === moved.id) expect(p).not.toBe(p0[i]);
      else expect(p).toBe(p0[i]);
    });
  });
});
