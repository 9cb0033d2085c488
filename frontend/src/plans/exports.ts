/**
 * The downloads of a plan for cabling teams: each a same-origin GET the session cookie authorises, so a
 * plain `<a download>` link works. Pure; tested in exports.test.ts.
 */
/**
 * What the wiring sheets cover. A rack is named as the API names it (`<hall>.<row>.<rack>`); the
 * printable sheets and labels of a rack scope cover its row (they are printed a row at a time).
 */
export type ExportScope = { kind: "hall" } | { kind: "row"; row: string } | { kind: "rack"; row: string; rack: string };

export interface ExportLink {
  key: string;
  label: string;
  href: string;
  /** What the file holds, for the tooltip. */
  hint: string;
}

const API = "/api/v1";

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

const ROW_SCOPED = new Set(["wiring-csv", "wiring-pdf", "labels-pdf", "labels-one-pdf"]);
const RACK_SCOPED = new Set(["wiring-csv", "wiring-xlsx"]);

/** What an export covers under `scope`, for the note beside its button ("" for the whole hall). */
export function scopeNote(key: string, scope: ExportScope): string {
  if (scope.kind === "rack" && RACK_SCOPED.has(key)) return `rack ${scope.rack}`;
  if (scope.kind !== "hall" && ROW_SCOPED.has(key)) return `row ${scope.row}`;
  return scope.kind === "hall" ? "" : "whole hall";
}

/**
 * Every export of a plan. The CSV wiring sheet takes a row or a rack; the XLSX has one sheet per
 * row, or one for a rack; the PDF sheets and labels take the row; the pull list and NetBox exports
 * are the whole hall.
 */
export function exportLinks(planId: number, scope: ExportScope): ExportLink[] {
  const base = `${API}/wiring-plans/${planId}/exports`;
  const s = scope.kind === "hall" ? {} : { row: scope.row };
  const rack = scope.kind === "rack" ? { rack: scope.rack } : undefined;
  return [
    {
      key: "wiring-csv",
      label: "Wiring sheet (CSV)",
      href: `${base}/wiring-sheet.csv${query(rack ?? s)}`,
      hint: "One line per cable: both ends, part, lengths, label.",
    },
    {
      key: "wiring-xlsx",
      label: "Wiring sheet (XLSX)",
      href: `${base}/wiring-sheet.xlsx${query(rack ?? { per_row: "true" })}`,
      hint: rack
        ? "A workbook of the rack's cables, frozen header and filters."
        : "A workbook with one sheet per row, frozen header and filters.",
    },
    {
      key: "wiring-pdf",
      label: "Wiring sheet (PDF)",
      href: `${base}/wiring-sheet.pdf${query(s)}`,
      hint:
        scope.kind !== "hall"
          ? "Printable: the row's racks, both ends, lengths, labels, bundle."
          : "Printable, as a ZIP of one PDF per row: both ends, lengths, labels, bundle.",
    },
    {
      key: "labels-pdf",
      label: "Label sheet (PDF)",
      href: `${base}/labels.pdf${query(s)}`,
      hint:
        scope.kind !== "hall"
          ? "TIA-606 labels for both ends of every cable, on a label-sheet grid (a large row: a ZIP of PDFs by rack)."
          : "TIA-606 labels for both ends of every cable, on a label-sheet grid, as a ZIP of PDFs by rack.",
    },
    {
      key: "labels-one-pdf",
      label: "Labels (one PDF)",
      href: `${base}/labels.pdf${query({ ...s, one_pdf: "true" })}`,
      hint: "The same label sheets in one PDF, each rack group on a new sheet; it starts downloading at once.",
    },
    {
      key: "pull-list",
      label: "Pull list (CSV)",
      href: `${base}/pull-list.csv`,
      hint: "Cables grouped by bundle and route, with ordered lengths.",
    },
    {
      key: "netbox",
      label: "NetBox import set",
      href: `${base}/netbox.zip`,
      hint: "Sites, row locations, racks, device types with their ports, devices, then cables: in NetBox's bulk-import order.",
    },
    {
      key: "netbox-cables",
      label: "NetBox cables (CSV)",
      href: `${base}/netbox-cables.csv`,
      hint: "The cables alone, for a NetBox that already holds the devices.",
    },
  ];
}

