/**
 * The records store with undo/redo (tldraw `packages/store` + `HistoryManager` style).
 *
 * Every user commit is a diff; `undo()` applies the inverse of the diffs back to the previous mark, so
 * one command (which starts with `mark()`) is one undo step. A gesture does `mark(id)`, any number of
 * updates, then either nothing (kept) or `bailToMark(id)` on Escape (reverted, nothing to redo).
 * Server changes (`applyRemote`) change the records but never enter the undo stack.
 */
import { applyDiff, emptyDiff, isEmptyDiff, reverseDiff, squashDiffs, type RecordsDiff } from "./diff";
import type { Records } from "./records";

export type ChangeSource = "user" | "undo" | "redo" | "remote";
/** The selection (record ids) before and after a step: undo puts back `before`, redo `after`. */
export interface StepSelection {
  before: readonly string[];
  after: readonly string[];
}
type Entry = { type: "diff"; diff: RecordsDiff; selection?: StepSelection } | { type: "mark"; id: string };
export type Listener = (diff: RecordsDiff, source: ChangeSource) => void;

let markCounter = 0;

export class EditorStore {
  private recs: Records;
  private undos: Entry[] = [];
  private redos: Entry[] = [];
  private readonly listeners = new Set<Listener>();
  /** Bumped on every change; React subscribes through it (useSyncExternalStore). */
  revision = 0;
  /** The selection the last undo or redo restores (null when its step recorded none). */
  restoredSelection: readonly string[] | null = null;

  constructor(initial: Records = {}) {
    this.recs = initial;
  }

  get records(): Records {
    return this.recs;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(diff: RecordsDiff, source: ChangeSource) {
    this.revision += 1;
    for (const l of this.listeners) l(diff, source);
  }

  mark(id = `mark${++markCounter}`): string {
    const last = this.undos[this.undos.length - 1];
    // Consecutive marks with nothing between them are one.
    if (last?.type === "mark") last.id = id;
    else this.undos.push({ type: "mark", id });
    return id;
  }

  /** Commit a user edit: recorded for undo, sent to the server by sync. */
  commit(diff: RecordsDiff, selection?: StepSelection): void {
    if (isEmptyDiff(diff)) return;
    this.recs = applyDiff(this.recs, diff);
    const last = this.undos[this.undos.length - 1];
    if (last?.type === "diff") {
      last.diff = squashDiffs(last.diff, diff);
      // One step: the selection before its first diff, after its last.
      if (selection) last.selection = { before: last.selection?.before ?? selection.before, after: selection.after };
    } else this.undos.push({ type: "diff", diff, selection });
    this.redos = [];
    this.emit(diff, "user");
  }

  /** A change that came from the server (load, reload after a conflict): not undoable. */
  applyRemote(diff: RecordsDiff): void {
    if (isEmptyDiff(diff)) return;
    this.recs = applyDiff(this.recs, diff);
    this.emit(diff, "remote");
  }

  /** Drop the undo/redo stacks (after a reload the old diffs no longer describe the records). */
  clearHistory(): void {
    this.undos = [];
    this.redos = [];
    this.emit(emptyDiff(), "remote");
  }

  get canUndo(): boolean {
    return this.undos.some((e) => e.type === "diff");
  }
  get canRedo(): boolean {
    return this.redos.some((e) => e.type === "diff");
  }

  /** Revert everything since the last mark; returns the diff applied (empty when nothing to undo). */
  undo(): RecordsDiff | null {
    return this.rewind("undo");
  }

  redo(): RecordsDiff | null {
    let combined: RecordsDiff | null = null;
    let selection: readonly string[] | null = null;
    // Re-apply forward to the next mark.
    for (let e = this.redos.at(-1); e; e = this.redos.at(-1)) {
      if (e.type === "mark" && combined) break;
      this.redos.pop();
      this.undos.push(e);
      if (e.type === "diff") {
        combined = combined ? squashDiffs(combined, e.diff) : e.diff;
        selection = e.selection?.after ?? selection;
      }
    }
    if (!combined) return null;
    this.restoredSelection = selection;
    this.recs = applyDiff(this.recs, combined);
    this.emit(combined, "redo");
    return combined;
  }

  /** Revert to mark `id` without keeping anything to redo (Escape during a gesture). */
  bailToMark(id: string): void {
    let combined: RecordsDiff | null = null;
    for (let e = this.undos.pop(); e; e = this.undos.pop()) {
      if (e.type === "mark") {
        if (e.id === id) break;
        continue;
      }
      const inv = reverseDiff(e.diff);
      combined = combined ? squashDiffs(combined, inv) : inv;
    }
    if (combined && !isEmptyDiff(combined)) {
      this.recs = applyDiff(this.recs, combined);
      this.emit(combined, "undo");
    }
  }

  private rewind(source: "undo"): RecordsDiff | null {
    let combined: RecordsDiff | null = null;
    let selection: readonly string[] | null = null;
    const moved: Entry[] = [];
    for (let e = this.undos.pop(); e; e = this.undos.pop()) {
      moved.push(e);
      if (e.type === "mark") {
        if (combined) break;
        continue;
      }
      const inv = reverseDiff(e.diff);
      combined = combined ? squashDiffs(combined, inv) : inv;
      // Walking back: the earliest diff of the step holds the selection from before it.
      selection = e.selection?.before ?? selection;
    }
    if (!combined) {
      // Nothing but marks: put them back.
      this.undos.push(...moved.reverse());
      return null;
    }
    // Redo pops from the end: the mark comes off first, then the diffs in their original order.
    for (const e of moved) this.redos.push(e);
    this.restoredSelection = selection;
    this.recs = applyDiff(this.recs, combined);
    this.emit(combined, source);
    return combined;
  }
}
