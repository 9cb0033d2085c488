/**
 * Floor labels (row names, aisle widths) as plain DOM over the canvas. The scene projects their
 * anchors after each rendered frame and moves the elements directly (no React render per frame).
 */
import { create } from "zustand";

export interface FloorLabel {
  key: string;
  /** Anchor in world metres (x, up, z). */
  x: number;
  y: number;
  z: number;
  text: string;
  className: string;
  title?: string;
  data?: Record<string, string>;
}

export const useFloorLabels = create<{ groups: Record<string, FloorLabel[]> }>(() => ({ groups: {} }));

export function setLabelGroup(group: string, labels: FloorLabel[]): void {
  useFloorLabels.setState((s) => ({ groups: { ...s.groups, [group]: labels } }));
}

/** Elements by key, registered by the label layer. */
export const labelElements = new Map<string, HTMLElement>();
