/**
 * Plans (view): the hall's plans with the figures a planner compares; compare two or more; the
 * difference of two in 3D; plan an upgrade; the bill of materials; the price book; the downloads.
 */
import { useEffect, useState } from "react";
import { clearDiff, DIFF_COLOURS, DIFF_STATUSES, useDiff, usePlanSelection } from "../state/planDiff";
import { notify, READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";
import { useWiring } from "../state/wiring";
import { getDiff, refreshPlans, showDiff, viewPlan, type PlanDiff } from "./api";
import { BomDialog } from "./BomDialog";
import { CompareDialog } from "./CompareDialog";
import { unpricedNote } from "./bom";
import { facilityLine, formatMoney, planFigures, type WiringPlan } from "./compare";
import { DiffDialog } from "./DiffDialog";
import { Downloads } from "./Downloads";
import { PriceBookDialog } from "./PriceBookDialog";
import { UpgradeDialog } from "./UpgradeDialog";
import { upgradeFacilityNote } from "./upgrade";

type Open =
  | { d: "none" }
  | { d: "compare"; plans: WiringPlan[] }
  | { d: "bom"; plan: WiringPlan }
  | { d: "upgrade"; plan: WiringPlan }
  | { d: "diff"; diff: PlanDiff }
  | { d: "prices"; focus?: string[] };

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function PlanRow({
  plan,
  checked,
  viewed,
  onCheck,
  onSetPrices,
}: {
  plan: WiringPlan;
  checked: boolean;
  viewed: boolean;
  onCheck: (on: boolean) => void;
  /** Opens the project's price book at these parts. */
  onSetPrices: (parts: string[]) => void;
}) {
  const f = planFigures(plan);
  const note = upgradeFacilityNote(plan);
  const unpriced = unpricedNote(plan.summary.cost.unpriced);
  const readOnly = useReadOnly();
  return (
    <li className={`plan-row${viewed ? " viewed" : ""}`} data-testid={`plan-${plan.id}`}>
      <label className="plan-check">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onCheck(e.target.checked)}
          aria-label={`Select plan ${plan.id} to compare`}
          data-testid={`plan-select-${plan.id}`}
        />
      </label>
      <div className="plan-body">
        <button
          type="button"
          className="link plan-name"
          onClick={() => void viewPlan(plan)}
          data-testid={`plan-view-${plan.id}`}
        >
          #{plan.id} {plan.name}
        </button>
        <div className="plan-figures muted small">
          {f.servers.toLocaleString("en")} servers · {f.cables.toLocaleString("en")} cables · {f.loops} loops ·{" "}
          {Math.round(f.copperShare * 100)}% copper · {f.optics.toLocaleString("en")} optics ·{" "}
          {formatMoney(f.cost.total, f.cost.currency)}
          {unpriced && (
            <span className="warn" data-testid={`plan-unpriced-${plan.id}`}>
              {" "}
              · ⚠ {unpriced.text}{" "}
              <button
                type="button"
                className="link"
                disabled={readOnly}
                title={readOnly ? READ_ONLY_TITLE : "Open the project's price book at these parts"}
                onClick={() => onSetPrices(plan.summary.cost.unpriced.map((u) => u.part_number))}
                data-testid={`plan-set-prices-${plan.id}`}
              >
                {unpriced.action}
              </button>
            </span>
          )}
          {f.warnings.length > 0 && <span className="warn"> · ⚠ {f.warnings.length}</span>}
          {plan.base_plan_id !== null && <span> · upgrade of #{plan.base_plan_id}</span>}
        </div>
        <div className="plan-figures muted small" data-testid={`plan-facility-${plan.id}`}>
          ⚡ {facilityLine(f.facility)}
          {note && <span data-testid={`plan-facility-change-${plan.id}`}> · {note}</span>}
        </div>
      </div>
    </li>
  );
}

/** `onSimulate`: the simulation form for the ticked plans (one, or two like for like), given by the app shell. */
export function PlansPanel({ onSimulate }: { onSimulate?: (plans: WiringPlan[]) => void } = {}) {
  const hallId = useSession((s) => s.hallId);
  const projectId = useSession((s) => s.projectId);
  const plans = useWiring((s) => s.plans);
  const viewed = useWiring((s) => s.plan);
  const loadingCables = useWiring((s) => s.loading);
  // The diff summary shows while the diff is what the scene draws (another plan opened elsewhere hides it).
  const drawnOverlay = useDiff((s) => s.overlay);
  const diffLoading = useDiff((s) => s.loading);
  const showKept = useDiff((s) => s.showKept);
  const selected = usePlanSelection((s) => s.selected);
  const setSelected = (f: (s: number[]) => number[]) => usePlanSelection.setState((s) => ({ selected: f(s.selected) }));
  const cables = useWiring((s) => s.cables);
  const readOnly = useReadOnly();
  const [open, setOpen] = useState<Open>({ d: "none" });
  const [lastDiff, setLastDiff] = useState<PlanDiff | null>(null);
  const close = () => setOpen({ d: "none" });

  const pricesRevision = useWiring((s) => s.pricesRevision);
  // Read again when the hall opens and whenever the price book is saved: the figures are priced on read.
  useEffect(() => {
    if (!projectId || !hallId) return;
    refreshPlans(projectId, hallId).catch((e: unknown) => notify("error", `Plans: ${message(e)}`));
  }, [projectId, hallId, pricesRevision]);
  // The last difference's bill of materials (to buy, freed) is priced too.
  useEffect(() => {
    if (pricesRevision === 0 || !lastDiff) return;
    let live = true;
    getDiff(lastDiff.new_plan_id, lastDiff.old_plan_id).then(
      (fresh) => live && setLastDiff(fresh),
      (e: unknown) => notify("error", `Difference of #${lastDiff.new_plan_id}: ${message(e)}`),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a saved price book reprices the shown diff
  }, [pricesRevision]);

  const overlay = drawnOverlay && drawnOverlay.newSet === cables ? drawnOverlay : null;
  const chosen = plans.filter((p) => selected.includes(p.id));
  const diffOf = async (older: WiringPlan, newer: WiringPlan) => {
    try {
      setLastDiff(await showDiff(older, newer));
    } catch (e) {
      notify("error", `Difference of #${newer.id} and #${older.id}: ${message(e)}`);
    }
  };
  const byId = (id: number | null) => plans.find((p) => p.id === id) ?? null;
  const base = viewed ? byId(viewed.base_plan_id) : null;
  const shownDiff =
    overlay && lastDiff?.new_plan_id === overlay.newPlanId && lastDiff.old_plan_id === overlay.oldPlanId;

  return (
    <section className="panel-section plans-panel" data-testid="plans-panel">
      <h2>Plans of this hall</h2>
      {plans.length === 0 && (
        <p className="muted">No plan yet: generate one in the Wiring tab, then compare, upgrade and price it here.</p>
      )}
      <ul className="plan-list">
        {plans.map((p) => (
          <PlanRow
            key={p.id}
            plan={p}
            viewed={viewed?.id === p.id}
            checked={selected.includes(p.id)}
            onCheck={(on) => setSelected((s) => (on ? [...s, p.id] : s.filter((x) => x !== p.id)))}
            onSetPrices={(parts) => setOpen({ d: "prices", focus: parts })}
          />
        ))}
      </ul>
      {onSimulate && plans.length > 0 && (
        <div className="button-row">
          <button
            type="button"
            disabled={readOnly || chosen.length > 2 || (chosen.length === 0 && !viewed)}
            title={
              readOnly
                ? READ_ONLY_TITLE
                : "Estimate how fast a workload runs on the ticked plan (or two, like for like), or on the open one"
            }
            onClick={() =>
              onSimulate(chosen.length > 0 ? [...chosen].sort((a, b) => a.id - b.id) : viewed ? [viewed] : [])
            }
            data-testid="plans-simulate"
          >
            Simulate{" "}
            {chosen.length === 2
              ? "2 plans"
              : chosen.length === 1
                ? `#${chosen[0]?.id}`
                : viewed
                  ? `#${viewed.id}`
                  : ""}
            …
          </button>
        </div>
      )}
      {plans.length > 1 && (
        <div className="button-row">
          <button
            type="button"
            disabled={chosen.length < 2}
            onClick={() => setOpen({ d: "compare", plans: [...chosen].sort((a, b) => a.id - b.id) })}
            data-testid="plans-compare"
          >
            Compare {chosen.length >= 2 ? chosen.length : ""} plans
          </button>
          <button
            type="button"
            disabled={chosen.length !== 2 || diffLoading}
            title="The newer plan's cables coloured by what changed from the older one"
            onClick={() => {
              const [a, b] = [...chosen].sort((x, y) => x.id - y.id);
              if (a && b) void diffOf(a, b);
            }}
            data-testid="plans-diff"
          >
            Difference in 3D
          </button>
        </div>
      )}
      {plans.length > 1 && chosen.length < 2 && (
        <p className="muted small">Tick two or more plans to compare them (two for the difference in 3D).</p>
      )}

      {overlay && (
        <div className="diff-summary" data-testid="diff-summary">
          <h3>
            #{overlay.newPlanId} against #{overlay.oldPlanId}
          </h3>
          <table className="media-table">
            <tbody>
              {DIFF_STATUSES.map((s) => (
                <tr key={s} data-testid={`diff-${s}`}>
                  <td>
                    <span className="sw line" style={{ background: DIFF_COLOURS[s].colour }} /> {DIFF_COLOURS[s].label}
                  </td>
                  <td className="num">{overlay.diff.counts[s].toLocaleString("en")}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {overlay.apiCounts.changed > 0 && (
            <p className="muted small">{overlay.apiCounts.changed} kept cable(s) change part or ordered length.</p>
          )}
          <div className="toggles">
            <label>
              <input
                type="checkbox"
                checked={showKept}
                onChange={(e) => useDiff.setState({ showKept: e.target.checked })}
                data-testid="diff-show-kept"
              />{" "}
              show kept cables
            </label>
          </div>
          <div className="button-row">
            {shownDiff && lastDiff && (
              <button type="button" onClick={() => setOpen({ d: "diff", diff: lastDiff })} data-testid="diff-details">
                Cables and bill of materials of the change…
              </button>
            )}
            <button type="button" className="link" onClick={clearDiff} data-testid="diff-clear">
              Back to media colours
            </button>
          </div>
        </div>
      )}

      {viewed && (
        <div className="viewed-plan" data-testid="viewed-plan">
          <h3>
            Viewing #{viewed.id} {viewed.name}
          </h3>
          {loadingCables && <p className="muted small">Loading cables…</p>}
          <div className="button-row">
            <button
              type="button"
              disabled={readOnly}
              title={readOnly ? READ_ONLY_TITLE : undefined}
              onClick={() => setOpen({ d: "upgrade", plan: viewed })}
              data-testid="plan-upgrade"
            >
              Plan an upgrade…
            </button>
            <button type="button" onClick={() => setOpen({ d: "bom", plan: viewed })} data-testid="plan-bom">
              Bill of materials…
            </button>
            {base && (
              <button type="button" onClick={() => void diffOf(base, viewed)} data-testid="plan-diff-base">
                Difference from #{base.id}
              </button>
            )}
          </div>
          <h3>Downloads</h3>
          <Downloads planId={viewed.id} basePlanId={viewed.base_plan_id} />
        </div>
      )}
      {!viewed && plans.length > 0 && <p className="muted small">Open a plan (click its name) for its downloads.</p>}

      {projectId && (
        <button type="button" onClick={() => setOpen({ d: "prices" })} data-testid="open-pricebook">
          Project price book…
        </button>
      )}

      {open.d === "compare" && <CompareDialog plans={open.plans} onClose={close} />}
      {open.d === "bom" && <BomDialog planId={open.plan.id} planName={open.plan.name} onClose={close} />}
      {open.d === "upgrade" && (
        <UpgradeDialog
          base={open.plan}
          onClose={close}
          onCreated={(upgraded) => {
            const from = open.plan;
            close();
            void showDiff(from, upgraded).then(
              (d) => {
                setLastDiff(d);
                setOpen({ d: "diff", diff: d });
              },
              (e: unknown) => notify("error", `Difference of the upgrade: ${message(e)}`),
            );
          }}
        />
      )}
      {open.d === "diff" && <DiffDialog diff={open.diff} onClose={close} />}
      {open.d === "prices" && projectId && <PriceBookDialog projectId={projectId} onClose={close} focus={open.focus} />}
    </section>
  );
}
