/** Fixtures shared by unit tests. */
import type { HallRecord, Records } from "./records";

export const HALL: HallRecord = {
  typeName: "hall",
  id: "hall:h1",
  name: "H1",
  widthMm: 24000,
  depthMm: 18000,
  tileMm: 600,
  minColdAisleMm: 1200,
  minHotAisleMm: 900,
};

export function hallOnly(): Records {
  return { [HALL.id]: HALL };
}
