/**
 * Mapping between the API's layout documents (metres, catalog ids, integer ids) and editor records
 * (millimetres, embedded models, prefixed ids). Pure: no fetch here.
 */
import type * as A from "./apiTypes";
import type { RecordsDiff } from "../model/diff";
import {
  DEFAULT_CONTENTS,
  type AnyRecord,
  type Direction,
  type RackContents,
  type RackRecord,
  type RackType,
  type Records,
  type RowRecord,
  type ServerModel,
  type SwitchModel,
} from "../model/records";

export type HallLayout = A.HallLayout;
export type RowReadApi = A.RowRead;
/** A rack as `GET /racks/{id}` or the layout document gives it (there `facility` is null when unset). */
export type RackReadApi = A.RackRead | A.LayoutRack;
export type RackSpecApi = A.RackSpec;

const mm = (m: number) => Math.round(m * 1000);
const m = (millimetres: number) => millimetres / 1000;

export function rackTypeFrom(t: A.RackTypeRead): RackType {
  return { id: t.id, name: t.name, widthMm: mm(t.width_m), depthMm: mm(t.depth_m), heightU: t.height_u };
}
export function serverModelFrom(t: A.ServerModelRead): ServerModel {
  return { id: t.id, name: t.name, nicPorts: t.nic_ports, portGbps: t.port_gbps, heightU: t.height_u };
}
export function switchModelFrom(t: A.SwitchModelRead): SwitchModel {
  return {
    id: t.id,
    name: t.name,
    serverPorts: t.server_ports,
    serverPortGbps: t.server_port_gbps,
    uplinkPorts: t.uplink_ports,
    uplinkGbps: t.uplink_gbps,
    heightU: t.height_u,
  };
}

export interface Catalogs {
  rackTypes: Map<number, RackType>;
  serverModels: Map<number, ServerModel>;
  switchModels: Map<number, SwitchModel>;
}

export function rackFrom(r: RackReadApi, cat: Catalogs): RackRecord {
  const lr = r.logical_racks[0];
  const contents: RackContents = {
    rackType: cat.rackTypes.get(r.rack_type_id) ?? DEFAULT_CONTENTS.rackType,
    logicalRacks: r.logical_racks.length,
    serversPerLogicalRack: lr?.servers ?? 0,
    serverModel: (lr && cat.serverModels.get(lr.server_model_id)) || DEFAULT_CONTENTS.serverModel,
    portsUsed: lr?.ports_used ?? 1,
    torModel: (lr && cat.switchModels.get(lr.tor_model_id)) || DEFAULT_CONTENTS.torModel,
    torPosition: lr?.tor_position ?? "top",
    portFace: r.port_face,
  };
  const fabricSwitches = r.fabric_switches.map((f) => ({
    name: f.name,
    role: f.role,
    u: f.u,
    heightU: cat.switchModels.get(f.switch_model_id)?.heightU ?? 1,
    modelId: f.switch_model_id,
    network: f.network,
  }));
  return {
    ...contents,
    typeName: "rack",
    role: r.role,
    fabricSwitches,
    id: `rack:${r.id}`,
    rowId: `row:${r.row_id}`,
    name: r.name,
    positionMm: mm(r.position_m),
  };
}

export function rowFrom(r: RowReadApi): RowRecord {
  return {
    typeName: "row",
    id: `row:${r.id}`,
    hallId: `hall:${r.hall_id}`,
    name: r.name,
    xMm: mm(r.x_m),
    yMm: mm(r.y_m),
    direction: ([0, 90, 180, 270].includes(r.direction) ? r.direction : 0) as Direction,
    front: r.front,
  };
}

export interface LoadedLayout {
  records: Records;
  versions: Map<string, number>;
  catalogs: Catalogs;
}

export function recordsFromLayout(doc: HallLayout): LoadedLayout {
  const catalogs: Catalogs = {
    rackTypes: new Map(doc.rack_types.map((t) => [t.id, rackTypeFrom(t)])),
    serverModels: new Map(doc.server_models.map((t) => [t.id, serverModelFrom(t)])),
    switchModels: new Map(doc.switch_models.map((t) => [t.id, switchModelFrom(t)])),
  };
  const out: Record<string, AnyRecord> = {};
  const versions = new Map<string, number>();
  const h = doc.hall;
  out[`hall:${h.id}`] = {
    typeName: "hall",
    id: `hall:${h.id}`,
    name: h.name,
    widthMm: mm(h.width_m),
    depthMm: mm(h.depth_m),
    tileMm: mm(h.tile_m),
    minColdAisleMm: mm(h.min_cold_aisle_m),
    minHotAisleMm: mm(h.min_hot_aisle_m),
  };
  versions.set(`hall:${h.id}`, h.version);
  for (const row of doc.rows) {
    const rec = rowFrom(row);
    out[rec.id] = rec;
    versions.set(rec.id, row.version);
    for (const rack of row.racks) {
      const rr = rackFrom(rack, catalogs);
      out[rr.id] = rr;
      versions.set(rr.id, rack.version);
    }
  }
  return { records: out, versions, catalogs };
}

