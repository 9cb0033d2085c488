import { COMMANDS, formatKey } from "../commands/registry";
import { useSession } from "../state/session";

const GROUPS = { view: "View", tools: "Tools", edit: "Edit", history: "History", help: "Help" } as const;

export function HelpOverlay() {
  const open = useSession((s) => s.helpOpen);
  if (!open) return null;
  const mac = typeof navigator !== "undefined" && /Mac/.test(navigator.platform);
  return (
    <div
      className="overlay"
      role="dialog"
      aria-label="Keyboard shortcuts"
      onClick={() => useSession.setState({ helpOpen: false })}
    >
      <div className="help" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard shortcuts</h2>
        <div className="help-cols">
          {(Object.keys(GROUPS) as (keyof typeof GROUPS)[]).map((g) => (
            <section key={g}>
              <h3>{GROUPS[g]}</h3>
              <dl>
                {COMMANDS.filter((c) => c.group === g).map((c) => (
                  <div key={c.id} className="help-row">
                    <dt>{c.label}</dt>
                    <dd>
                      {c.keys.map((k) => (
                        <kbd key={k}>{formatKey(k, mac)}</kbd>
                      ))}
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          <section>
            <h3>Mouse</h3>
            <dl>
              <div className="help-row">
                <dt>Select a row / then a rack</dt>
                <dd>
                  <kbd>Click</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>Add to selection</dt>
                <dd>
                  <kbd>Shift + Click</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>Plan view: move a row (drag a rack), box select (drag the floor)</dt>
                <dd>
                  <kbd>Drag</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>3D view: orbit, wherever the drag starts</dt>
                <dd>
                  <kbd>Left drag</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>3D view: move the selected row (click it first, then drag it)</dt>
                <dd>
                  <kbd>Drag selection</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>Pan</dt>
                <dd>
                  <kbd>Right / middle drag</kbd>
                </dd>
              </div>
              <div className="help-row">
                <dt>Zoom</dt>
                <dd>
                  <kbd>Wheel</kbd>
                </dd>
              </div>
            </dl>
          </section>
        </div>
        <p className="muted">
          Press <kbd>?</kbd> or click outside to close.
        </p>
      </div>
    </div>
  );
}