/**
 * The structured plant's sheets (a structured plan only): the panel port maps to print, the trunk pull
 * list, and the wiring sheet with a line per segment of each link.
 */
export function structuredLinks(planId: number): ExportLink[] {
  const base = `${API}/wiring-plans/${planId}/exports`;
  return [
    {
      key: "panel-map",
      label: "Panel port maps (PDF)",
      href: `${base}/panel-map.pdf`,
      hint: "A page per patch panel: each front port, the rear port it maps to, the cord plugged and its far end.",
    },
    {
      key: "trunk-pull-list",
      label: "Trunk pull list (CSV)",
      href: `${base}/trunk-pull-list.csv`,
      hint: "A line per trunk: part, fibres, the length to order, from panel, to panel, tray route.",
    },
    {
      key: "wiring-segments",
      label: "Segment wiring sheet (CSV)",
      href: `${base}/wiring-segments.csv`,
      hint: "A line per segment of each link: device port -> cord -> panel port -> trunk -> panel port -> cord -> device port.",
    },
  ];
}

/**
 * What changes in NetBox from plan `baseId` (imported from its NetBox set) to its upgrade `planId`:
 * the cables and interfaces to delete, then the device types, devices, interfaces and cables to import.
 */
export function netboxUpgradeLink(planId: number, baseId: number): ExportLink {
  return {
    key: "netbox-upgrade",
    label: `NetBox upgrade from #${baseId} (ZIP)`,
    href: `${API}/wiring-plans/${planId}/exports/netbox-upgrade.zip${query({ against: String(baseId) })}`,
    hint: `Only what changes for a NetBox that holds plan #${baseId}: cables to delete, then devices and cables to import.`,
  };
}

/**
 * The re-cabling work order of plan `newId` as an upgrade of `oldId`: plug the added cables, re-cable
 * the moved ones (old ends to new ends), unplug the removed ones, grouped by rack.
 */
export function workOrderLinks(newId: number, oldId: number): ExportLink[] {
  const base = `${API}/wiring-plans/${newId}/exports/work-order`;
  const q = query({ against: String(oldId) });
  const hint = "Each cable to unplug (old ends) and plug (new ends), new cables first, removed ones last, by rack";
  return [
    { key: "work-order-csv", label: "Work order (CSV)", href: `${base}.csv${q}`, hint: `${hint}.` },
    { key: "work-order-xlsx", label: "Work order (XLSX)", href: `${base}.xlsx${q}`, hint: `${hint}: a sheet a phase.` },
    { key: "work-order-pdf", label: "Work order (PDF)", href: `${base}.pdf${q}`, hint: `${hint}, to print and tick.` },
  ];
}

/**
 * The hall's power sheet for electricians (a line per rack feed: load it must carry, capacity, 80 %
 * limit, status), with the plan's optics counted when `planId` is given.
 */
export function powerSheetLinks(hallId: number, planId?: number): ExportLink[] {
  const base = `${API}/halls/${hallId}/exports/power-sheet`;
  const q = query({ plan_id: planId === undefined ? undefined : String(planId) });
  const hint = "A line per rack and feed: voltage, phases, breaker, PDU, the load it must carry alone, its 80 % limit";
  return [
    { key: "power-csv", label: "Power sheet (CSV)", href: `${base}.csv${q}`, hint: `${hint}.` },
    { key: "power-xlsx", label: "Power sheet (XLSX)", href: `${base}.xlsx${q}`, hint: `${hint}: a sheet a row.` },
    { key: "power-pdf", label: "Power sheet (PDF)", href: `${base}.pdf${q}`, hint: `${hint}, to print and tick.` },
  ];
}
