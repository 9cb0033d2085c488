/** The one palette: scene colours per theme (CSS variables in theme.css carry the same values). */
export interface Palette {
  background: string;
  floor: string;
  gridCell: string;
  gridSection: string;
  rack: string;
  rackSelected: string;
  rackHover: string;
  server: string;
  tor: string;
  cold: string;
  hot: string;
  mixed: string;
  draft: string;
  draftBad: string;
  box: string;
}

export const PALETTES: Record<"dark" | "light", Palette> = {
  dark: {
    background: "#0b1220",
    floor: "#1c2738",
    gridCell: "#2b3a52",
    gridSection: "#3f5372",
    rack: "#475569",
    rackSelected: "#f59e0b",
    rackHover: "#64748b",
    server: "#94a3b8",
    tor: "#38bdf8",
    cold: "#3b82f6",
    hot: "#ef4444",
    mixed: "#eab308",
    draft: "#22d3ee",
    draftBad: "#f43f5e",
    box: "#38bdf8",
  },
  light: {
    background: "#eef2f7",
    floor: "#dfe5ee",
    gridCell: "#c3ccd9",
    gridSection: "#9aa8bb",
    rack: "#334155",
    rackSelected: "#d97706",
    rackHover: "#475569",
    server: "#cbd5e1",
    tor: "#0284c7",
    cold: "#2563eb",
    hot: "#dc2626",
    mixed: "#ca8a04",
    draft: "#0891b2",
    draftBad: "#e11d48",
    box: "#0284c7",
  },
};

/** Cable media colours (legend + 3D). Keys are the backend's `Medium` values. */
export const MEDIUM_COLOURS: Record<string, { label: string; colour: string }> = {
  dac: { label: "Passive DAC", colour: "#22c55e" },
  acc: { label: "Active copper (ACC)", colour: "#eab308" },
  aec: { label: "Active copper (AEC)", colour: "#f97316" },
  aoc: { label: "AOC", colour: "#a855f7" },
  fibre: { label: "Fibre + optics", colour: "#06b6d4" },
};
