/**
 * A rack's facility in its property panel: its power (each feed's load against its 80 % limit, the
 * budget), heat against cooling, weight against its static load and the floor rating, from the hall's
 * facility report; and its facility fields (feeds A/B with voltage, phases, breaker and PDU; budget;
 * cooling and its kind; static load), saved through the API as one rack update.
 */
import { useEffect, useState } from "react";
import type { RackRecord } from "../model/records";
import { facilityColour, pctText, rackLoadLines, useFacility } from "../state/facility";
import { READ_ONLY_TITLE, useReadOnly, useSession } from "../state/session";
import { activeSync } from "../sync/active";
import {
  loadPduModels,
  loadRackSettings,
  refusals,
  saveRackFacility,
  type PduModel,
  type RackSettings,
} from "../sync/facility";
import { feedsBody, generalErrors, settingsBody, type SettingSpec } from "./facilityForm";
import { useHallSettings } from "./HallFacilitySettings";
import { SettingsFields } from "./SettingsFields";

const RACK_SPECS: SettingSpec[] = [
  { key: "power_budget_kw", label: "Power budget", unit: "kW", min: 0, exclusiveMin: true },
  { key: "cooling_kw", label: "Cooling", unit: "kW", min: 0 },
  {
    key: "cooling_kind",
    label: "Cooling kind",
    options: [
      ["air", "air"],
      ["rear-door", "rear-door heat exchanger"],
      ["liquid", "liquid"],
    ],
  },
  { key: "static_load_kg", label: "Static load", unit: "kg", min: 0, exclusiveMin: true },
];

const feedSpecs = (pdus: readonly PduModel[]): SettingSpec[] => [
  { key: "voltage_v", label: "Voltage", unit: "V", min: 0, exclusiveMin: true },
  {
    key: "phases",
    label: "Phases",
    options: [
      ["1", "single-phase"],
      ["3", "three-phase"],
    ],
  },
  { key: "breaker_a", label: "Breaker", unit: "A", min: 0, exclusiveMin: true },
  { key: "pdu_model_id", label: "PDU", options: pdus.map((p) => [String(p.id), `${p.name} (${p.outlets} outlets)`]) },
];

