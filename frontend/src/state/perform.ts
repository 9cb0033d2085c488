/** Runs registry commands against the stores: the only place a command's outcome is performed. */
import {
  COMMANDS_BY_ID,
  isEnabled,
  type Command,
  type CommandContext,
  type CommandOutcome,
} from "../commands/registry";
import type { RecordsDiff } from "../model/diff";
import { isRack, isRow, type RecordId } from "../model/records";
import { editor } from "./editor";
import { clearErrors, notify, setErrors, useSession } from "./session";

export const READ_ONLY_EDIT = "This project is read-only to you (viewer): nothing was changed.";

export function commandContext(): CommandContext {
  const s = useSession.getState();
  return {
    records: editor.records,
    selection: s.selection,
    view: s.view,
    tool: s.tool,
    helpOpen: s.helpOpen,
    theme: s.theme,
    canUndo: editor.canUndo,
    canRedo: editor.canRedo,
    readOnly: s.readOnly,
  };
}

/** Commit one user edit as one undo step. */
export function commitEdit(diff: RecordsDiff, select?: RecordId[]): void {
  // Every user edit comes through here: a viewer's (a tool, a panel, a shortcut) stops here, unsent.
  if (useSession.getState().readOnly) {
    notify("error", READ_ONLY_EDIT);
    return;
  }
  const before = useSession.getState().selection;
  editor.mark();
  // The step remembers the selection on both sides, so undo and redo give it back with the records.
  editor.commit(diff, { before, after: select ?? before });
  if (select) useSession.setState({ selection: select });
  pruneSelection();
}

function pruneSelection() {
  const { selection } = useSession.getState();
  const kept = selection.filter((id) => editor.records[id]);
  if (kept.length !== selection.length) useSession.setState({ selection: kept });
}

export function perform(outcome: CommandOutcome, target = "editor"): boolean {
  switch (outcome.kind) {
    case "diff":
      clearErrors(target);
      commitEdit(outcome.diff, outcome.select);
      return true;
    case "history": {
      if (useSession.getState().readOnly) return false;
      const d = outcome.step === "undo" ? editor.undo() : editor.redo();
      if (!d) return false;
      if (editor.restoredSelection) useSession.setState({ selection: [...editor.restoredSelection] });
      pruneSelection();
      notify("info", outcome.step === "undo" ? "Undone" : "Redone");
      return true;
    }
    case "session": {
      const { frameSelection, ...patch } = outcome.patch;
      const s = useSession.getState();
      const next: Partial<typeof s> = { ...patch };
      if (frameSelection) next.frameRequest = s.frameRequest + 1;
      if (patch.view === "elevation" && !s.elevationRowId) next.elevationRowId = rowOfSelection(s.selection);
      if (patch.view && patch.view !== s.view) next.frameRequest = s.frameRequest + 1;
      if (patch.theme) localStorage.setItem("loopline.theme", patch.theme);
      useSession.setState(next);
      return true;
    }
    case "error": {
      // Next to the row or rack it is about (on the floor), else next to the panel that asked.
      const on = outcome.error.target && editor.records[outcome.error.target] ? outcome.error.target : target;
      setErrors(on, [{ field: outcome.error.field, message: outcome.error.message }]);
      notify("error", outcome.error.message);
      return false;
    }
  }
}

export function rowOfSelection(selection: readonly RecordId[]): RecordId | null {
  for (const id of selection) {
    const rec = editor.records[id];
    if (isRow(rec)) return rec.id;
    if (isRack(rec)) return rec.rowId;
  }
  return null;
}

export function runCommand(cmd: Command | string): boolean {
  const c = typeof cmd === "string" ? COMMANDS_BY_ID[cmd] : cmd;
  if (!c) return false;
  const ctx = commandContext();
  if (!isEnabled(c, ctx)) return false;
  return perform(c.run(ctx));
}
