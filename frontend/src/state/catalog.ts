/** The device catalog the property panel chooses from (filled from the API by sync). */
import { create } from "zustand";
import {
  DEFAULT_RACK_TYPE,
  DEFAULT_SERVER,
  DEFAULT_TOR,
  type RackType,
  type ServerModel,
  type SwitchModel,
} from "../model/records";

export interface Catalog {
  rackTypes: RackType[];
  serverModels: ServerModel[];
  switchModels: SwitchModel[];
}

export const useCatalog = create<Catalog>(() => ({
  rackTypes: [DEFAULT_RACK_TYPE],
  serverModels: [DEFAULT_SERVER],
  switchModels: [DEFAULT_TOR],
}));

function merge<T extends { name: string }>(a: T[], b: T[]): T[] {
  const out = new Map(a.map((x) => [x.name, x]));
  for (const x of b) out.set(x.name, x);
  return [...out.values()].sort((p, q) => p.name.localeCompare(q.name));
}

export function addToCatalog(c: Partial<Catalog>): void {
  useCatalog.setState((s) => ({
    rackTypes: merge(s.rackTypes, c.rackTypes ?? []),
    serverModels: merge(s.serverModels, c.serverModels ?? []),
    switchModels: merge(s.switchModels, c.switchModels ?? []),
  }));
}
