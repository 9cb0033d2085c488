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
  panel: "layout" | "wiring" | "plans";
  /** Open project and hall (server ids). */
  projectId: number | null;
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
  hallId: null,
  frameTarget: null,
  errors: [],
  notices: [],
  saving: 0,
  lastSavedAt: null,
  rollbacks: 0,
}));

let noticeId = 0;
export function notify(kind: Notice["kind"], text: string): void {
  const n = { id: ++noticeId, kind, text };
  useSession.setState((s) => ({ notices: [...s.notices.slice(-3), n] }));
  if (kind === "info") setTimeout(() => dismiss(n.id), 4000);
}
export function dismiss(id: number): void {
  useSession.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
}

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
  if (s.selection !== prev.selection && s.errors.some((e) => e.target === "props")) clearErrors("props");
  if ((s.selection !== prev.selection || s.view !== prev.view) && s.errors.some(onFloor))
    useSession.setState({ errors: useSession.getState().errors.filter((e) => !onFloor(e)) });
});
