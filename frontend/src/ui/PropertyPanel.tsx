/** Rack contents for one rack, a whole row, or the selection; errors show next to their field. */
import { useMemo, useState, type ReactNode } from "react";
import {
  addFabricSwitch,
  moveFabricSwitch,
  nextFreeU,
  removeFabricSwitch,
  setRackRole,
  targetRacks,
  updateRackContents,
  type FabricRole,
  type Result,
} from "../commands/layout";
import {
  isRack,
  isRow,
  racksOf,
  usedU,
  type RackContents,
  type RackRecord,
  type RecordId,
  type SwitchModel,
} from "../model/records";
import { formatLength } from "../model/units";
import { useCatalog } from "../state/catalog";
import { editor, useRecords } from "../state/editor";
import { perform, rowOfSelection } from "../state/perform";
import { READ_ONLY_TITLE, setErrors, useReadOnly, useSession } from "../state/session";
import { RackFacilitySection } from "./RackFacility";

type Scope = "selection" | "row";

const FIELDS = [
  "rackType",
  "logicalRacks",
  "serversPerLogicalRack",
  "serverModel",
  "portsUsed",
  "torModel",
  "torPosition",
  "portFace",
] as const;

function contentsOf(r: RackContents): RackContents {
  const { rackType, logicalRacks, serversPerLogicalRack, serverModel, portsUsed, torModel, torPosition, portFace } = r;
  return { rackType, logicalRacks, serversPerLogicalRack, serverModel, portsUsed, torModel, torPosition, portFace };
}

function Field({ label, name, children, hint }: { label: string; name: string; children: ReactNode; hint?: string }) {
  const error = useSession((s) =>
    s.errors.find((e) => e.target === "props" && (e.field === name || e.field.startsWith(`${name}.`))),
  );
  if (!label && !error) return null;
  return (
    <label className={`field${error ? " has-error" : ""}`} data-field={name}>
      <span className="field-label">{label}</span>
      {children}
      {hint && !error && <span className="field-hint">{hint}</span>}
      {error && (
        <span className="field-error" role="alert" data-testid={`error-${name}`}>
          {error.message}
        </span>
      )}
    </label>
  );
}

export function PropertyPanel() {
  const records = useRecords();
  const selection = useSession((s) => s.selection);
  const readOnly = useReadOnly();
  const [scope, setScope] = useState<Scope>("selection");
  const targets = useMemo(() => {
    if (scope === "row") {
      const rowId = rowOfSelection(selection);
      return rowId ? [rowId] : [];
    }
    return selection;
  }, [scope, selection]);
  const racks = useMemo(() => targetRacks(records, targets), [records, targets]);
  const first = racks[0];
  if (selection.length === 0 || !first) {
    return (
      <section className="panel-section">
        <h2>Properties</h2>
        <p className="muted">Select a row or a rack (click a rack: its row; click again: the rack).</p>
      </section>
    );
  }
  const firstKey = JSON.stringify(contentsOf(first)) + first.id + targets.join();
  const one = scope === "selection" && selection.length === 1 && isRack(records[selection[0] ?? ""]) ? first : null;
  // A viewer reads the properties; a disabled fieldset turns off every control inside.
  return (
    <fieldset className="plain" disabled={readOnly} data-testid="property-fieldset">
      {readOnly && <p className="muted small">{READ_ONLY_TITLE}: the properties are shown, not editable.</p>}
      {one && <RoleField rack={one} />}
      {one?.role === "network" ? (
        <NetworkRackForm rack={one} />
      ) : (
        <ContentsForm key={firstKey} first={first} racks={racks} targets={targets} scope={scope} setScope={setScope} />
      )}
      {one && <RackFacilitySection rack={one} />}
    </fieldset>
  );
}

