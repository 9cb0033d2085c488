/** The bill of materials of one plan: lines per category, subtotals, currency, price sources, unpriced lines. */
import { useEffect, useState } from "react";
import { useWiring } from "../state/wiring";
import { getBom } from "./api";
import { bomView, type BomView } from "./bom";
import { formatMoney, type Bom } from "./compare";
import { Dialog } from "../widgets/Dialog";

export function BomTable({ bom, testId }: { bom: Bom; testId: string }) {
  const v: BomView = bomView(bom);
  const money = (x: number | null) => (x === null ? "—" : formatMoney(x, v.currency));
  return (
    <div data-testid={testId}>
      {v.unpriced.length > 0 && (
        <p className="bom-unpriced" role="alert" data-testid={`${testId}-unpriced`}>
          ⚠ {v.unpriced.length} line(s) have no price, so the total leaves them out:{" "}
          {v.unpriced.map((l) => l.part_number).join(", ")}. Add them to the project's price book.
        </p>
      )}
      <table className="plans-table bom-table">
        <thead>
          <tr>
            <th>Part</th>
            <th>Description</th>
            <th className="num">Length</th>
            <th className="num">Qty</th>
            <th className="num">Unit price</th>
            <th className="num">Total</th>
            <th>Price from</th>
          </tr>
        </thead>
        {v.groups.map((g) => (
          <tbody key={g.key} data-testid={`${testId}-${g.key}`}>
            <tr className="group">
              <th colSpan={7}>{g.label}</th>
            </tr>
            {g.lines.map((l) => (
              <tr
                key={`${l.part_number}@${l.length_m ?? ""}`}
                className={l.unit_price === null ? "unpriced" : ""}
                data-part={l.part_number}
              >
                <td>{l.part_number}</td>
                <td>{l.description}</td>
                <td className="num">{l.length_m === null ? "" : `${l.length_m} m`}</td>
                <td className="num">{l.quantity.toLocaleString("en")}</td>
                <td className="num">{l.unit_price === null ? "no price" : money(l.unit_price)}</td>
                <td className="num">{money(l.total)}</td>
                <td>
                  {l.price_source === null ? "—" : l.price_source === "project" ? "project book" : "default book"}
                </td>
              </tr>
            ))}
            <tr className="subtotal">
              <td colSpan={3}>{g.label} subtotal</td>
              <td className="num">{g.quantity.toLocaleString("en")}</td>
              <td />
              <td className="num" data-testid={`${testId}-subtotal-${g.key}`}>
                {money(g.subtotal)}
              </td>
              <td />
            </tr>
          </tbody>
        ))}
        <tfoot>
          {v.media && (
            <>
              <tr className="subtotal">
                <td colSpan={5}>Copper (cables)</td>
                <td className="num" data-testid={`${testId}-copper`}>
                  {money(v.media.copper)}
                </td>
                <td />
              </tr>
              <tr className="subtotal">
                <td colSpan={5}>Optical (cables and transceivers)</td>
                <td className="num" data-testid={`${testId}-optical`}>
                  {money(v.media.optical)}
                </td>
                <td />
              </tr>
            </>
          )}
          <tr className="total">
            <td colSpan={5}>Total{v.unpriced.length ? " (priced lines only)" : ""}</td>
            <td className="num" data-testid={`${testId}-total`} data-total={v.total}>
              {money(v.total)}
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
      {bom.warnings.length > 0 && (
        <ul className="warnings">
          {bom.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function BomDialog({ planId, planName, onClose }: { planId: number; planName: string; onClose: () => void }) {
  const [bom, setBom] = useState<Bom | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pricesRevision = useWiring((s) => s.pricesRevision);
  useEffect(() => {
    let live = true;
    getBom(planId).then(
      (b) => live && setBom(b),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [planId, pricesRevision]);
  return (
    <Dialog title={`Bill of materials · #${planId} ${planName}`} onClose={onClose} testId="bom-dialog">
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {!bom && !error && <p className="muted">Loading…</p>}
      {bom && (
        <>
          <p>
            <a className="button" href={`/api/v1/wiring-plans/${planId}/bom.csv`} download data-testid="bom-csv">
              ⤓ Download the BOM (CSV)
            </a>
          </p>
          <BomTable bom={bom} testId="bom" />
        </>
      )}
    </Dialog>
  );
}
