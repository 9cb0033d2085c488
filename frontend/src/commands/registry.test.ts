import { describe, expect, it } from "vitest";
import { isRack, isRow } from "../model/records";
import { HALL, hallOnly } from "../model/testing";
import { createRow } from "./layout";
import { COMMANDS, isEnabled, type CommandContext } from "./registry";

/** A hall with one row, the row and a rack selected, a step to undo and one to redo: every command has what it needs. */
function context(readOnly: boolean): CommandContext {
  const r = createRow(hallOnly(), {
    hallId: HALL.id,
    draft: { xMm: 1200, yMm: 1200, direction: 0, count: 3, lengthMm: 1800 },
    front: "left",
  });
  if ("error" in r) throw new Error(r.error.message);
  const records = { ...hallOnly(), ...r.diff.added };
  const row = Object.values(records).find(isRow)!;
  const rack = Object.values(records).find(isRack)!;
  return {
    records,
    selection: [row.id, rack.id],
    view: "plan",
    tool: "select",
    helpOpen: false,
    theme: "dark",
    canUndo: true,
    canRedo: true,
    readOnly,
  };
}

describe("read-only projects", () => {
  const WRITES = [
    "tool.draw-row",
    "edit.facing-pair",
    "edit.duplicate-row",
    "edit.delete",
    "edit.rotate",
    "edit.flip-front",
    "edit.nudge-left",
    "edit.nudge-right",
    "edit.nudge-up",
    "edit.nudge-down",
    "history.undo",
    "history.redo",
  ];

  it("turns off exactly the commands that change the layout", () => {
    const editing = context(false);
    const viewing = context(true);
    // With something to act on, every command runs for an editor...
    expect(COMMANDS.filter((c) => !isEnabled(c, editing)).map((c) => c.id)).toEqual([]);
    // ...and for a viewer all but the writes: views, selecting, help and theme stay.
    expect(
      COMMANDS.filter((c) => !isEnabled(c, viewing))
        .map((c) => c.id)
        .sort(),
    ).toEqual([...WRITES].sort());
    expect(COMMANDS.filter((c) => c.writes).map((c) => c.id)).toEqual(expect.arrayContaining(WRITES));
  });
});
