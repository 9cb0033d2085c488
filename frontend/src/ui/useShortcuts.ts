import { useEffect } from "react";
import { commandForKey } from "../commands/registry";
import { TOOLS } from "../tools/tools";
import { runCommand } from "../state/perform";
import { useSession } from "../state/session";

/** Keyboard shortcuts from the command registry; ignored while typing in a field. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (
        el &&
        (el.tagName === "INPUT" || el.tagName === "SELECT" || el.tagName === "TEXTAREA" || el.isContentEditable)
      )
        return;
      if (e.key === "Escape") {
        // Escape cancels the gesture in progress first, then the tool, then the selection.
        TOOLS[useSession.getState().tool].cancel();
        const s = useSession.getState();
        if (s.helpOpen) useSession.setState({ helpOpen: false });
        else if (s.tool !== "select") useSession.setState({ tool: "select" });
        else useSession.setState({ selection: [] });
        e.preventDefault();
        return;
      }
      const cmd = commandForKey(e);
      if (!cmd) return;
      e.preventDefault();
      runCommand(cmd);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
