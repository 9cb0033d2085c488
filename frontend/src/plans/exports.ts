/**
 * The downloads of a plan for cabling teams: each a same-origin GET the session cookie authorises, so a
 * plain `<a download>` link works. Pure; tested in exports.test.ts.
 */
/** The routes take a row (`row=`); a rack scope is not offered until they take one. */
export type ExportScope = { kind: "hall" } | { kind: "row"; row: string };

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

/** Exports that take the scope; the others are always the whole hall. */
export const SCOPED = new Set(["wiring-csv", "wiring-pdf", "labels-pdf"]);

/**
 * Every export of a plan. The CSV and PDF wiring sheets and the label sheet take the row scope; the
 * XLSX has one sheet per row already; the pull list and NetBox exports are the whole hall.
 */
export function exportLinks(planId: number, scope: ExportScope): ExportLink[] {
  const base = `${API}/wiring-plans/${planId}/exports`;
  const s = scope.kind === "row" ? { row: scope.row } : {};
  return [
    {
      key: "wiring-csv",
      label: "Wiring sheet (CSV)",
      href: `${base}/wiring-sheet.csv${query(s)}`,
      hint: "One line per cable: both ends, part, lengths, label.",
    },
    {
      key: "wiring-xlsx",
      label: "Wiring sheet (XLSX)",
      href: `${base}/wiring-sheet.xlsx${query({ per_row: "true" })}`,
      hint: "A workbook with one sheet per row, frozen header and filters.",
    },
    {
      key: "wiring-pdf",
      label: "Wiring sheet (PDF)",
      href: `${base}/wiring-sheet.pdf${query(s)}`,
      hint:
        scope.kind === "row"
          ? "Printable: the row's racks, both ends, lengths, labels, bundle."
          : "Printable, as a ZIP of one PDF per row: both ends, lengths, labels, bundle.",
    },
    {
      key: "labels-pdf",
      label: "Label sheet (PDF)",
      href: `${base}/labels.pdf${query(s)}`,
      hint:
        scope.kind === "row"
          ? "TIA-606 labels for both ends of every cable, on a label-sheet grid (a large row: a ZIP of PDFs by rack)."
          : "TIA-606 labels for both ends of every cable, on a label-sheet grid, as a ZIP of PDFs by rack.",
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
      hint: "Sites, racks, device types, devices, interfaces, then cables: in NetBox's bulk-import order.",
    },
    {
      key: "netbox-cables",
      label: "NetBox cables (CSV)",
      href: `${base}/netbox-cables.csv`,
      hint: "The cables alone, for a NetBox that already holds the devices.",
    },
  ];
}
