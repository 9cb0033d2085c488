/**
 * Two or more plans side by side: one row per figure, figures that differ highlighted; what each plan
 * asks of the plant beyond the first, in words (the API's diff of the two).
 */
import { useEffect, useState } from "react";
import { getDiff } from "./api";
import { compareRows, planFigures, type WiringPlan } from "./compare";
import { Dialog } from "../widgets/Dialog";

export function CompareDialog({ plans, onClose }: { plans: WiringPlan[]; onClose: () => void }) {
  const figures = plans.map(planFigures);
  const rows = compareRows(figures);
  const [words, setWords] = useState<Record<number, string>>({});
  const first = plans[0];
  useEffect(() => {
    if (!first) return;
    let live = true;
    for (const p of plans.slice(1)) {
      getDiff(p.id, first.id).then(
        (d) => live && setWords((w) => ({ ...w, [p.id]: d.facility.words })),
        (e: unknown) =>
          live && setWords((w) => ({ ...w, [p.id]: `(not compared: ${e instanceof Error ? e.message : String(e)})` })),
      );
    }
    return () => {
      live = false;
    };
  }, [plans, first]);
  return (
    <Dialog title={`Compare ${plans.length} plans`} onClose={onClose} testId="compare-dialog">
      <p className="muted small">
        Figures that differ between the plans are highlighted. Costs are priced with the project's price book as it is
        now.
      </p>
      <table className="plans-table compare-table" data-testid="compare-table">
        <thead>
          <tr>
            <th />
            {figures.map((f) => (
              <th key={f.id} className="num">
                #{f.id} {f.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.flatMap((r, i) => {
            const out = [];
            if (r.group !== rows[i - 1]?.group) {
              out.push(
                <tr key={`g-${r.group}`} className="group">
                  <th colSpan={figures.length + 1}>{r.group}</th>
                </tr>,
              );
            }
            out.push(
              <tr key={r.key} className={r.differs ? "differs" : ""} data-testid={`compare-${r.key}`}>
                <th>{r.label}</th>
                {r.values.map((v, i) => (
                  <td key={figures[i]?.id ?? i} className="num" data-plan={figures[i]?.id}>
                    {v}
                  </td>
                ))}
              </tr>,
            );
            return out;
          })}
        </tbody>
      </table>
      {first && plans.length > 1 && (
        <ul className="plant-changes" data-testid="compare-plant">
          {plans.slice(1).map((p) => (
            <li key={p.id} data-testid={`compare-plant-${p.id}`}>
              #{p.id} against #{first.id}: {words[p.id] ?? "…"}
            </li>
          ))}
        </ul>
      )}
      {figures.some((f) => f.warnings.length > 0) && (
        <>
          <h3>Warnings</h3>
          {figures.map((f) =>
            f.warnings.length ? (
              <div key={f.id}>
                <strong>#{f.id}</strong>
                <ul className="warnings">
                  {f.warnings.map((w) => (
                    <li key={w}>{w}</li>
                  ))}
                </ul>
              </div>
            ) : null,
          )}
        </>
      )}
    </Dialog>
  );
}
