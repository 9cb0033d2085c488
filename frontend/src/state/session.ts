/**
 * Session state (not part of the document, never undone, never saved): view, tool, selection,
 * overlays, theme, messages. One zustand store; the records live in `editor` (./editor.ts).
 */
import { create } from "zustand";
import type { ToolId, ViewMode } from "../commands/registry";
import type { RecordId } from "../model/records";

export interface FieldError {
  /** Record the error is about (a rack, a row) or a panel (`wiring`, `login`). */
  target: string;
  field: string;
  message: string;
  /** Where on the floor (mm) to show it when the target is not a record (a row that was not laid). */
  at?: { x: number; y: number };
}

export interface Notice {
  id: number;
  kind: "conflict" | "error" | "info";
  text: string;
}

export interface SessionState {
  view: ViewMode;
  tool: ToolId;
  selection: RecordId[];
  helpOpen: boolean;
  theme: "dark" | "light";
  /** Front side for rows being drawn. */
  drawFront: "left" | "right";
  /** Increments to ask the camera to frame the selection. */
  frameRequest: number;
  /** Row shown in the elevation view (the selection's row by default). */
  elevationRowId: RecordId | null;
  panel: "layout" | "wiring" | "plans" | "names" | "facility";
  /** Open project and hall (server ids). */
  projectId: number | null;
  /** The open project's role is viewer: every write control is disabled and edits are refused here. */
  readOnly: boolean;
  hallId: number | null;
  /** When set, the next frame request frames this floor box (mm) instead of the selection. */
  frameTarget: { x0: number; y0: number; x1: number; y1: number } | null;
  errors: FieldError[];
  notices: Notice[];
  saving: number;
  lastSavedAt: number | null;
  /** Increments when the server refused an edit and the saved layout was reloaded (tools drop previews). */
  rollbacks: number;
}

export const useSession = create<SessionState>(() => ({
  view: "3d",
  tool: "select",
  selection: [],
  helpOpen: false,
  theme: typeof localStorage !== "undefined" && localStorage.getItem("loopline.theme") === "light" ? "light" : "dark",
  drawFront: "left",
  frameRequest: 0,
  elevationRowId: null,
  panel: "layout",
  projectId: null,
  readOnly: false,
  hallId: null,
  frameTarget: null,
  errors: [],
  notices: [],
  saving: 0,
  lastSavedAt: null,
  rollbacks: 0,
}));

/**
 * How long a notice stays (ms). Errors stay long enough to be read; the field error next to what
 * caused them (setErrors) stays until the next selection or view, the notice need not.
 */
export const NOTICE_MS: Record<Notice["kind"], number> = { info: 4000, error: 10_000, conflict: 15_000 };

let noticeId = 0;
export function notify(kind: Notice["kind"], text: string): void {
  const n = { id: ++noticeId, kind, text };
  useSession.setState((s) => ({ notices: [...s.notices.slice(-3), n] }));
  setTimeout(() => dismiss(n.id), NOTICE_MS[kind]);
}
export function dismiss(id: number): void {
  useSession.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}

/** Whether the open project is read-only to this user (viewer role): write controls use it to disable. */
export const useReadOnly = (): boolean => useSession((s) => s.readOnly);

/** What a write control's tooltip says while it is disabled for a viewer. */
export const READ_ONLY_TITLE = "Read-only: you are a viewer of this project";

export function setErrors(target: string, errors: Omit<FieldError, "target">[]): void {
  useSession.setState((s) => ({
    errors: [...s.errors.filter((e) => e.target !== target), ...errors.map((e) => ({ ...e, target }))],
  }));
}
export function clearErrors(target: string): void {
  setErrors(target, []);
}

/** Ask the camera to frame `target` (a floor box in mm), or the selection when none is given. */
export function requestFrame(target: SessionState["frameTarget"] = null): void {
  useSession.setState((s) => ({ ...(target ? { frameTarget: target } : {}), frameRequest: s.frameRequest + 1 }));
}

// Field errors belong to what was selected when they happened; messages on the floor are about the
// gesture that caused them and go with the next selection or view (they never outlive a rollback).
const onFloor = (e: FieldError) => /^(row|rack):/.test(e.target) || e.at !== undefined;
useSession.subscribe((s, prev) => {
  // An error is about the tab it happened in: another tab does not carry it along.
  if (s.panel !== prev.panel && s.notices.some((n) => n.kind === "error"))
    useSession.setState({ notices: useSession.getState().notices.filter((n) => n.kind !== "error") });
  if (s.selection !== prev.selection && s.errors.some((e) => e.target === "props")) clearErrors("props");
  if ((s.selection !== prev.selection || s.view !== prev.view) && s.errors.some(onFloor))
    useSession.setState({ errors: useSession.getState().errors.filter((e) => !onFloor(e)) });
});
