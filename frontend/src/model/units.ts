/** Lengths are integer millimetres in the model; metres (or feet) only for display. */

export type LengthUnit = "m" | "ft";

const MM_PER_FOOT = 304.8;

export function mmToMetres(mm: number): number {
  return mm / 1000;
}

export function metresToMm(m: number): number {
  return Math.round(m * 1000);
}

export function formatLength(mm: number, unit: LengthUnit = "m", digits = 2): string {
  if (unit === "ft") return `${(mm / MM_PER_FOOT).toFixed(digits)} ft`;
  return `${mmToMetres(mm).toFixed(digits)} m`;
}
