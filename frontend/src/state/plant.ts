/**
 * A structured plan's passive plant as the editor shows it (issue 29): the plant the server built
 * (panels, trunks, counts, findings: `GET /wiring-plans/{id}/plant`), the focused link's chain of
 * segments (`GET .../cables/{cable_id}/chain`) and the panel whose port map is open. The server owns
 * how links map to panels and trunks; nothing here recomputes it. Loaded by the scene (scene/Plant.tsx),
 * drawn there, listed by the wiring panel.
 */
import { create } from "zustand";
import type { paths } from "../api/schema";
import { debugHandle } from "./testHook";

type Json<Op> = Op extends { responses: { 200: { content: { "application/json": infer R } } } } ? R : never;

export type PlantRead = Json<paths["/api/v1/wiring-plans/{plan_id}/plant"]["get"]>;
export type ChainRead = Json<paths["/api/v1/wiring-plans/{plan_id}/cables/{cable_id}/chain"]["get"]>;
export type PanelMapRead = Json<paths["/api/v1/wiring-plans/{plan_id}/plant/panels/{panel_id}"]["get"]>;
export type PlantPanel = PlantRead["panels"][number];
export type PlantItem = PlantRead["trunks"][number];
export type ChainStep = ChainRead["steps"][number];

export interface PlantState {
  /** The plan the plant (or its failure) is of; null while no structured plan is on screen. */
  planId: number | null;
  plant: PlantRead | null;
  /** Why the plant could not be read (shown in the wiring panel). */
  error: string | null;
  /** The focused link's chain, once read (null while none is focused or it is being read). */
  chain: ChainRead | null;
  chainError: string | null;
  /** The panel whose front/rear port map is open. */
  openPanel: string | null;
}

export const usePlant = create<PlantState>(() => ({
  planId: null,
  plant: null,
  error: null,
  chain: null,
  chainError: null,
  openPanel: null,
}));

/** How the plant is drawn (the scene) and named in the legend (ui): none is a cable medium's colour. */
export const PLANT_COLOURS = {
  panel: { colour: "#e879f9", label: "patch panel" },
  trunk: { colour: "#f8fafc", label: "trunk (one tube per trunk)" },
  chain: { colour: "#f59e0b", label: "selected link's chain" },
} as const;

/** A plan is structured when its stored spec (the request it was generated from) says so. */
export function isStructured(spec: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return spec?.cabling === "structured";
}

/** The rack part of a device or panel name (`H1.R01.K03.U22` -> `H1.R01.K03`; a port after `:` dropped). */
export function rackOfName(name: string): string {
  const device = name.split(":")[0] ?? name;
  const cut = device.lastIndexOf(".");
  return cut < 0 ? device : device.slice(0, cut);
}

export interface ChainParts {
  /** Panels the chain passes through (their ids), A end first. */
  panels: string[];
  /** Trunks, cords and breakout cables of the chain (item ids). */
  trunks: string[];
  cords: { itemId: string; aEnd: string; bEnd: string }[];
  /** The link's two device ends (the A end: the ToR; B: the fabric switch). */
  devices: string[];
}

/**
 * What of the plant a chain uses, from its steps alone: each end naming a known panel is a panel
 * passed, trunks are the trunk steps, cords and breakout cables the cable steps ending at a device.
 */
export function chainParts(steps: readonly ChainStep[], panelIds: ReadonlySet<string>): ChainParts {
  const panels: string[] = [];
  const trunks: string[] = [];
  const cords: ChainParts["cords"] = [];
  const devices: string[] = [];
  const seen = new Set<string>();
  const passPanel = (end: string) => {
    if (panelIds.has(end) && !seen.has(end)) {
      seen.add(end);
      panels.push(end);
    }
  };
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  for (const s of ordered) {
    const it = s.item;
    passPanel(it.a_end);
    passPanel(it.b_end);
    if (it.kind === "trunk") trunks.push(it.item_id);
    else if (it.kind !== "panel port") cords.push({ itemId: it.item_id, aEnd: it.a_end, bEnd: it.b_end });
    for (const end of [it.a_end, it.b_end]) if (!panelIds.has(end) && !devices.includes(end)) devices.push(end);
  }
  return { panels, trunks, cords, devices };
}

/** What the scene drew of the plant (tests read `window.__loopline.plant`). */
export interface PlantReport {
  planId: number;
  panels: number;
  trunks: number;
  /** Trunks drawn along a routed link of theirs / straight between their panels (no link route found). */
  trunksRouted: number;
  trunksStraight: number;
  /** The highlighted chain: the focused link and the plant parts lit for it. */
  chain: { cableId: string; panels: string[]; trunks: string[]; cords: number } | null;
  /** Centre of a drawn panel's face in hall millimetres (x, y on the floor, z up), for tests that click it. */
  panelPoint: (panelId: string) => { x: number; y: number; z: number } | null;
}

declare module "./testHook" {
  interface LooplineDebug {
    plant?: PlantReport | null;
  }
}

export function reportPlant(report: PlantReport | null): void {
  debugHandle().plant = report;
}
