/** Record diffs (tldraw store style): what a commit added, updated ([from, to]) and removed. */
import { carryIndex, type AnyRecord, type RecordId, type Records } from "./records";

export interface RecordsDiff {
  added: Record<RecordId, AnyRecord>;
  updated: Record<RecordId, [from: AnyRecord, to: AnyRecord]>;
  removed: Record<RecordId, AnyRecord>;
}

export function emptyDiff(): RecordsDiff {
  return { added: {}, updated: {}, removed: {} };
}

export function isEmptyDiff(d: RecordsDiff): boolean {
  return (
    Object.keys(d.added).length === 0 && Object.keys(d.updated).length === 0 && Object.keys(d.removed).length === 0
  );
}

export function reverseDiff(d: RecordsDiff): RecordsDiff {
  const updated: RecordsDiff["updated"] = {};
  for (const [id, [from, to]] of Object.entries(d.updated)) updated[id] = [to, from];
  return { added: { ...d.removed }, updated, removed: { ...d.added } };
}

/** Apply a diff to records, returning a new object (records themselves are never mutated). */
export function applyDiff(records: Records, d: RecordsDiff): Records {
  const next: Record<RecordId, AnyRecord> = { ...records };
  for (const id of Object.keys(d.removed)) Reflect.deleteProperty(next, id);
  for (const [id, rec] of Object.entries(d.added)) next[id] = rec;
  for (const [id, [, to]] of Object.entries(d.updated)) next[id] = to;
  carryIndex(records, next, [...Object.keys(d.removed), ...Object.keys(d.added), ...Object.keys(d.updated)]);
  return next;
}

/** `a` then `b` as one diff (an add then update stays an add; an add then remove vanishes). */
export function squashDiffs(a: RecordsDiff, b: RecordsDiff): RecordsDiff {
  const out: RecordsDiff = {
    added: { ...a.added },
    updated: { ...a.updated },
    removed: { ...a.removed },
  };
  for (const [id, rec] of Object.entries(b.added)) {
    if (out.removed[id]) {
      const from = out.removed[id];
      Reflect.deleteProperty(out.removed, id);
      out.updated[id] = [from, rec];
    } else out.added[id] = rec;
  }
  for (const [id, [from, to]] of Object.entries(b.updated)) {
    if (out.added[id]) out.added[id] = to;
    else if (out.updated[id]) out.updated[id] = [out.updated[id][0], to];
    else out.updated[id] = [from, to];
  }
  for (const [id, rec] of Object.entries(b.removed)) {
    if (out.added[id]) Reflect.deleteProperty(out.added, id);
    else if (out.updated[id]) {
      out.removed[id] = out.updated[id][0];
      Reflect.deleteProperty(out.updated, id);
    } else out.removed[id] = rec;
  }
  return out;
}

/** The diff that turns `before` into `after` (used to diff a server reload against local state). */
export function diffRecords(before: Records, after: Records): RecordsDiff {
  const d = emptyDiff();
  for (const [id, rec] of Object.entries(after)) {
    const old = before[id];
    if (!old) d.added[id] = rec;
    else if (JSON.stringify(old) !== JSON.stringify(rec)) d.updated[id] = [old, rec];
  }
  for (const [id, rec] of Object.entries(before)) if (!(id in after)) d.removed[id] = rec;
  return d;
}

/** Builder used by commands. */
export class DiffBuilder {
  readonly diff = emptyDiff();
  constructor(private readonly records: Records) {}
  add(rec: AnyRecord): this {
    this.diff.added[rec.id] = rec;
    return this;
  }
  update(to: AnyRecord): this {
    const from = this.records[to.id];
    if (!from) throw new Error(`update of unknown record ${to.id}`);
    if (JSON.stringify(from) !== JSON.stringify(to)) this.diff.updated[to.id] = [from, to];
    return this;
  }
  remove(id: RecordId): this {
    const rec = this.records[id];
    if (rec) this.diff.removed[id] = rec;
    return this;
  }
}
