/** The document: one `EditorStore` for the page (records, undo/redo), and React hooks that read it. */
import { useSyncExternalStore } from "react";
import { EditorStore } from "../model/history";
import type { Records } from "../model/records";

/** The one document store of the page. */
export const editor = new EditorStore();

export function useRecords(): Records {
  return useSyncExternalStore(
    (cb) => editor.subscribe(cb),
    () => editor.records,
  );
}

export function useHistoryFlags(): { canUndo: boolean; canRedo: boolean } {
  const rev = useSyncExternalStore(
    (cb) => editor.subscribe(cb),
    () => editor.revision,
  );
  void rev;
  return { canUndo: editor.canUndo, canRedo: editor.canRedo };
}
