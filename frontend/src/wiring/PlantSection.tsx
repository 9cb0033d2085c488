/**
 * A structured plan's plant in the wiring panel: counts, findings, panels (each opens its port map),
 * trunks, and the focused link's chain step by step. The server's plant, read by the scene
 * (state/plant.ts); nothing here recomputes it.
 */
import { usePlant } from "../state/plant";
import { focusCable, type CableSet } from "../state/wiring";
import { PanelMapDialog } from "./PanelMapDialog";
import { countsLine, findingTarget, stepLine, trunkLine } from "./plant";

/** A big hall has thousands of panels and trunks: the panel lists the first ones, the downloads have all. */
const LISTED = 100;

function More({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return (
    <p className="muted small">
      The first {shown} of {total.toLocaleString("en")}: every one is in the panel map and the trunk pull list (Plans
      tab, downloads).
    </p>
  );
}

export function PlantSection({ planId, cables }: { planId: number; cables: CableSet }) {
  const { plant, error, chain, chainError, openPanel } = usePlant();
  const focus = cables.buffers.cable_ids;
  if (error)
    return (
      <p className="field-error" role="alert">
        {error}
      </p>
    );
  if (!plant) return <p className="muted">Loading the plant…</p>;
  return (
    <div className="wiring-summary" data-testid="plant-section">
      <h3>Structured cabling</h3>
      <p className="small" data-testid="plant-counts">
        {countsLine(plant.counts)}
      </p>
      <p className="muted small">
        Panels {plant.settings.panel_at === "rack" ? "in each rack" : "at the row ends"}. Pick a link (the lists above,
        or click it in 3D) to follow its chain.
      </p>
      <ChainSteps chain={chain} error={chainError} />
      <h3>Plant findings</h3>
      {plant.findings.length === 0 && <p className="muted small">None.</p>}
      {plant.findings_total > plant.findings.length && (
        <p className="muted small">
          The first {plant.findings.length} of {plant.findings_total.toLocaleString("en")} (the validation report has
          them all).
        </p>
      )}
      <ul className="warnings" data-testid="plant-findings">
        {plant.findings.map((f, k) => {
          const target = findingTarget(focus, f.cable_id);
          const text = `${f.severity}: ${f.message}`;
          return (
            <li key={k}>
              {target === null ? (
                <span>{text}</span>
              ) : (
                <button type="button" className="link" onClick={() => focusCable(cables, target)}>
                  {text}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <h3>Panels ({plant.panels.length.toLocaleString("en")})</h3>
      <ul className="cable-list" data-testid="plant-panels">
        {plant.panels.slice(0, LISTED).map((p) => (
          <li key={p.panel_id}>
            <button
              type="button"
              className="link"
              onClick={() => usePlant.setState({ openPanel: p.panel_id })}
              data-testid={`plant-panel-${p.panel_id}`}
            >
              {p.panel_id}
            </button>{" "}
            <span className="muted small">
              {p.model}
              {p.cassette ? ` + ${p.cassettes} × ${p.cassette}` : ""} · {p.ports_used}/{p.front_ports} ports · {p.role}
            </span>
          </li>
        ))}
      </ul>
      <More shown={LISTED} total={plant.panels.length} />
      <h3>Trunks ({plant.trunks.length.toLocaleString("en")})</h3>
      <ul className="cable-list" data-testid="plant-trunks">
        {plant.trunks.slice(0, LISTED).map((t) => (
          <li key={t.item_id} data-testid={`plant-trunk-${t.label}`}>
            {t.label} <span className="muted small">{trunkLine(t)}</span>
          </li>
        ))}
      </ul>
      <More shown={LISTED} total={plant.trunks.length} />
      {openPanel && (
        <PanelMapDialog
          key={openPanel}
          planId={planId}
          panelId={openPanel}
          cables={cables}
          onClose={() => usePlant.setState({ openPanel: null })}
        />
      )}
    </div>
  );
}

function ChainSteps({ chain, error }: { chain: ReturnType<typeof usePlant.getState>["chain"]; error: string | null }) {
  // A server link is not in the plant (it stays direct, in its rack): the server says so.
  if (error)
    return (
      <p className="muted small" data-testid="chain-none">
        No chain for this link: {error}
      </p>
    );
  if (!chain) return null;
  return (
    <div data-testid="chain-steps">
      <h3>Chain of the link</h3>
      <p className="muted small">
        Optics: {chain.optic_a ?? "not known"} at the ToR, {chain.optic_b ?? "not known"} at the fabric switch.
      </p>
      <ol className="chain-steps">
        {chain.steps.map((s) => {
          const l = stepLine(s);
          const panel = s.item.kind === "panel port" ? s.item.a_end : null;
          return (
            <li key={s.position} data-testid={`chain-step-${s.position}`} data-kind={l.kind}>
              <strong>{l.kind}</strong> {l.label}
              <div className="muted small">
                {l.part}
                {l.length ? ` · ${l.length}` : ""} · {l.ends}
              </div>
              {panel && (
                <button
                  type="button"
                  className="link small"
                  onClick={() => usePlant.setState({ openPanel: panel })}
                  data-testid={`chain-step-${s.position}-map`}
                >
                  port map of {panel}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
