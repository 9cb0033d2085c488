/**
 * API shapes the editor uses. TEMPORARY hand-written mirror of backend/loopline/api/schemas/layout.py
 * until its routers are in the OpenAPI document; then these become aliases of `api/schema.d.ts`.
 */
export interface RackTypeRead { id: number; name: string; width_m: number; depth_m: number; height_u: number; version: number; builtin: boolean }
export interface ServerModelRead { id: number; name: string; nic_ports: number; port_gbps: number; height_u: number; version: number; builtin: boolean }
export interface SwitchModelRead {
  id: number; name: string; server_ports: number; server_port_gbps: number; uplink_ports: number; uplink_gbps: number; height_u: number; version: number; builtin: boolean;
}
export interface LogicalRackRead { ordinal: number; servers: number; server_model_id: number; ports_used: number; tor_model_id: number; tor_position: "top" | "middle" | "bottom"; base_u: number; top_u: number; tor_u: number }
export interface RackRead {
  id: number; row_id: number; hall_id: number; name: string; rack_type_id: number; position_m: number; role: "compute" | "network"; port_face: "front" | "rear"; version: number;
  logical_racks: LogicalRackRead[]; fabric_switches: unknown[];
}
export interface RowRead { id: number; hall_id: number; name: string; x_m: number; y_m: number; direction: number; front: "left" | "right"; version: number; rack_count: number }
export interface LayoutRow extends RowRead { racks: RackRead[] }
export interface HallRead { id: number; project_id: number; name: string; site: string; width_m: number; depth_m: number; tile_m: number; version: number; min_cold_aisle_m: number; min_hot_aisle_m: number }
export interface IssueRead { severity: "error" | "warning"; code: string; field: string; message: string }
export interface HallLayout {
  hall: HallRead; rows: LayoutRow[]; aisles: unknown[]; warnings: IssueRead[]; oversubscription: unknown[];
  server_models: ServerModelRead[]; switch_models: SwitchModelRead[]; rack_types: RackTypeRead[];
}
export interface LogicalRackSpec { servers: number; server_model_id: number; ports_used: number; tor_model_id: number; tor_position: "top" | "middle" | "bottom"; base_u?: number | null }
export interface RackSpec {
  name?: string | null; rack_type_id?: number | null; position_m?: number | null; role?: "compute" | "network"; port_face?: "front" | "rear";
  logical_racks?: LogicalRackSpec[]; fabric_switches?: unknown[];
}
