/** Toolbar buttons come from the command registry (same source as shortcuts and the help overlay). */
import { COMMANDS_BY_ID, formatKey, isEnabled } from "../commands/registry";
import { useHistoryFlags, useRecords } from "../state/editor";
import { commandContext, runCommand } from "../state/perform";
import { READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";

function CmdButton({ id, icon, active, text }: { id: string; icon: string; active?: boolean; text?: string }) {
  const cmd = COMMANDS_BY_ID[id];
  // Re-render on records/session changes so `enabled` is current.
  useRecords();
  useHistoryFlags();
  useSession((s) => s.selection);
  const readOnly = useReadOnly();
  if (!cmd) return null;
  const enabled = isEnabled(cmd, commandContext());
  const key = cmd.keys[0];
  const off = readOnly && cmd.writes;
  return (
    <button
      type="button"
      className={`tb-btn${active ? " active" : ""}`}
      data-command={id}
      disabled={!enabled}
      title={off ? `${cmd.label}: ${READ_ONLY_TITLE}` : `${cmd.label}${key ? ` (${formatKey(key)})` : ""}`}
      aria-label={cmd.label}
      aria-pressed={active}
      onClick={() => runCommand(cmd)}
    >
      <span className="tb-icon" aria-hidden>
        {icon}
      </span>
      {text && <span className="tb-label">{text}</span>}
    </button>
  );
}

export function Toolbar() {
  const view = useSession((s) => s.view);
  const tool = useSession((s) => s.tool);
  const drawFront = useSession((s) => s.drawFront);
  const readOnly = useReadOnly();
  return (
    <nav className="toolbar" aria-label="Editor tools">
      {readOnly && (
        <span className="tb-readonly" title={READ_ONLY_TITLE} data-testid="read-only">
          Read-only
        </span>
      )}
      <div className="tb-group" role="group" aria-label="View">
        <CmdButton id="view.3d" text="3D" icon="◇" active={view === "3d"} />
        <CmdButton id="view.plan" text="Plan" icon="▦" active={view === "plan"} />
        <CmdButton id="view.elevation" text="Elevation" icon="▥" active={view === "elevation"} />
        <CmdButton id="view.frame" icon="⤢" />
      </div>
      <div className="tb-group" role="group" aria-label="Tools">
        <CmdButton id="tool.select" text="Select" icon="↖" active={tool === "select"} />
        <CmdButton id="tool.draw-row" text="Draw row" icon="✎" active={tool === "draw-row"} />
        <label className="tb-front" title="Which long side of a new row is the front (seen along the drag)">
          Front
          <select
            data-testid="draw-front"
            disabled={readOnly}
            value={drawFront}
            onChange={(e) => useSession.setState({ drawFront: e.target.value === "right" ? "right" : "left" })}
          >
            <option value="left">left of drag</option>
            <option value="right">right of drag</option>
          </select>
        </label>
      </div>
      <div className="tb-group" role="group" aria-label="Layout helpers">
        <CmdButton id="edit.facing-pair" text="Facing pair" icon="⇅" />
        <CmdButton id="edit.duplicate-row" text="Duplicate row" icon="⊕" />
      </div>
      <div className="tb-group" role="group" aria-label="Edit">
        <CmdButton id="edit.rotate" icon="⟲" />
        <CmdButton id="edit.flip-front" icon="⇄" />
        <CmdButton id="edit.delete" icon="✕" />
      </div>
      <div className="tb-group" role="group" aria-label="History">
        <CmdButton id="history.undo" icon="↶" />
        <CmdButton id="history.redo" icon="↷" />
      </div>
      <div className="tb-group" role="group" aria-label="Help">
        <CmdButton id="help.toggle" icon="?" />
        <CmdButton id="view.theme" icon="◐" />
      </div>
    </nav>
  );
}
