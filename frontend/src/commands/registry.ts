/**
 * One registry of editor commands (Excalidraw `actions` style): `{id, label, keys, enabled, run}`.
 * It feeds the toolbar, the keyboard shortcuts and the help overlay. `run` is pure: it returns a diff
 * to commit, a session change, a history step, or an error; the UI performs it.
 */
import type { RecordsDiff } from "../model/diff";
import { hallOf, isRack, isRow, type RecordId, type Records } from "../model/records";
import {
  createFacingPair,
  deleteRecords,
  duplicateRow,
  flipFront,
  moveRecords,
  onFreeFloor,
  rotateRows,
  type CommandError,
  type Result,
} from "./layout";

export type ViewMode = "3d" | "plan" | "elevation";
export type ToolId = "select" | "draw-row";

export interface SessionPatch {
  view?: ViewMode;
  tool?: ToolId;
  helpOpen?: boolean;
  theme?: "dark" | "light";
  selection?: RecordId[];
  frameSelection?: boolean;
}

export interface CommandContext {
  records: Records;
  selection: readonly RecordId[];
  view: ViewMode;
  tool: ToolId;
  helpOpen: boolean;
  theme: "dark" | "light";
  canUndo: boolean;
  canRedo: boolean;
  /** The user may only read this project (viewer): commands that change the layout are off. */
  readOnly: boolean;
}

export type CommandOutcome =
  | { kind: "diff"; diff: RecordsDiff; select?: RecordId[] }
  | { kind: "session"; patch: SessionPatch }
  | { kind: "history"; step: "undo" | "redo" }
  | { kind: "error"; error: CommandError };

export interface Command {
  id: string;
  label: string;
  /** Shortcuts: `mod` is Ctrl (Cmd on macOS); e.g. `mod+shift+z`, `delete`, `1`. */
  keys: string[];
  group: "view" | "tools" | "edit" | "history" | "help";
  /** It changes the layout (or starts a tool that does): off while the project is read-only. */
  writes?: true;
  enabled: (ctx: CommandContext) => boolean;
  run: (ctx: CommandContext) => CommandOutcome;
}

const tileOf = (records: Records) => hallOf(records)?.tileMm ?? 600;
const hasSelection = (ctx: CommandContext) => ctx.selection.some((id) => ctx.records[id]);
const always = () => true;

function fromResult(r: Result, select?: (diff: RecordsDiff) => RecordId[]): CommandOutcome {
  if ("error" in r) return { kind: "error", error: r.error };
  return { kind: "diff", diff: r.diff, select: select?.(r.diff) };
}
const addedRows = (d: RecordsDiff) =>
  Object.values(d.added)
    .filter(isRow)
    .map((r) => r.id);

function nudge(id: string, label: string, keys: string[], dx: number, dy: number): Command {
  return {
    id,
    label,
    keys,
    group: "edit",
    writes: true,
    enabled: hasSelection,
    run: (ctx) => {
      const t = tileOf(ctx.records);
      return fromResult(moveRecords(ctx.records, ctx.selection, dx * t, dy * t, t));
    },
  };
}