/** Run a layout command from the panel: one undo step, or its error next to the field. */
function run(r: Result): boolean {
  if ("error" in r) {
    setErrors("props", [{ field: r.error.field, message: r.error.message }]);
    return false;
  }
  setErrors("props", []);
  return perform({ kind: "diff", diff: r.diff }, "props");
}

function RoleField({ rack }: { rack: RackRecord }) {
  return (
    <section className="panel-section">
      <Field
        label="Rack role"
        name="role"
        hint="A network rack holds the fabric's spine, aggregation or core switches."
      >
        <select
          value={rack.role}
          onChange={(e) => run(setRackRole(editor.records, rack.id, e.target.value as RackRecord["role"]))}
          data-testid="input-rack-role"
        >
          <option value="compute">Compute (servers and ToRs)</option>
          <option value="network">Network (fabric switches)</option>
        </select>
      </Field>
    </section>
  );
}

const ROLES: { value: FabricRole; label: string; word: string }[] = [
  { value: "spine", label: "Spine", word: "spine" },
  { value: "agg", label: "Aggregation", word: "aggregation" },
  { value: "core", label: "Core", word: "core" },
];

/** The catalog model a new switch of this role starts with: one named for the role, else the biggest. */
function defaultModel(models: readonly SwitchModel[], role: FabricRole): SwitchModel | undefined {
  const word = ROLES.find((r) => r.value === role)?.word ?? role;
  return (
    models.find((m) => m.name.toLowerCase().includes(word)) ??
    [...models].sort((a, b) => b.serverPorts - a.serverPorts)[0]
  );
}

function NetworkRackForm({ rack }: { rack: RackRecord }) {
  const catalog = useCatalog();
  const [role, setRole] = useState<FabricRole>("spine");
  const [modelName, setModelName] = useState<string | null>(null);
  const [u, setU] = useState("");
  const model = catalog.switchModels.find((m) => m.name === modelName) ?? defaultModel(catalog.switchModels, role);
  const freeU = model ? nextFreeU(rack, model.heightU) : null;
  const modelOf = (id?: number) => catalog.switchModels.find((m) => m.id === id)?.name ?? "switch";
  const add = () => {
    if (!model) return;
    const at = u.trim() === "" ? undefined : Number(u);
    if (run(addFabricSwitch(editor.records, rack.id, { role, model, u: at }))) setU("");
  };
  return (
    <section className="panel-section" data-testid="network-rack">
      <h2>
        Rack {rack.name} · {rack.fabricSwitches.length} fabric switch{rack.fabricSwitches.length === 1 ? "" : "es"}
      </h2>
      {rack.fabricSwitches.length === 0 && (
        <p className="muted small">No switches yet: add the spines (leaf-spine) or aggregation and core switches.</p>
      )}
      <ul className="switch-list" style={{ listStyle: "none", padding: 0 }} data-testid="fabric-switches">
        {[...rack.fabricSwitches].reverse().map((f) => (
          <li key={f.name} data-testid={`fabric-switch-${f.name}`}>
            <Field label={`${f.name} · ${f.role} · ${modelOf(f.modelId)}`} name={`switch.${f.name}`}>
              <span className="field-row">
                <input
                  type="number"
                  min={1}
                  max={rack.rackType.heightU}
                  defaultValue={f.u}
                  aria-label={`U of ${f.name}`}
                  onBlur={(e) => {
                    const v = Number(e.target.value);
                    if (v !== f.u) run(moveFabricSwitch(editor.records, rack.id, f.name, v));
                  }}
                />
                <button
                  type="button"
                  onClick={() => run(removeFabricSwitch(editor.records, rack.id, f.name))}
                  data-testid={`remove-switch-${f.name}`}
                >
                  Remove
                </button>
              </span>
            </Field>
          </li>
        ))}
      </ul>
      <div className="field-row">
        <Field label="Role" name="switchRole">
          <select
            value={role}
            onChange={(e) => {
              setRole(e.target.value as FabricRole);
              setModelName(null);
            }}
            data-testid="input-switch-role"
          >
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </Field>
        <Field label="U position" name="switchU" hint={freeU === null ? "rack full" : `next free: U${freeU}`}>
          <input
            type="number"
            min={1}
            max={rack.rackType.heightU}
            placeholder={freeU === null ? "" : String(freeU)}
            value={u}
            onChange={(e) => setU(e.target.value)}
            data-testid="input-switch-u"
          />
        </Field>
      </div>
      <Field
        label="Switch model"
        name="switchModel"
        hint={
          model
            ? `${model.serverPorts} × ${model.serverPortGbps}G down, ${model.uplinkPorts} up, ${model.heightU}U`
            : ""
        }
      >
        <select
          value={model?.name ?? ""}
          onChange={(e) => setModelName(e.target.value)}
          data-testid="input-switch-model"
        >
          {catalog.switchModels.map((m) => (
            <option key={m.name}>{m.name}</option>
          ))}
        </select>
      </Field>
      <Field label="" name="fabricSwitches">
        <span />
      </Field>
      <button type="button" className="primary" onClick={add} disabled={!model} data-testid="add-switch">
        Add {ROLES.find((r) => r.value === role)?.label.toLowerCase()}
      </button>
    </section>
  );
}

