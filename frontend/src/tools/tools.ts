/**
 * Pointer tools as small state machines. The scene translates pointer events into `ToolEvent`s; a tool
 * writes previews to `live` while the gesture runs and commits one diff on pointer-up.
 */
import { checked, createRow, moveRecords } from "../commands/layout";
import { draftRow, normal, rowBox, snap, unit, type Box, type RowDraft, type Vec2 } from "../model/geometry";
import type { PlacementProblem } from "../model/placement";
import { hallOf, isRack, isRow, racksOf, rowsOf, type RecordId } from "../model/records";
import { editor } from "../state/editor";
import { commitEdit, perform } from "../state/perform";
import { notify, setErrors, useSession } from "../state/session";
import { live } from "./live";

export type Target = { kind: "rack"; id: RecordId } | { kind: "floor" };

export interface ToolEvent {
  floor: Vec2;
  target: Target;
  shift: boolean;
  /** Pointer position on the page (px): a press that moved further is a drag (an orbit in 3D), not a click. */
  client: Vec2;
  /** Height (mm above the floor) of the point hit on a rack: which switch in it a click means. */
  heightMm?: number;
}

export interface Tool {
  down(e: ToolEvent): "capture" | "ignore";
  move(e: ToolEvent): void;
  up(e: ToolEvent): void;
  cancel(): void;
}

const DRAG_MM = 150;
const CLICK_PX = 5;

function tileMm(): number {
  return hallOf(editor.records)?.tileMm ?? 600;
}

/** What clicking a rack selects: its row first; the rack itself once its row is selected. */
function selectableFor(rackId: RecordId): RecordId {
  const rack = editor.records[rackId];
  if (!isRack(rack)) return rackId;
  const sel = useSession.getState().selection;
  return sel.includes(rack.rowId) ||
    sel.includes(rackId) ||
    sel.some((id) => {
      const r = editor.records[id];
      return isRack(r) && r.rowId === rack.rowId;
    })
    ? rackId
    : rack.rowId;
}

function isSelectedTarget(rackId: RecordId): boolean {
  const rack = editor.records[rackId];
  const sel = useSession.getState().selection;
  return sel.includes(rackId) || (isRack(rack) && sel.includes(rack.rowId));
}

type SelectState =
  | { s: "idle" }
  | { s: "pointing"; start: Vec2; client: Vec2; target: Target; shift: boolean; orbit: boolean }
  | { s: "moving"; start: Vec2 }
  | { s: "boxing"; start: Vec2; shift: boolean };

/** The selection moved by `offset` (mm), snapped, as the commit on pointer-up would save it. */
function movePreview(offset: Vec2): ReturnType<typeof moveRecords> {
  return moveRecords(editor.records, useSession.getState().selection, offset.x, offset.y, tileMm());
}

