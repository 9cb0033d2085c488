/**
 * Previews of the gesture in progress (tldraw's "live" state): written on every pointer move, read
 * by the scene through subscriptions that update Three.js objects and DOM text directly — never
 * through React state, so a drag re-renders nothing.
 */
import { createStore } from "zustand/vanilla";
import type { Box, RowDraft, Vec2 } from "../model/geometry";
import type { PlacementProblem } from "../model/placement";

export interface LiveState {
  /** Row being drawn. */
  draft: RowDraft | null;
  /** Box selection rectangle on the floor (mm). */
  box: Box | null;
  /** Move in progress: offset of the dragged selection (mm, unsnapped). */
  move: Vec2 | null;
  /** Floor point under the pointer (mm), for the status bar. */
  pointer: Vec2 | null;
  /** Why the row being drawn or moved cannot stand there (the preview turns red with it). */
  problem: PlacementProblem | null;
}

export const live = createStore<LiveState>(() => ({
  draft: null,
  box: null,
  move: null,
  pointer: null,
  problem: null,
}));