function ContentsForm({
  first,
  racks,
  targets,
  scope,
  setScope,
}: {
  first: RackRecord;
  racks: RackRecord[];
  targets: readonly RecordId[];
  scope: Scope;
  setScope: (s: Scope) => void;
}) {
  const records = useRecords();
  const selection = useSession((s) => s.selection);
  const catalog = useCatalog();
  const [draft, setDraft] = useState<RackContents>(contentsOf(first));
  const selRows = selection.map((id) => records[id]).filter(isRow);
  const selRacks = selection.map((id) => records[id]).filter(isRack);
  const title =
    selection.length === 1 && selRacks[0]
      ? `Rack ${selRacks[0].name}`
      : selection.length === 1 && selRows[0]
        ? `Row ${selRows[0].name} · ${racksOf(records, selRows[0].id).length} racks`
        : `${selection.length} selected · ${racks.length} racks`;
  const mixed = FIELDS.filter((f) => racks.some((r) => JSON.stringify(r[f]) !== JSON.stringify(first[f])));
  const set = <K extends keyof RackContents>(k: K, v: RackContents[K]) => setDraft({ ...draft, [k]: v });
  const num = (v: string) => (v === "" ? Number.NaN : Number(v));
  const need = usedU(draft);
  const apply = () => {
    const patch: Partial<RackContents> = {};
    for (const f of FIELDS)
      if (JSON.stringify(draft[f]) !== JSON.stringify(first[f]) || mixed.includes(f))
        Object.assign(patch, { [f]: draft[f] });
    const r = updateRackContents(editor.records, targets, patch);
    if ("error" in r) {
      setErrors("props", [{ field: r.error.field, message: r.error.message }]);
      return;
    }
    setErrors("props", []);
    perform({ kind: "diff", diff: r.diff }, "props");
  };
  return (
    <section className="panel-section" data-testid="property-panel">
      <h2>{title}</h2>
      <div className="scope" role="radiogroup" aria-label="Apply to">
        <span className="muted">Apply to</span>
        <label>
          <input type="radio" checked={scope === "selection"} onChange={() => setScope("selection")} /> selection
        </label>
        <label>
          <input type="radio" checked={scope === "row"} onChange={() => setScope("row")} data-testid="scope-row" />{" "}
          whole row
        </label>
      </div>
      {mixed.length > 0 && (
        <p className="muted small">
          Mixed values in: {mixed.join(", ")} — applying sets them on all {racks.length} racks.
        </p>
      )}
      <Field
        label="Rack type"
        name="rackType"
        hint={`${formatLength(draft.rackType.widthMm)} × ${formatLength(draft.rackType.depthMm)}, ${draft.rackType.heightU}U`}
      >
        <select
          value={draft.rackType.name}
          onChange={(e) => set("rackType", catalog.rackTypes.find((t) => t.name === e.target.value) ?? draft.rackType)}
        >
          {catalog.rackTypes.map((t) => (
            <option key={t.name}>{t.name}</option>
          ))}
        </select>
      </Field>
      <div className="field-row">
        <Field label="b · logical racks" name="logicalRacks">
          <input
            type="number"
            min={0}
            max={16}
            value={Number.isNaN(draft.logicalRacks) ? "" : draft.logicalRacks}
            onChange={(e) => set("logicalRacks", num(e.target.value))}
            data-testid="input-b"
          />
        </Field>
        <Field label="r · servers per logical rack" name="serversPerLogicalRack">
          <input
            type="number"
            min={0}
            max={96}
            value={Number.isNaN(draft.serversPerLogicalRack) ? "" : draft.serversPerLogicalRack}
            onChange={(e) => set("serversPerLogicalRack", num(e.target.value))}
            data-testid="input-r"
          />
        </Field>
      </div>
      <Field
        label="Server model"
        name="serverModel"
        hint={`${draft.serverModel.nicPorts} × ${draft.serverModel.portGbps}G NIC ports`}
      >
        <select
          value={draft.serverModel.name}
          onChange={(e) =>
            set("serverModel", catalog.serverModels.find((t) => t.name === e.target.value) ?? draft.serverModel)
          }
        >
          {catalog.serverModels.map((t) => (
            <option key={t.name}>{t.name}</option>
          ))}
        </select>
      </Field>
      <Field label="p · ports cabled per server" name="portsUsed">
        <input
          type="number"
          min={1}
          max={16}
          value={Number.isNaN(draft.portsUsed) ? "" : draft.portsUsed}
          onChange={(e) => set("portsUsed", num(e.target.value))}
          data-testid="input-p"
        />
      </Field>
      <Field
        label="ToR model"
        name="torModel"
        hint={`${draft.torModel.serverPorts} × ${draft.torModel.serverPortGbps}G + ${draft.torModel.uplinkPorts} × ${draft.torModel.uplinkGbps}G`}
      >
        <select
          value={draft.torModel.name}
          onChange={(e) =>
            set("torModel", catalog.switchModels.find((t) => t.name === e.target.value) ?? draft.torModel)
          }
        >
          {catalog.switchModels.map((t) => (
            <option key={t.name}>{t.name}</option>
          ))}
        </select>
      </Field>
      <div className="field-row">
        <Field label="ToR position" name="torPosition">
          <select
            value={draft.torPosition}
            onChange={(e) => set("torPosition", e.target.value as RackContents["torPosition"])}
            data-testid="input-tor-position"
          >
            <option value="top">top</option>
            <option value="middle">middle</option>
            <option value="bottom">bottom</option>
          </select>
        </Field>
        <Field label="Port face" name="portFace">
          <select value={draft.portFace} onChange={(e) => set("portFace", e.target.value as RackContents["portFace"])}>
            <option value="front">front</option>
            <option value="rear">rear</option>
          </select>
        </Field>
      </div>
      <p className={`fit${need > draft.rackType.heightU ? " bad" : ""}`} data-testid="fit">
        Uses {Number.isNaN(need) ? "?" : need}U of {draft.rackType.heightU}U · q = r × p ={" "}
        {draft.serversPerLogicalRack * draft.portsUsed} of {draft.torModel.serverPorts} ToR ports
      </p>
      <Field label="" name="selection">
        <span />
      </Field>
      <Field label="" name="contents">
        <span />
      </Field>
      <button type="button" className="primary" onClick={apply} data-testid="apply-contents">
        Apply to {racks.length} rack{racks.length === 1 ? "" : "s"}
      </button>
    </section>
  );
}
