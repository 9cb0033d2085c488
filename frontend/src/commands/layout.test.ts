import { describe, expect, it } from "vitest";
import { applyDiff } from "../model/diff";
import { isRack, racksOf, rowsOf, type RackRecord, type Records, type RowRecord } from "../model/records";
import { HALL, hallOnly } from "../model/testing";
import { createRow, deleteRecords, moveRecords, rotateRows, updateRackContents, type Result } from "./layout";
import { commandForKey, COMMANDS, keyString } from "./registry";

function apply(records: Records, r: Result): Records {
  if ("error" in r) throw new Error(r.error.message);
  return applyDiff(records, r.diff);
}
function oneRow(count = 4, xMm = 0, yMm = 0): Records {
  return apply(
    hallOnly(),
    createRow(hallOnly(), {
      hallId: HALL.id,
      draft: { xMm, yMm, direction: 0, count, lengthMm: count * 600 },
      front: "left",
    }),
  );
}

describe("layout commands", () => {
  it("names rows and racks in order", () => {
    let records = oneRow(3);
    records = apply(
      records,
      createRow(records, {
        hallId: HALL.id,
        draft: { xMm: 0, yMm: 4800, direction: 0, count: 1, lengthMm: 600 },
        front: "right",
      }),
    );
    expect(rowsOf(records).map((r) => r.name)).toEqual(["R01", "R02"]);
    expect(racksOf(records, rowsOf(records)[0]!.id).map((r) => r.name)).toEqual(["R01-01", "R01-02", "R01-03"]);
  });

  it("applies rack contents to a whole row and validates the fit", () => {
    const records = oneRow(3);
    const row = rowsOf(records)[0]!;
    const next = apply(records, updateRackContents(records, [row.id], { serversPerLogicalRack: 20 }));
    expect(racksOf(next, row.id).every((r) => r.serversPerLogicalRack === 20)).toBe(true);
    const tooMany = updateRackContents(records, [row.id], { serversPerLogicalRack: 25 });
    expect(tooMany).toMatchObject({ error: { field: "serversPerLogicalRack" } });
    expect("error" in tooMany && tooMany.error.message).toContain("needs 52U");
    expect(updateRackContents(records, [row.id], { portsUsed: 3 })).toMatchObject({ error: { field: "portsUsed" } });
    expect(updateRackContents(records, [], { portsUsed: 1 })).toMatchObject({ error: { field: "selection" } });
  });

  it("moves rows by snapped tiles and racks by whole rack widths without overlap", () => {
    const records = oneRow(4);
    const row = rowsOf(records)[0]!;
    const moved = apply(records, moveRecords(records, [row.id], 650, 1150, 600));
    expect(moved[row.id]).toMatchObject({ xMm: 600, yMm: 1200 });
    const racks = racksOf(records, row.id);
    const last = racks[3]!;
    const slid = apply(records, moveRecords(records, [last.id], 1300, 0, 600));
    expect((slid[last.id] as RackRecord).positionMm).toBe(1800 + 1200);
    expect(moveRecords(records, [racks[2]!.id], 600, 0, 600)).toMatchObject({
      error: { field: "placement", message: "Rack R01-03 would overlap rack R01-04.", target: racks[2]!.id },
    });
  });

  it("rotates about the centre and deletes rows with their racks", () => {
    const records = oneRow(4, 3000, 3000);
    const row = rowsOf(records)[0]!;
    const rotated = apply(records, rotateRows(records, [row.id], 600));
    expect((rotated[row.id] as RowRecord).direction).toBe(90);
    const gone = apply(records, deleteRecords(records, [row.id]));
    expect(Object.values(gone).filter(isRack)).toHaveLength(0);
  });
});

describe("command registry", () => {
  const ev = (key: string, mods: Partial<{ ctrlKey: boolean; shiftKey: boolean }> = {}) => ({
    key,
    ctrlKey: false,
    metaKey: false,
    shiftKey: false,
    altKey: false,
    ...mods,
  });
  it("maps shortcuts to commands", () => {
    expect(keyString(ev("Z", { ctrlKey: true, shiftKey: true }))).toBe("mod+shift+z");
    expect(commandForKey(ev("z", { ctrlKey: true }))?.id).toBe("history.undo");
    expect(commandForKey(ev("Z", { ctrlKey: true, shiftKey: true }))?.id).toBe("history.redo");
    expect(commandForKey(ev("Delete"))?.id).toBe("edit.delete");
    expect(commandForKey(ev("2"))?.id).toBe("view.plan");
  });
  it("has unique ids and shortcuts", () => {
    const keys = COMMANDS.flatMap((c) => c.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length);
  });
});