export function RackFacilitySection({ rack }: { rack: RackRecord }) {
  const hallId = useSession((s) => s.hallId) ?? 0;
  const load = useFacility((s) => s.view?.byRack.get(rack.name) ?? null);
  const pending = useFacility((s) => s.pending);
  const revision = useFacility((s) => s.revision);
  const hall = useHallSettings(hallId);
  const floorRating = hall?.values.floor_load_kg_m2?.value;
  const lines = load ? rackLoadLines(load, typeof floorRating === "number" ? floorRating : null) : [];
  return (
    <section className="panel-section" data-testid="rack-facility" data-rack={rack.name}>
      <h3>Power, heat and weight</h3>
      {!load ? (
        <p className="muted small">{pending ? "Checking…" : "Not in the facility report yet."}</p>
      ) : (
        <>
          <p className="small" data-testid="rack-facility-draw">
            Draws {(load.typicalW / 1000).toFixed(1)} kW typical, {(load.maxW / 1000).toFixed(1)} kW max
          </p>
          <table className="facility-loads" data-stale={pending ? "true" : undefined}>
            <tbody>
              {lines.map((l) => (
                <tr key={l.key} data-testid={`rack-load-${l.key}`} data-pct={l.pct ?? ""}>
                  <th>{l.label}</th>
                  <td>{l.text}</td>
                  <td className="mono">
                    {l.pct !== null && (
                      <>
                        <span className="sw" style={{ background: facilityColour(l.pct) }} /> {pctText(l.pct)}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small" data-testid="rack-facility-worst">
            Worst: {load.worst}
          </p>
          {load.missing.length > 0 && (
            <ul className="warnings small" data-testid="rack-facility-missing">
              {load.missing.map((m) => (
                <li key={m} className="warn">
                  ⚠ {m}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <RackFacilityForm key={`${rack.id}:${revision}`} rack={rack} />
    </section>
  );
}

function RackFacilityForm({ rack }: { rack: RackRecord }) {
  const readOnly = useReadOnly();
  const [settings, setSettings] = useState<RackSettings | null>(null);
  const [pdus, setPdus] = useState<PduModel[]>([]);
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [feedCount, setFeedCount] = useState<1 | 2 | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const serverId = activeSync()?.serverId(rack.id);
  useEffect(() => {
    if (serverId === undefined) return;
    let live = true;
    loadRackSettings(serverId).then(
      (s) => live && setSettings(s),
      (e: unknown) => live && setErrors(refusals(e)),
    );
    loadPduModels().then(
      (p) => live && setPdus(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [serverId]);
  if (!settings) return errors[""] ? <p className="field-error">{errors[""]}</p> : null;
  const FEED = feedSpecs(pdus);
  const count = feedCount ?? (settings.feeds.length >= 2 ? 2 : 1);
  const save = async () => {
    const rackPart = settingsBody(RACK_SPECS, settings.values, typed);
    const feedPart = feedsBody(FEED, settings.feeds, typed, count);
    const errs = { ...("errors" in rackPart ? rackPart.errors : {}), ...("errors" in feedPart ? feedPart.errors : {}) };
    if ("errors" in rackPart || "errors" in feedPart) {
      setErrors(errs);
      return;
    }
    // Numbers the selects hold as text.
    const feeds = feedPart.feeds.map((f) => ({
      ...f,
      phases: f.phases === null ? null : Number(f.phases),
      pdu_model_id: f.pdu_model_id === null ? null : Number(f.pdu_model_id),
    }));
    setBusy(true);
    try {
      // The feeds are written as a whole list, and only when the planner touched them (a rack on the
      // default feeds keeps them as defaults when only its budget changes).
      const touched = feedCount !== null || Object.keys(typed).some((k) => /^[AB]\./.test(k));
      if (!touched && Object.keys(rackPart.body).length === 0) return;
      await saveRackFacility(settings.id, touched ? { ...rackPart.body, feeds } : rackPart.body);
      setErrors({});
    } catch (e) {
      // `feeds.0.breaker_a` -> `A.breaker_a` (the feeds were sent A first).
      const byField = refusals(e);
      setErrors(
        Object.fromEntries(
          Object.entries(byField).map(([k, v]) => [
            k.replace(/^feeds\.(\d)\./, (_, i: string) => `${i === "0" ? "A" : "B"}.`),
            v,
          ]),
        ),
      );
    } finally {
      setBusy(false);
    }
  };
  const feedErrors = (name: string) =>
    Object.fromEntries(
      Object.entries(errors)
        .filter(([k]) => k.startsWith(`${name}.`))
        .map(([k, v]) => [k.slice(2), v]),
    );
  return (
    <fieldset className="plain" disabled={readOnly || busy} data-testid="rack-facility-form">
      {readOnly && <p className="muted small">{READ_ONLY_TITLE}.</p>}
      <h4>Feeds</h4>
      <label className="check">
        <input
          type="checkbox"
          checked={count === 2}
          onChange={(e) => setFeedCount(e.target.checked ? 2 : 1)}
          data-testid="rack-feed-b"
        />{" "}
        Two feeds (A/B): each alone carries the whole rack
      </label>
      {(count === 2 ? ["A", "B"] : ["A"]).map((name) => {
        // A feed the rack does not have yet shows blank fields: left so, it is the default feed.
        const feed = settings.feeds.find((f) => f.name === name);
        return (
          <div key={name} className="field-row wrap" data-testid={`rack-feed-${name}`}>
            <strong className="small">Feed {name}</strong>
            <SettingsFields
              specs={FEED}
              current={feed?.values ?? {}}
              typed={Object.fromEntries(
                Object.entries(typed)
                  .filter(([k]) => k.startsWith(`${name}.`))
                  .map(([k, v]) => [k.slice(2), v]),
              )}
              setTyped={(k, t) => setTyped({ ...typed, [`${name}.${k}`]: t })}
              errors={feedErrors(name)}
              testPrefix={`rack-feed-${name}`}
            />
          </div>
        );
      })}
      <h4>Budget, cooling, load</h4>
      <SettingsFields
        specs={RACK_SPECS}
        current={settings.values}
        typed={typed}
        setTyped={(k, t) => setTyped({ ...typed, [k]: t })}
        errors={errors}
        testPrefix="rack"
      />
      {generalErrors(errors, [
        ...RACK_SPECS,
        ...["A", "B"].flatMap((n) => FEED.map((s) => ({ ...s, key: `${n}.${s.key}` }))),
      ]).map((e) => (
        <p key={e} className="field-error" role="alert">
          {e}
        </p>
      ))}
      <button type="button" className="primary" onClick={() => void save()} data-testid="rack-facility-save">
        {busy ? "Saving…" : `Save rack ${rack.name}'s facility`}
      </button>
    </fieldset>
  );
}
