/**
 * Saves every edit through the API, in order, with the version each record was read at.
 *
 * User edits (and undo/redo) arrive as diffs from the store; they are queued and sent one after the
 * other. A 409 (someone else changed the record) stops the queue: the user is told what was not
 * saved, and the hall is reloaded (a remote change: not undoable, history cleared). A 422 shows the
 * server's message next to the field that caused it and reloads the server's state of that record.
 */
import type { RecordsDiff } from "../model/diff";
import { diffRecords } from "../model/diff";
import type { EditorStore } from "../model/history";
import { isRow, type RackRecord, type RecordId, type Records, type RowRecord } from "../model/records";
import { addToCatalog } from "../state/catalog";
import { notify, setErrors, useSession } from "../state/session";
import type * as A from "./apiTypes";
import { ApiError, request } from "./http";
import {
  diffParts,
  editorField,
  rackSpec,
  rackTypeFrom,
  recordsFromLayout,
  refusalSentence,
  rowBody,
  serverModelFrom,
  switchModelFrom,
  type Catalogs,
} from "./layoutApi";

export interface SyncTarget {
  hallId: number;
}

export class LayoutSync {
  private versions = new Map<RecordId, number>();
  /** Local record id -> server id (records created here get a server id on POST). */
  private serverIds = new Map<RecordId, number>();
  private catalogs: Catalogs = { rackTypes: new Map(), serverModels: new Map(), switchModels: new Map() };
  private queue: RecordsDiff[] = [];
  /** The record the request in flight is about (errors are shown next to it). */
  private current: RecordId | null = null;
  private running = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly store: EditorStore,
    readonly hallId: number,
  ) {}

  async start(): Promise<void> {
    await this.reload({ clearHistory: true });
    this.unsubscribe = this.store.subscribe((diff, source) => {
      if (source === "remote") return;
      // A new edit replaces the errors shown on the floor for earlier ones.
      useSession.setState((s) => ({ errors: s.errors.filter((e) => !/^(row|rack):/.test(e.target)) }));
      this.queue.push(diff);
      void this.drain();
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Resolves when every queued edit has been answered (tests and the bench wait on it). */
  async idle(): Promise<void> {
    while (this.running || this.queue.length) await new Promise((r) => setTimeout(r, 20));
  }

  serverId(id: RecordId): number | undefined {
    const mapped = this.serverIds.get(id);
    if (mapped !== undefined) return mapped;
    const m = /^(?:row|rack|hall):(\d+)$/.exec(id);
    return m ? Number(m[1]) : undefined;
  }

  async reload(opts: { clearHistory: boolean }): Promise<void> {
    const doc = await request<A.HallLayout>("GET", `/halls/${this.hallId}/layout`);
    performance.mark("loopline:layout-fetched");
    const loaded = recordsFromLayout(doc);
    this.catalogs = loaded.catalogs;
    addToCatalog({
      rackTypes: [...loaded.catalogs.rackTypes.values()],
      serverModels: [...loaded.catalogs.serverModels.values()],
      switchModels: [...loaded.catalogs.switchModels.values()],
    });
    await this.loadCatalog();
    // Keep local ids for records this tab created: rewrite fresh ids back to them.
    const back = new Map([...this.serverIds].map(([local, server]) => [server, local]));
    const fresh: Records = Object.fromEntries(
      Object.values(loaded.records).map((rec) => {
        const num = Number(rec.id.split(":")[1]);
        const localId = back.get(num);
        const id = localId && localId.startsWith(rec.typeName) ? localId : rec.id;
        const out = { ...rec, id } as typeof rec;
        if (out.typeName === "rack") {
          const rowNum = Number(out.rowId.split(":")[1]);
          const localRow = back.get(rowNum);
          if (localRow?.startsWith("row:")) out.rowId = localRow;
        }
        return [id, out];
      }),
    );
    this.versions = new Map();
    for (const [id, v] of loaded.versions) {
      const num = Number(id.split(":")[1]);
      const localId = back.get(num);
      const prefix = id.slice(0, id.indexOf(":"));
      this.versions.set(localId && localId.startsWith(prefix) ? localId : id, v);
    }
    const diff = diffRecords(this.store.records, fresh);
    performance.mark("loopline:layout-diffed");
    this.store.applyRemote(diff);
    performance.mark("loopline:layout-applied");
    if (opts.clearHistory) this.store.clearHistory();
  }

  private async loadCatalog(): Promise<void> {
    try {
      const [rt, sm, sw] = await Promise.all([
        request<{ items: A.RackTypeRead[] }>("GET", "/catalog/rack-types?limit=200"),
        request<{ items: A.ServerModelRead[] }>("GET", "/catalog/server-models?limit=200"),
        request<{ items: A.SwitchModelRead[] }>("GET", "/catalog/switch-models?limit=200"),
      ]);
      for (const t of rt.items) this.catalogs.rackTypes.set(t.id, rackTypeFrom(t));
      for (const t of sm.items) this.catalogs.serverModels.set(t.id, serverModelFrom(t));
      for (const t of sw.items) this.catalogs.switchModels.set(t.id, switchModelFrom(t));
      addToCatalog({
        rackTypes: rt.items.map(rackTypeFrom),
        serverModels: sm.items.map(serverModelFrom),
        switchModels: sw.items.map(switchModelFrom),
      });
    } catch {
      // The hall's own models (from the layout document) are enough to edit.
    }
  }

  private catalogIds = (r: RackRecord) => {
    const find = <T extends { id?: number; name: string }>(m: Map<number, T>, want: T) =>
      want.id ?? [...m.values()].find((x) => x.name === want.name)?.id ?? [...m.keys()][0] ?? 1;
    return {
      rackType: find(this.catalogs.rackTypes, r.rackType),
      server: find(this.catalogs.serverModels, r.serverModel),
      tor: find(this.catalogs.switchModels, r.torModel),
    };
  };

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    useSession.setState((s) => ({ saving: s.saving + 1 }));
    try {
      for (let diff = this.queue.shift(); diff; diff = this.queue.shift()) {
        try {
          await this.send(diff);
        } catch (e) {
          this.queue = [];
          await this.fail(e, diff);
        }
      }
      useSession.setState({ lastSavedAt: Date.now() });
    } finally {
      this.running = false;
      useSession.setState((s) => ({ saving: Math.max(0, s.saving - 1) }));
    }
  }

  private async fail(e: unknown, diff: RecordsDiff): Promise<void> {
    const what = describe(diff);
    if (e instanceof ApiError && e.conflict) {
      notify(
        "conflict",
        `Conflict: ${what} was not saved — this part of the layout was changed in another tab or by another user since you loaded it. The latest saved layout has been reloaded; check it and redo your edit if it is still needed.`,
      );
      await this.reloadQuietly(true);
      this.rolledBack();
      return;
    }
    if (e instanceof ApiError && (e.status === 422 || e.status === 400)) {
      const message = refusalSentence(e.items.map((i) => i.msg));
      // One sentence per property field (panel), one next to the row or rack (floor), one notice.
      const byField = new Map<string, string>();
      for (const i of e.items) {
        const field = editorField(i.loc);
        if (!byField.has(field)) byField.set(field, refusalSentence([i.msg]));
      }
      if (useSession.getState().selection.length)
        setErrors(
          "props",
          [...byField].map(([field, msg]) => ({ field, message: msg })),
        );
      if (this.current) setErrors(this.current, [{ field: "", message }]);
      notify("error", `${capitalise(what)} was refused: ${message}`);
      await this.reloadQuietly(true);
      this.rolledBack();
      return;
    }
    notify(
      "error",
      `${capitalise(what)} could not be saved: ${e instanceof ApiError ? refusalSentence(e.items.map((i) => i.msg)) : e instanceof Error ? e.message : String(e)} The saved layout has been reloaded.`,
    );
    await this.reloadQuietly(true);
    this.rolledBack();
  }

  /** The saved layout is back: gesture previews and anything drawn for the refused edit go. */
  private rolledBack(): void {
    useSession.setState((s) => ({ rollbacks: s.rollbacks + 1 }));
  }

  private async reloadQuietly(clearHistory: boolean) {
    try {
      await this.reload({ clearHistory });
    } catch (e) {
      notify("error", `Reload failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private version(id: RecordId): number | undefined {
    return this.versions.get(id);
  }

  private async send(diff: RecordsDiff): Promise<void> {
    this.current = null;
    const p = diffParts(diff);
    const removedRowIds = new Set(p.removedRows.map((r) => r.id));
    const addedRowIds = new Set(p.addedRows.map((r) => r.id));
    // Racks first out (a rack removed from a surviving row), rows after.
    for (const rack of p.removedRacks) {
      if (removedRowIds.has(rack.rowId)) continue;
      this.current = rack.id;
      await this.del(`/racks/${this.serverId(rack.id)}`, rack.id);
    }
    for (const row of p.removedRows) {
      this.current = row.id;
      await this.del(`/rows/${this.serverId(row.id)}`, row.id);
    }
    for (const row of p.addedRows) {
      this.current = row.id;
      const racks = p.addedRacks.filter((r) => r.rowId === row.id).sort((a, b) => a.positionMm - b.positionMm);
      const created = await request<A.LayoutRow>("POST", `/halls/${this.hallId}/rows`, {
        body: { ...rowBody(row), racks: racks.map((r) => rackSpec(r, this.catalogIds)) },
      });
      this.adopt(row, created);
      const byName = new Map((created.racks ?? []).map((r) => [r.name, r]));
      for (const rack of racks) {
        const sr = byName.get(rack.name);
        if (sr) this.adopt(rack, sr);
      }
    }
    for (const rack of p.addedRacks) {
      if (addedRowIds.has(rack.rowId)) continue;
      this.current = rack.id;
      const created = await request<A.RackRead>("POST", `/rows/${this.serverId(rack.rowId)}/racks`, {
        body: rackSpec(rack, this.catalogIds),
      });
      this.adopt(rack, created);
    }
    for (const [, row] of p.updatedRows) {
      this.current = row.id;
      const res = await request<A.RowRead>("PATCH", `/rows/${this.serverId(row.id)}`, {
        body: rowBody(row),
        version: this.version(row.id),
      });
      this.versions.set(row.id, res.version);
    }
    for (const [from, rack] of p.updatedRacks) {
      this.current = rack.id;
      const body: Record<string, unknown> = {};
      const spec = rackSpec(rack, this.catalogIds);
      if (from.positionMm !== rack.positionMm) body.position_m = spec.position_m;
      if (from.portFace !== rack.portFace) body.port_face = spec.port_face;
      if (from.name !== rack.name) body.name = rack.name;
      if (from.rowId !== rack.rowId) body.row_id = this.serverId(rack.rowId);
      if (from.role !== rack.role) body.role = rack.role;
      if (JSON.stringify(from.fabricSwitches) !== JSON.stringify(rack.fabricSwitches))
        body.fabric_switches = spec.fabric_switches;
      if (
        JSON.stringify({ ...from, positionMm: 0, portFace: "", name: "", rowId: "" }) !==
        JSON.stringify({ ...rack, positionMm: 0, portFace: "", name: "", rowId: "" })
      ) {
        body.rack_type_id = spec.rack_type_id;
        body.logical_racks = spec.logical_racks;
      }
      const res = await request<A.RackRead>("PATCH", `/racks/${this.serverId(rack.id)}`, {
        body,
        version: this.version(rack.id),
      });
      this.versions.set(rack.id, res.version);
    }
  }

  private adopt(rec: RowRecord | RackRecord, created: { id: number; version: number }) {
    this.serverIds.set(rec.id, created.id);
    this.versions.set(rec.id, created.version);
  }

  private async del(path: string, id: RecordId) {
    await request<null>("DELETE", path, { version: this.version(id) });
    this.versions.delete(id);
  }
}

function describe(diff: RecordsDiff): string {
  const p = diffParts(diff);
  const names = (xs: { name: string }[]) =>
    xs
      .slice(0, 3)
      .map((x) => x.name)
      .join(", ") + (xs.length > 3 ? ` and ${xs.length - 3} more` : "");
  if (p.addedRows.length) return `adding row ${names(p.addedRows)}`;
  if (p.removedRows.length) return `deleting row ${names(p.removedRows)}`;
  if (p.updatedRows.length) return `your change to row ${names(p.updatedRows.map(([, r]) => r))}`;
  if (p.updatedRacks.length) return `your change to rack ${names(p.updatedRacks.map(([, r]) => r))}`;
  if (p.removedRacks.length) return `deleting rack ${names(p.removedRacks)}`;
  if (p.addedRacks.length) return `adding rack ${names(p.addedRacks)}`;
  return "your edit";
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function isRowId(records: Records, id: RecordId): boolean {
  return isRow(records[id]);
}
