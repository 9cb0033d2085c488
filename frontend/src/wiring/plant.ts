/**
 * What the wiring panel prints of a structured plan's plant, from the server's answers (pure; tested in
 * plant.test.ts): the counts line, a chain step as one line, the findings that lead to a link.
 */
import { formatLength } from "../model/units";
import type { ChainStep, PlantItem, PlantRead } from "../state/plant";

/**
 * "16 links · 4 panels (16 ports) · 2 cassettes · 2 trunks (48 fibres) · 16 cords · 0 breakout cables · 20 optics",
 * zeros kept: a count is a fact.
 */
export function countsLine(c: PlantRead["counts"]): string {
  const n = (v: number, one: string, many = `${one}s`) => `${v.toLocaleString("en")} ${v === 1 ? one : many}`;
  return [
    n(c.links, "link"),
    `${n(c.panels, "panel")} (${n(c.panel_ports, "port")} used)`,
    n(c.cassettes, "cassette"),
    `${n(c.trunks, "trunk")} (${n(c.fibres, "fibre")})`,
    n(c.cords, "cord"),
    n(c.breakout_cables, "breakout cable"),
    n(c.optics, "optic"),
  ].join(" · ");
}

/** One step of a chain: what it is, its label and part, its two ends, and its length when it has one. */
export function stepLine(s: ChainStep): { kind: string; label: string; ends: string; part: string; length: string } {
  const it = s.item;
  const end = (e: string, port: string) => (port ? `${e}:${port}` : e);
  const ordered =
    it.ordered_length_m && it.ordered_length_m !== it.length_m
      ? ` (${it.made_to_order ? "made to order" : `bought ${metres(it.ordered_length_m)}`})`
      : it.made_to_order
        ? " (made to order)"
        : "";
  return {
    kind: it.kind,
    label: it.label,
    ends: `${end(it.a_end, it.a_port)} → ${end(it.b_end, it.b_port)}${s.detail ? ` · ${s.detail}` : ""}`,
    part: it.part,
    length: it.length_m ? `${metres(it.length_m)}${ordered}` : "",
  };
}

/** The API gives metres; the editor prints lengths through one formatter (millimetres in). */
export const metres = (m: number): string => formatLength(Math.round(m * 1000));

/** A trunk for the plant list: part, fibres, routed length, what is bought, its panels. */
export function trunkLine(t: PlantItem): string {
  const bought = t.made_to_order ? "made to order" : `SKU ${metres(t.ordered_length_m)}`;
  return `${t.part} · ${t.fibres} fibres · ${metres(t.length_m)} (${bought}) · ${t.a_end} → ${t.b_end}`;
}

/** Labels of the links through a panel port, from the plan's cable list (an id not on screen stays an id). */
export function linkLabels(cableIds: readonly string[], ids: readonly string[], labels: readonly string[]): string[] {
  const at = new Map(ids.map((id, i) => [id, i] as const));
  return cableIds.map((id) => labels[at.get(id) ?? -1] ?? id);
}

/** A finding's link as an index into the plan's render buffers, or null when it names none on screen. */
export function findingTarget(cableIds: readonly string[], cableId: string | null | undefined): number | null {
  if (!cableId) return null;
  const i = cableIds.indexOf(cableId);
  return i < 0 ? null : i;
}
