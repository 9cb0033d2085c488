/**
 * The facility report follows the layout: fetched when the hall opens, when the viewed plan changes,
 * when facility settings are saved, and after every saved edit (debounced: a burst of edits asks
 * once). The status bar counts its errors and warnings beside the layout's; a click opens the
 * Facility tab.
 */
import { useEffect } from "react";
import { facilityCounts, useFacility } from "../state/facility";
import { useSession } from "../state/session";
import { useWiring } from "../state/wiring";
import { refreshFacility } from "../sync/facility";

/** Wait this long after the last saved edit before asking (a drag's nudges, a row of edits). */
export const FACILITY_DEBOUNCE_MS = 300;

export function FacilityStatus() {
  const hallId = useSession((s) => s.hallId);
  const saving = useSession((s) => s.saving);
  const lastSavedAt = useSession((s) => s.lastSavedAt);
  const planId = useWiring((s) => s.plan?.id ?? null);
  const revision = useFacility((s) => s.revision);
  // Another hall's report must not colour this hall's racks (names repeat from hall to hall).
  useEffect(() => {
    const v = useFacility.getState().view;
    if (v && v.hallId !== hallId) useFacility.setState({ view: null, tray: null });
  }, [hallId]);
  useEffect(() => {
    if (hallId === null || saving) return;
    const t = setTimeout(() => void refreshFacility(hallId, planId), FACILITY_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [hallId, saving, lastSavedAt, planId, revision]);
  const view = useFacility((s) => (s.view?.hallId === hallId ? s.view : null));
  const stale = useFacility((s) => s.pending) || saving > 0;
  const error = useFacility((s) => s.error);
  if (!view) return error ? <span className="warn">Facility report: {error}</span> : null;
  const { errors, warnings } = facilityCounts(view.issues);
  const title =
    (stale ? "From the last check: the edited layout is being checked. " : "") +
    "Power, heat, weight and tray checks: open the Facility tab";
  return (
    <button
      type="button"
      className={`link facility-status${errors ? " bad" : warnings ? " warn" : ""}${stale ? " stale" : ""}`}
      data-testid="facility-status"
      data-errors={errors}
      data-warnings={warnings}
      data-stale={stale ? "true" : undefined}
      title={title}
      onClick={() => useSession.setState({ panel: "facility" })}
    >
      Facility: {errors === 0 && warnings === 0 ? "✓ no violations" : null}
      {errors > 0 && `${errors} error${errors === 1 ? "" : "s"}`}
      {errors > 0 && warnings > 0 && " · "}
      {warnings > 0 && `${warnings} warning${warnings === 1 ? "" : "s"}`}
    </button>
  );
}
