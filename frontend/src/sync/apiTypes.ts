/** API shapes the editor uses: aliases of the generated `api/schema.d.ts` (never hand-edited). */
import type { components } from "../api/schema";

type S = components["schemas"];
export type RackTypeRead = S["RackTypeRead"];
export type ServerModelRead = S["ServerModelRead"];
export type SwitchModelRead = S["SwitchModelRead"];
export type RackRead = S["RackRead"];
export type LayoutRack = S["LayoutRack"];
export type RowRead = S["RowRead"];
export type RowDetail = S["RowDetail"];
export type LayoutRow = S["LayoutRow"];
export type HallRead = S["HallRead"];
export type HallLayout = S["HallLayout"];
export type RackSpec = S["RackSpec"];
export type RowCreate = S["RowCreate"];
export type RowUpdate = S["RowUpdate"];
export type RackUpdate = S["RackUpdate"];
export type IssueRead = S["IssueRead"];
export type AisleRead = S["AisleRead"];
export type HallValidationRead = S["HallValidationRead"];
export type LayerPortsRead = S["LayerPortsRead"];
export type LayerLoadRead = S["LayerLoadRead"];
export type MeRead = S["MeRead"];
export type ProjectRead = S["ProjectRead"];
