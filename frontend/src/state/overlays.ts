/**
 * DOM overlays over the canvas, shared by the scene (which writes them directly after each frame or
 * pointer move, no React render) and ui/ (which renders the elements and registers them here):
 * floor labels (row names, aisle widths), the draw readout, the cable tooltip.
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

/** The dimension readout of the row being drawn (rendered by ui/DrawReadout, filled by scene/Overlays). */
export const readoutRef: { current: HTMLDivElement | null } = { current: null };

/** The cable tooltip (rendered by ui/CableTooltip, filled by the cable picker in scene/Cables). */
export const tooltipRef: { current: HTMLDivElement | null } = { current: null };