export function createSelectTool(): Tool {
  let st: SelectState = { s: "idle" };
  return {
    down(e) {
      // Plan view: dragging a rack moves its row (or the selected racks), dragging the floor draws a
      // selection box. 3D view: a left drag orbits the camera wherever it starts, unless it starts on
      // what is already selected, which it moves (tldraw/Figma: select first, then drag to move).
      const plan = useSession.getState().view === "plan";
      // A viewer never grabs: the drag orbits (3D) or selects (plan).
      const grab =
        !useSession.getState().readOnly && e.target.kind === "rack" && (plan || isSelectedTarget(e.target.id));
      st = { s: "pointing", start: e.floor, client: e.client, target: e.target, shift: e.shift, orbit: !plan && !grab };
      return plan || grab ? "capture" : "ignore";
    },
    move(e) {
      live.setState({ pointer: e.floor });
      const dist = (a: Vec2) => Math.hypot(e.floor.x - a.x, e.floor.y - a.y);
      if (st.s === "pointing" && st.orbit) return; // the camera has this gesture
      if (st.s === "pointing" && dist(st.start) > DRAG_MM) {
        if (useSession.getState().readOnly) st = { s: "boxing", start: st.start, shift: st.shift };
        else if (st.target.kind === "rack" && isSelectedTarget(st.target.id)) st = { s: "moving", start: st.start };
        else if (st.target.kind === "rack") {
          // Grab-and-move an unselected rack: select its row (or it), then move.
          useSession.setState({ selection: [selectableFor(st.target.id)] });
          st = { s: "moving", start: st.start };
        } else st = { s: "boxing", start: st.start, shift: st.shift };
      }
      if (st.s === "moving") {
        const move = { x: e.floor.x - st.start.x, y: e.floor.y - st.start.y };
        const r = movePreview(move);
        live.setState({ move, problem: "error" in r && r.error.field === "placement" ? problemOf(r.error) : null });
      }
      if (st.s === "boxing") {
        const a = st.start;
        live.setState({
          box: {
            x0: Math.min(a.x, e.floor.x),
            y0: Math.min(a.y, e.floor.y),
            x1: Math.max(a.x, e.floor.x),
            y1: Math.max(a.y, e.floor.y),
          },
        });
      }
    },
    up(e) {
      const cur = st;
      st = { s: "idle" };
      if (cur.s === "pointing") {
        // An orbit (or any press that travelled) is not a click: the selection stays.
        if (Math.hypot(e.client.x - cur.client.x, e.client.y - cur.client.y) > CLICK_PX) return;
        const sel = useSession.getState().selection;
        if (cur.target.kind === "floor") {
          if (!cur.shift) useSession.setState({ selection: [] });
          return;
        }
        const id = selectableFor(cur.target.id);
        if (cur.shift)
          useSession.setState({ selection: sel.includes(id) ? sel.filter((x) => x !== id) : [...sel, id] });
        else useSession.setState({ selection: [id] });
      } else if (cur.s === "moving") {
        live.setState({ move: null, problem: null });
        const t = tileMm();
        const dx = e.floor.x - cur.start.x;
        const dy = e.floor.y - cur.start.y;
        if (snap(dx, t) === 0 && snap(dy, t) === 0 && Math.abs(dx) < 300 && Math.abs(dy) < 300) return;
        // Refused here (the row stays where it was, the reason next to it), never sent to be refused.
        const r = movePreview({ x: dx, y: dy });
        if ("error" in r) perform({ kind: "error", error: r.error });
        else commitEdit(r.diff);
      } else if (cur.s === "boxing") {
        const box = live.getState().box;
        live.setState({ box: null });
        if (!box) return;
        const hits = rowsOf(editor.records)
          .filter((row) => intersects(rowBox(row, racksOf(editor.records, row.id)), box))
          .map((r) => r.id);
        const sel = cur.shift ? useSession.getState().selection : [];
        useSession.setState({ selection: [...new Set([...sel, ...hits])] });
      }
    },
    cancel() {
      st = { s: "idle" };
      live.setState({ move: null, box: null, problem: null });
    },
  };
}

function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

export function createDrawRowTool(): Tool {
  let start: Vec2 | null = null;
  return {
    down(e) {
      start = e.floor;
      live.setState({ draft: draftRow(e.floor, e.floor, tileMm()) });
      return "capture";
    },
    move(e) {
      live.setState({ pointer: e.floor });
      if (!start) return;
      const draft = draftRow(start, e.floor, tileMm());
      const r = laid(draft);
      live.setState({ draft, problem: r && "error" in r ? problemOf(r.error) : null });
    },
    up(e) {
      if (!start) return;
      const draft = draftRow(start, e.floor, tileMm());
      start = null;
      live.setState({ draft: null, problem: null });
      const r = laid(draft);
      if (!r) return;
      if ("error" in r) {
        // Nothing was laid: the reason stays where the row would have been.
        const u = unit(draft.direction);
        const n = normal(draft.direction);
        const at = {
          x: draft.xMm + (u.x * draft.lengthMm + n.x * 1200) / 2,
          y: draft.yMm + (u.y * draft.lengthMm + n.y * 1200) / 2,
        };
        setErrors("draw", [{ field: r.error.field, message: r.error.message, at }]);
        notify("error", r.error.message);
        return;
      }
      const row = Object.values(r.diff.added).find(isRow);
      commitEdit(r.diff, row ? [row.id] : []);
      // Like shape tools in tldraw: back to selecting once the row is laid.
      useSession.setState({ tool: "select" });
    },
    cancel() {
      start = null;
      live.setState({ draft: null, problem: null });
    },
  };
}

/** The row a draft would lay, checked against the hall and the other rows (null without a hall). */
function laid(draft: RowDraft): ReturnType<typeof createRow> | null {
  const hall = hallOf(editor.records);
  if (!hall) return null;
  const r = createRow(editor.records, { hallId: hall.id, draft, front: useSession.getState().drawFront });
  return checked(editor.records, r);
}

function problemOf(error: { message: string; target?: RecordId }): PlacementProblem {
  return { target: error.target ?? "", message: error.message };
}

export const TOOLS = { select: createSelectTool(), "draw-row": createDrawRowTool() };

// The server refused an edit and the saved layout is back: no gesture preview may outlive it.
useSession.subscribe((s, prev) => {
  if (s.rollbacks !== prev.rollbacks) for (const tool of Object.values(TOOLS)) tool.cancel();
});
