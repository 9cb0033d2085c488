/**
 * The simulation form's engine mode: flow (fast estimate), packet (exact tails, slower) with its
 * transport, buffer and ECN threshold, or decomposed (link-level, tail-accurate at scale) with the same
 * packet settings and a cluster threshold; and the run-time estimate for the request as the form
 * stands, asked of the API (`/simulations/estimate`) a moment after the form last changed.
 */
import { useEffect, useState } from "react";
import { ApiError, request } from "../sync/http";
import { decomposedEstimateText, decomposedLinksText } from "./decomposed";
import {
  DEFAULT_BUFFER_KB,
  DEFAULT_ECN_KB,
  estimateText,
  TRANSPORTS,
  withMode,
  type ModeSettings,
  type SimulationEstimate,
  type Transport,
} from "./packet";
import type { PlanSimulationCreate } from "./presets";

/** Wait this long after the last change before asking (typing a number is several changes). */
const SETTLE_MS = 300;

/** A refused estimate in words, naming the field the API names (`scenario.routing.type: ...`). */
function refusalText(e: unknown): string {
  const field = e instanceof ApiError ? e.items[0]?.field : undefined;
  const text = e instanceof Error ? e.message : String(e);
  return field ? `${field}: ${text}` : text;
}

function useEstimate(planId: number | undefined, body: PlanSimulationCreate | null) {
  // The answer for the request it was asked for: an answer for an older form is not shown.
  const [answer, setAnswer] = useState<{ key: string; est: SimulationEstimate | null; error: string | null }>({
    key: "",
    est: null,
    error: null,
  });
  const key = body && planId !== undefined ? JSON.stringify([planId, body]) : null;
  useEffect(() => {
    if (key === null || planId === undefined || body === null) return;
    let live = true;
    const timer = setTimeout(() => {
      request<SimulationEstimate>("POST", `/wiring-plans/${planId}/simulations/estimate`, { body }).then(
        (est) => live && setAnswer({ key, est, error: null }),
        (e: unknown) => live && setAnswer({ key, est: null, error: refusalText(e) }),
      );
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // `key` stands for planId and body
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const current = key !== null && answer.key === key;
  return { est: current ? answer.est : null, error: current ? answer.error : null, busy: key !== null && !current };
}

const numberOrNull = (x: number) => (Number.isFinite(x) ? x : null);

export function ModeChoice({
  planId,
  draft,
  value,
  onChange,
}: {
  planId: number | undefined;
  /** The first request the form would submit (null while the form cannot build one). */
  draft: PlanSimulationCreate | null;
  value: ModeSettings;
  onChange: (m: ModeSettings) => void;
}) {
  const { est, error, busy } = useEstimate(planId, draft ? withMode(draft, value) : null);
  const set = (change: Partial<ModeSettings>) => onChange({ ...value, ...change });
  const packet = value.mode === "packet";
  const decomposed = value.mode === "decomposed";
  const split = est?.decomposed ?? null;
  const chosen = est ? (decomposed ? split : packet ? est.packet : est.flow) : null;
  return (
    <div className="sim-mode" data-testid="sim-mode">
      <h3>Engine</h3>
      <div className="sim-presets" role="radiogroup" aria-label="Engine mode">
        <label className={`sim-preset${value.mode === "flow" ? " active" : ""}`}>
          <input
            type="radio"
            name="sim-mode"
            checked={value.mode === "flow"}
            onChange={() => set({ mode: "flow" })}
            data-testid="sim-mode-flow"
          />
          <strong>Flow (fast estimate)</strong>
          <span className="muted small">Fluid max-min rates: completion times in seconds, no queues or losses.</span>
        </label>
        <label className={`sim-preset${packet ? " active" : ""}`}>
          <input
            type="radio"
            name="sim-mode"
            checked={packet}
            onChange={() => set({ mode: "packet" })}
            data-testid="sim-mode-packet"
          />
          <strong>Packet (exact tails, slower)</strong>
          <span className="muted small">Every packet through queues with TCP: tails, drops, incast, buffer sizes.</span>
        </label>
        <label className={`sim-preset${decomposed ? " active" : ""}`}>
          <input
            type="radio"
            name="sim-mode"
            checked={decomposed}
            onChange={() => set({ mode: "decomposed" })}
            data-testid="sim-mode-decomposed"
          />
          <strong>Decomposed (link-level, tail-accurate)</strong>
          <span className="muted small">
            Each busy link at packet level with the flows that cross it, spread over the workers; per-hop delays summed
            along each path. Tails at datacenter scale, within the error measured against packet mode.
          </span>
        </label>
      </div>
      {(packet || decomposed) && (
        <div className="sim-params">
          <label className="sim-param">
            <span>Transport</span>
            <select
              value={value.transport}
              onChange={(e) => set({ transport: e.target.value as Transport })}
              data-testid="sim-transport"
            >
              {TRANSPORTS.map((t) => (
                // one flow over several paths has no single link to simulate it on
                <option key={t.value} value={t.value} disabled={decomposed && t.value === "mptcp"}>
                  {t.label}
                  {decomposed && t.value === "mptcp" ? " (not in decomposed mode)" : ""}
                </option>
              ))}
            </select>
            <span className="muted small">{TRANSPORTS.find((t) => t.value === value.transport)?.explain}</span>
          </label>
          <label className="sim-param">
            <span title="A server's NIC queue never drops: the host holds back what its NIC cannot send yet.">
              Switch buffer per port (KB)
            </span>
            <input
              type="number"
              min={1.5}
              step={1}
              value={value.bufferKb ?? ""}
              placeholder={`${DEFAULT_BUFFER_KB} (default)`}
              onChange={(e) => set({ bufferKb: numberOrNull(e.target.valueAsNumber) })}
              data-testid="sim-buffer-kb"
            />
          </label>
          {value.transport === "dctcp" && (
            <label className="sim-param">
              <span>ECN marking threshold (KB)</span>
              <input
                type="number"
                min={0}
                step={1}
                value={value.ecnKb ?? ""}
                placeholder={`${DEFAULT_ECN_KB} (default)`}
                onChange={(e) => set({ ecnKb: numberOrNull(e.target.valueAsNumber) })}
                data-testid="sim-ecn-kb"
              />
            </label>
          )}
          {decomposed && (
            <label className="sim-param">
              <span title="Busy links whose load, flow-size mix and burstiness differ by at most this share are simulated once, by a representative; 0 simulates every busy link.">
                Cluster threshold (0–1)
              </span>
              <input
                type="number"
                min={0}
                max={1}
                step={0.01}
                value={value.clusterThreshold ?? ""}
                placeholder="engine's default"
                onChange={(e) => set({ clusterThreshold: numberOrNull(e.target.valueAsNumber) })}
                data-testid="sim-cluster-threshold"
              />
            </label>
          )}
        </div>
      )}
      <div className="sim-estimate small" data-testid="sim-estimate" aria-live="polite" data-busy={busy}>
        {!draft && <p className="muted">The estimate appears once the workload is complete.</p>}
        {draft && error && (
          <p className="field-error" data-testid="sim-estimate-error">
            No estimate: {error}
          </p>
        )}
        {draft && est && (
          <>
            <p>
              Estimated run time (one seed): <span data-testid="sim-estimate-flow">flow {estimateText(est.flow)}</span>
              {" · "}
              <span data-testid="sim-estimate-packet">packet {estimateText(est.packet)}</span>
              {split && (
                <>
                  {" · "}
                  <span data-testid="sim-estimate-decomposed">decomposed {decomposedEstimateText(split)}</span>
                </>
              )}
              <span className="muted">
                {" "}
                ({Math.round(est.workload.flows).toLocaleString("en")} flows,{" "}
                {Math.round(est.workload.packets).toLocaleString("en")} packets over{" "}
                {est.workload.mean_hops.toLocaleString("en", { maximumFractionDigits: 1 })} links on average)
              </span>
            </p>
            {split && decomposed && <p data-testid="sim-estimate-links">Decomposed: {decomposedLinksText(split)}.</p>}
            {!decomposed && est.decomposed_refused && (
              // said before the planner picks the mode (picked, the estimate itself is refused with the reason)
              <p className="muted" data-testid="sim-estimate-refused">
                Decomposed mode cannot run this: {est.decomposed_refused}.
              </p>
            )}
            {chosen && !chosen.fits && (
              <p className="field-error" role="alert" data-testid="sim-estimate-warning">
                {chosen.reason}
                {packet || decomposed
                  ? ": the server will refuse it. Use flow mode, a smaller workload or a stop time."
                  : "."}
              </p>
            )}
          </>
        )}
      </div>
    </div>
  );
}