export const COMMANDS: Command[] = [
  {
    id: "view.3d",
    label: "3D view",
    keys: ["1"],
    group: "view",
    enabled: always,
    run: () => ({ kind: "session", patch: { view: "3d" } }),
  },
  {
    id: "view.plan",
    label: "Plan view (top-down)",
    keys: ["2"],
    group: "view",
    enabled: always,
    run: () => ({ kind: "session", patch: { view: "plan" } }),
  },
  {
    id: "view.elevation",
    label: "Row elevation",
    keys: ["3"],
    group: "view",
    enabled: always,
    run: () => ({ kind: "session", patch: { view: "elevation" } }),
  },
  {
    id: "view.frame",
    label: "Frame selection",
    keys: ["f"],
    group: "view",
    enabled: always,
    run: () => ({ kind: "session", patch: { frameSelection: true } }),
  },
  {
    id: "view.theme",
    label: "Light / dark theme",
    keys: ["t"],
    group: "view",
    enabled: always,
    run: (ctx) => ({ kind: "session", patch: { theme: ctx.theme === "dark" ? "light" : "dark" } }),
  },
  {
    id: "tool.select",
    label: "Select",
    keys: ["v", "escape"],
    group: "tools",
    enabled: always,
    run: () => ({ kind: "session", patch: { tool: "select" } }),
  },
  {
    id: "tool.draw-row",
    writes: true,
    label: "Draw a row",
    keys: ["d"],
    group: "tools",
    enabled: always,
    // Drawing happens on the floor plan.
    run: (ctx) => ({
      kind: "session",
      patch: { tool: "draw-row", view: ctx.view === "elevation" ? "plan" : ctx.view },
    }),
  },
  {
    id: "edit.facing-pair",
    writes: true,
    label: "Add a facing pair (cold aisle)",
    keys: ["p"],
    group: "edit",
    enabled: (ctx) => Boolean(hallOf(ctx.records)),
    run: (ctx) => {
      const hall = hallOf(ctx.records);
      if (!hall) return { kind: "error", error: { field: "hall", message: "no hall loaded" } };
      const t = hall.tileMm;
      // Below everything already on the floor, 2 tiles from the wall.
      let y = 2 * t;
      for (const r of Object.values(ctx.records)) if (isRow(r)) y = Math.max(y, r.yMm + 2 * 1200 + 2 * t);
      // ...or, when that is off the floor or taken, the nearest free floor keeping the aisles.
      return fromResult(
        onFreeFloor(
          ctx.records,
          createFacingPair(ctx.records, {
            hallId: hall.id,
            xMm: 2 * t,
            yMm: Math.ceil(y / t) * t,
            direction: 0,
            count: 10,
          }),
          "a facing pair of 10 racks",
        ),
        addedRows,
      );
    },
  },
  {
    id: "edit.duplicate-row",
    writes: true,
    label: "Duplicate row at next aisle",
    keys: ["mod+d"],
    group: "edit",
    enabled: (ctx) => ctx.selection.some((id) => isRow(ctx.records[id])),
    run: (ctx) => {
      const rowId = ctx.selection.find((id) => isRow(ctx.records[id]));
      if (!rowId) return { kind: "error", error: { field: "selection", message: "select a row" } };
      const name = (ctx.records[rowId] as { name: string }).name;
      return fromResult(
        onFreeFloor(ctx.records, duplicateRow(ctx.records, { rowId }), `a copy of row ${name}`),
        addedRows,
      );
    },
  },
  {
    id: "edit.delete",
    writes: true,
    label: "Delete",
    keys: ["delete", "backspace"],
    group: "edit",
    enabled: hasSelection,
    run: (ctx) => fromResult(deleteRecords(ctx.records, ctx.selection), () => []),
  },
  {
    id: "edit.rotate",
    writes: true,
    label: "Rotate row 90°",
    keys: ["r"],
    group: "edit",
    enabled: (ctx) => ctx.selection.some((id) => isRow(ctx.records[id])),
    run: (ctx) => fromResult(rotateRows(ctx.records, ctx.selection, tileOf(ctx.records))),
  },
  {
    id: "edit.flip-front",
    writes: true,
    label: "Flip front side",
    keys: ["shift+f"],
    group: "edit",
    enabled: hasSelection,
    run: (ctx) => fromResult(flipFront(ctx.records, ctx.selection)),
  },
  nudge("edit.nudge-left", "Move left one tile", ["arrowleft"], -1, 0),
  nudge("edit.nudge-right", "Move right one tile", ["arrowright"], 1, 0),
  nudge("edit.nudge-up", "Move up one tile", ["arrowup"], 0, -1),
  nudge("edit.nudge-down", "Move down one tile", ["arrowdown"], 0, 1),
  {
    id: "edit.select-all",
    label: "Select all rows",
    keys: ["mod+a"],
    group: "edit",
    enabled: always,
    run: (ctx) => ({
      kind: "session",
      patch: {
        selection: Object.values(ctx.records)
          .filter(isRow)
          .map((r) => r.id),
      },
    }),
  },
  {
    id: "edit.select-row",
    label: "Select the rack's row",
    keys: ["shift+r"],
    group: "edit",
    enabled: (ctx) => ctx.selection.some((id) => isRack(ctx.records[id])),
    run: (ctx) => ({
      kind: "session",
      patch: {
        selection: [
          ...new Set(
            ctx.selection
              .map((id) => ctx.records[id])
              .filter(isRack)
              .map((r) => r.rowId),
          ),
        ],
      },
    }),
  },
  {
    id: "history.undo",
    writes: true,
    label: "Undo",
    keys: ["mod+z"],
    group: "history",
    enabled: (ctx) => ctx.canUndo,
    run: () => ({ kind: "history", step: "undo" }),
  },
  {
    id: "history.redo",
    writes: true,
    label: "Redo",
    keys: ["mod+shift+z", "mod+y"],
    group: "history",
    enabled: (ctx) => ctx.canRedo,
    run: () => ({ kind: "history", step: "redo" }),
  },
  {
    id: "help.toggle",
    label: "Keyboard shortcuts",
    keys: ["?", "shift+?"],
    group: "help",
    enabled: always,
    run: (ctx) => ({ kind: "session", patch: { helpOpen: !ctx.helpOpen } }),
  },
];

/** Whether `cmd` may run now: its own condition, and never a write on a read-only project. */
export function isEnabled(cmd: Command, ctx: CommandContext): boolean {
  return !(cmd.writes && ctx.readOnly) && cmd.enabled(ctx);
}

export const COMMANDS_BY_ID: Record<string, Command> = Object.fromEntries(COMMANDS.map((c) => [c.id, c]));

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** The normalised shortcut string of a key event: `mod+shift+z`, `delete`, `?`. */
export function keyString(e: KeyLike): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push("mod");
  if (e.altKey) parts.push("alt");
  if (e.shiftKey) parts.push("shift");
  parts.push(e.key.length === 1 ? e.key.toLowerCase() : e.key.toLowerCase());
  return parts.join("+");
}

export function commandForKey(e: KeyLike): Command | undefined {
  const k = keyString(e);
  return COMMANDS.find((c) => c.keys.includes(k));
}

/** How a shortcut reads in the help overlay. */
export function formatKey(k: string, mac = false): string {
  return k
    .split("+")
    .map((p) =>
      p === "mod"
        ? mac
          ? "⌘"
          : "Ctrl"
        : p === "shift"
          ? "Shift"
          : p.length === 1
            ? p.toUpperCase()
            : p.charAt(0).toUpperCase() + p.slice(1),
    )
    .join(" + ");
}