/** The API body for a rack's contents (catalog ids resolved by the caller's lookup). */
export function rackSpec(
  r: RackRecord,
  ids: (r: RackRecord) => { rackType: number; server: number; tor: number },
): RackSpecApi {
  const id = ids(r);
  return {
    name: r.name,
    rack_type_id: id.rackType,
    position_m: m(r.positionMm),
    role: r.role,
    port_face: r.portFace,
    logical_racks: Array.from({ length: r.logicalRacks }, () => ({
      servers: r.serversPerLogicalRack,
      server_model_id: id.server,
      ports_used: r.portsUsed,
      tor_model_id: id.tor,
      tor_position: r.torPosition,
    })),
    // A network rack's switches (the property panel edits them); the API needs them on create too.
    fabric_switches: r.fabricSwitches.map((f) => ({
      name: f.name,
      role: f.role as "agg" | "spine" | "core",
      switch_model_id: f.modelId ?? 1,
      u: f.u,
      // kept as read, so an edit of the rack never moves a front-end spine into the compute fabric
      network: f.network ?? "compute",
    })),
  };
}

export function rowBody(r: RowRecord) {
  return { name: r.name, x_m: m(r.xMm), y_m: m(r.yMm), direction: r.direction, front: r.front };
}

/** API field path (`logical_racks.0.servers`) -> editor field (`serversPerLogicalRack`). */
export function editorField(loc: (string | number)[]): string {
  const path = loc.filter((p) => p !== "body").map(String);
  const key = path.join(".");
  if (/logical_racks\.\d+\.servers$/.test(key) || key === "servers") return "serversPerLogicalRack";
  if (/ports_used/.test(key)) return "portsUsed";
  if (/logical_racks$/.test(key) || /^logical_racks\.\d+$/.test(key)) return "logicalRacks";
  if (/server_model/.test(key)) return "serverModel";
  if (/tor_model/.test(key)) return "torModel";
  if (/tor_position/.test(key)) return "torPosition";
  if (/rack_type/.test(key)) return "rackType";
  if (/port_face/.test(key)) return "portFace";
  if (/position_m/.test(key)) return "positionMm";
  if (/x_m|y_m/.test(key)) return "position";
  return key || "contents";
}

/** Split a diff into the records it touches, by kind (for the sync queue). */
export function diffParts(d: RecordsDiff) {
  const pick = <T extends AnyRecord["typeName"]>(o: Record<string, AnyRecord>, t: T) =>
    Object.values(o).filter((r): r is Extract<AnyRecord, { typeName: T }> => r.typeName === t);
  const pickUpd = <T extends AnyRecord["typeName"]>(t: T) =>
    Object.values(d.updated).filter(
      (p): p is [Extract<AnyRecord, { typeName: T }>, Extract<AnyRecord, { typeName: T }>] => p[1].typeName === t,
    );
  return {
    addedRows: pick(d.added, "row"),
    addedRacks: pick(d.added, "rack"),
    updatedRows: pickUpd("row"),
    updatedRacks: pickUpd("rack"),
    removedRows: pick(d.removed, "row"),
    removedRacks: pick(d.removed, "rack"),
  };
}

/**
 * The server's refusal as one short sentence for the planner: its first message with the Python
 * quoting taken off (`row 'R01'` -> `row R01`), capitalised, and how many more problems there are;
 * never the field paths or the whole list (a layout refusal can list 50 issues).
 */
export function refusalSentence(messages: readonly string[]): string {
  const distinct = [...new Set(messages.map((m) => m.trim()).filter(Boolean))];
  const head = distinct[0];
  if (head === undefined) return "The server refused it.";
  const first = head.replace(/'([^']*)'/g, "$1").replace(/"([^"]*)"/g, "$1");
  const text = first.charAt(0).toUpperCase() + first.slice(1);
  const stop = /[.!?]$/.test(text) ? "" : ".";
  const more = distinct.length - 1;
  return `${text}${stop}${more ? ` (${more} more problem${more === 1 ? "" : "s"} like it.)` : ""}`;
}
