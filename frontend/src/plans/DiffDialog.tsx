/**
 * The difference of two plans in detail: the labelled cables per status (both ends, lengths) and the
 * bill of materials of the change alone: what to buy, what is freed.
 */
import { useEffect, useState } from "react";
import { DIFF_COLOURS } from "../state/planDiff";
import { diffCables, type DiffCable, type DiffStatusName, type PlanDiff } from "./api";
import { BomTable } from "./BomDialog";
import { formatMoney } from "./compare";
import { workOrderLinks } from "./exports";
import { plantFigures } from "./upgrade";
import { Dialog } from "../widgets/Dialog";

const STATUSES: readonly DiffStatusName[] = ["added", "moved", "removed", "kept"];
const PAGE = 50;

function end(c: DiffCable["cable"]["a"]): string {
  return `${c.device}:${c.port}`;
}

export function DiffDialog({ diff, onClose }: { diff: PlanDiff; onClose: () => void }) {
  const [status, setStatus] = useState<DiffStatusName>(diff.counts.added ? "added" : "kept");
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<{ items: DiffCable[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    diffCables(diff.new_plan_id, diff.old_plan_id, status, page, PAGE).then(
      (r) => live && setRows(r),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [diff, status, page]);
  const counts: Record<DiffStatusName, number> = diff.counts;
  const pages = Math.max(1, Math.ceil((rows?.total ?? 0) / PAGE));
  const money = (x: number) => formatMoney(x, diff.bom.buy.currency);
  return (
    <Dialog title={`Plan #${diff.new_plan_id} against #${diff.old_plan_id}`} onClose={onClose} testId="diff-dialog">
      <p data-testid="upgrade-summary">
        To buy: <strong>{money(diff.bom.buy.total)}</strong>
        {diff.bom.buy.unpriced.length ? ` (+ ${diff.bom.buy.unpriced.length} unpriced part(s))` : ""} · freed:{" "}
        <strong>{money(diff.bom.freed.total)}</strong> · net <strong>{money(diff.bom.net_total)}</strong>. The bill of
        materials of the change is below the cables.
      </p>
      <p data-testid="diff-facility">
        The plant: this plan {diff.facility.words} ({plantFigures(diff.facility)}).
      </p>
      <div className="work-order" data-testid="work-order">
        <span className="muted small">
          Re-cabling work order: new cables first, then moved ones (unplug the old ends, plug the new), removed ones
          last, so no server with a second link loses its last one; grouped by rack, with boxes to tick.
        </span>
        <ul className="download-list">
          {workOrderLinks(diff.new_plan_id, diff.old_plan_id).map((l) => (
            <li key={l.key}>
              <a href={l.href} download className="button" title={l.hint} data-testid={`download-${l.key}`}>
                ⤓ {l.label}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <div className="diff-tabs" role="tablist">
        {STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            role="tab"
            aria-selected={s === status}
            className={s === status ? "active" : ""}
            onClick={() => {
              setStatus(s);
              setPage(1);
              setRows(null);
            }}
            data-testid={`diff-tab-${s}`}
          >
            <span className="sw line" style={{ background: DIFF_COLOURS[s].colour }} /> {DIFF_COLOURS[s].label}{" "}
            {counts[s].toLocaleString("en")}
          </button>
        ))}
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <table className="plans-table diff-table" data-testid="diff-cables" data-status={status}>
        <thead>
          <tr>
            <th>Label</th>
            <th>A end</th>
            <th>B end</th>
            <th>Medium</th>
            <th className="num">Routed</th>
            <th className="num">Ordered</th>
            {status === "moved" && <th>Was (label: A end, B end)</th>}
          </tr>
        </thead>
        <tbody>
          {(rows?.items ?? []).map((r) => (
            <tr key={r.cable.cable_id} data-cable={r.cable.cable_id} className={r.changed ? "changed" : ""}>
              <td>{r.cable.label}</td>
              <td>{end(r.cable.a)}</td>
              <td>{end(r.cable.b)}</td>
              <td>{r.cable.medium}</td>
              <td className="num">{r.cable.raw_length_m.toFixed(2)} m</td>
              <td className="num">{r.cable.ordered_length_m} m</td>
              {status === "moved" && (
                <td data-testid="diff-moved-from">
                  {r.moved_from ? `${r.moved_from.label}: ${end(r.moved_from.a)}, ${end(r.moved_from.b)}` : ""}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows && rows.total > PAGE && (
        <div className="pager">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            ‹ previous
          </button>
          <span className="muted small">
            page {page} of {pages} ({rows.total.toLocaleString("en")} cables)
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            next ›
          </button>
        </div>
      )}
      <h3>The change alone: what to buy</h3>
      <BomTable bom={diff.bom.buy} testId="upgrade-buy" />
      <h3>What it frees</h3>
      <BomTable bom={diff.bom.freed} testId="upgrade-freed" />
      <p data-testid="upgrade-net">
        Net: <strong>{money(diff.bom.net_total)}</strong> (to buy less freed, priced lines only)
      </p>
    </Dialog>
  );
}
