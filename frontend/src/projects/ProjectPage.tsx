/** One project: its halls (open one, add one) and its members. */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  createHall,
  deleteHall,
  getProject,
  listCatalog,
  listHalls,
  type CatalogEntry,
  type Hall,
  type Project,
} from "./api";
import { Confirm } from "./Confirm";
import { Field, FormError, TextField } from "./Field";
import { formErrors, userMessage, type FormErrors } from "./forms";
import {
  GPU_DEFAULTS,
  GPU_FIELDS,
  gpuHallBody,
  HALL_DEFAULTS,
  HALL_FIELDS,
  HALL_KIND_LABELS,
  hallBody,
  type GpuField,
  type GpuValues,
  type HallField,
  type HallValues,
} from "./hallForm";
import { Members } from "./Members";
import { linkProps, navigate } from "./route";

export function ProjectPage({ projectId, userId }: { projectId: number; userId: number }) {
  const [project, setProject] = useState<Project | null>(null);
  const [halls, setHalls] = useState<Hall[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Which new-hall form is open: a general hall, or a GPU hall laid out from its cluster's numbers.
  const [adding, setAdding] = useState<"general" | "gpu" | null>(null);
  const [deleting, setDeleting] = useState<Hall | null>(null);
  const reload = useCallback(() => {
    Promise.all([getProject(projectId), listHalls(projectId)]).then(
      ([p, h]) => {
        setProject(p);
        setHalls(h);
        setError(null);
      },
      (e: unknown) => setError(userMessage(e)),
    );
  }, [projectId]);
  useEffect(reload, [reload]);

  if (error)
    return (
      <div className="page">
        <p className="field-error" role="alert">
          This project could not be opened. {error}
        </p>
        <a {...linkProps({ name: "projects" })}>Back to your projects</a>
      </div>
    );
  if (!project || !halls) return <div className="center muted">Loading the project…</div>;
  const canWrite = project.role === "owner" || project.role === "editor";
  const empty = halls.length === 0;
  const form = adding ?? (empty ? "general" : null);
  return (
    <div className="page" data-testid="project-page">
      <div className="page-head">
        <h1>{project.name}</h1>
        <span className="spacer" />
        {canWrite && form !== "general" && (
          <button type="button" className="primary" onClick={() => setAdding("general")}>
            New hall
          </button>
        )}
        {canWrite && form !== "gpu" && (
          <button type="button" className="primary" onClick={() => setAdding("gpu")} data-testid="new-gpu-hall">
            New GPU hall
          </button>
        )}
      </div>
      {project.description && <p className="muted">{project.description}</p>}
      <section aria-labelledby="halls-heading">
        <h2 id="halls-heading">Halls</h2>
        {empty && (
          <div className="empty-state" data-testid="empty-halls">
            {canWrite ? (
              <>
                <p>
                  This project has no hall yet. Add one with its floor size and the narrowest cold and hot aisles you
                  accept; then open it to draw rows of racks.
                </p>
                <ol className="steps">
                  <li className="done">Create a project</li>
                  <li className="current">Add a hall</li>
                  <li>Open the hall and draw rows of racks</li>
                </ol>
              </>
            ) : (
              <p>This project has no hall yet. An editor or the owner of the project can add one.</p>
            )}
          </div>
        )}
        {canWrite && form !== null && (
          <NewHall
            key={form}
            gpu={form === "gpu"}
            projectId={project.id}
            onCancel={empty && form === "general" ? undefined : () => setAdding(null)}
            onCreated={(h) => navigate({ name: "hall", projectId: project.id, hallId: h.id, planId: null })}
          />
        )}
        {!empty && (
          <ul className="hall-list" aria-label="Halls">
            {halls.map((h) => (
              <li key={h.id} className="card hall-card" data-testid={`hall-${h.id}`}>
                <a
                  className="hall-open"
                  {...linkProps({ name: "hall", projectId: project.id, hallId: h.id, planId: null })}
                >
                  <strong>{h.name}</strong>
                  <span className={`badge hall-kind ${h.kind}`} data-testid="hall-kind" data-kind={h.kind}>
                    {HALL_KIND_LABELS[h.kind]}
                  </span>
                  <span className="muted small">
                    {fmt(h.width_m)} × {fmt(h.depth_m)} m · site {h.site} · tiles {fmt(h.tile_m)} m
                  </span>
                  <span className="muted small">
                    aisles at least {fmt(h.min_cold_aisle_m)} m cold, {fmt(h.min_hot_aisle_m)} m hot
                    {h.raised_floor ? ` · raised floor ${fmt(h.raised_floor_height_m)} m` : ""}
                  </span>
                </a>
                {canWrite && (
                  <button
                    type="button"
                    className="link danger-link hall-delete"
                    aria-label={`Delete hall ${h.name}`}
                    onClick={() => setDeleting(h)}
                  >
                    Delete
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {deleting && (
        <Confirm
          title={`Delete hall “${deleting.name}”?`}
          action="Delete hall"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await deleteHall(deleting);
            } catch (e) {
              throw new Error(userMessage(e), { cause: e });
            }
            setDeleting(null);
            reload();
          }}
        >
          <p>Its rows, racks and wiring plans are deleted for every member of the project. This cannot be undone.</p>
        </Confirm>
      )}
      <Members key={project.role} project={project} userId={userId} onOwnRoleChanged={reload} />
    </div>
  );
}

const fmt = (m: number) => m.toLocaleString("en", { maximumFractionDigits: 2 });

const ALL_FIELDS = { ...HALL_FIELDS, ...GPU_FIELDS };

function NewHall({
  projectId,
  gpu,
  onCreated,
  onCancel,
}: {
  projectId: number;
  /** A GPU hall: its rows and racks are laid out by the server from the cluster's numbers. */
  gpu: boolean;
  onCreated: (h: Hall) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<HallValues>(HALL_DEFAULTS);
  const [gpuValues, setGpuValues] = useState<GpuValues>(GPU_DEFAULTS);
  const [errors, setErrors] = useState<FormErrors<HallField | GpuField>>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const set = (f: keyof HallValues) => (v: string | boolean) => {
    setValues((s) => ({ ...s, [f]: v }));
    setErrors((e) => ({ ...e, fields: { ...e.fields, [f]: undefined } }));
  };
  const setGpu = (f: GpuField) => (v: string) => {
    setGpuValues((s) => ({ ...s, [f]: v }));
    setErrors((e) => ({ ...e, fields: { ...e.fields, [f]: undefined } }));
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = gpu ? gpuHallBody(values, gpuValues) : hallBody(values);
    if ("errors" in checked) {
      setErrors({ fields: checked.errors, form: null });
      return;
    }
    setBusy(true);
    try {
      onCreated(await createHall(projectId, checked.body));
    } catch (err) {
      setErrors(formErrors(err, gpu ? ALL_FIELDS : HALL_FIELDS));
      setBusy(false);
    }
  };
  const num = (f: HallField, hint?: string) => (
    <TextField
      label={`${HALL_FIELDS[f].label} (${HALL_FIELDS[f].unit ?? ""})`}
      name={f}
      inputMode="decimal"
      value={values[f] as string}
      onChange={set(f)}
      error={errors.fields[f]}
      hint={hint}
    />
  );
  return (
    <form className="card form" onSubmit={submit} aria-label={gpu ? "New GPU hall" : "New hall"} noValidate>
      <div className="field-row">
        <TextField
          label="Hall name"
          name="name"
          value={values.name}
          onChange={set("name")}
          error={errors.fields.name}
          placeholder="e.g. H1"
          autoFocus
        />
        <TextField
          label="Site code"
          name="site"
          value={values.site}
          onChange={set("site")}
          error={errors.fields.site}
          hint="Used in cable labels."
        />
      </div>
      <div className="field-row">
        {num("width_m")}
        {num("depth_m")}
      </div>
      <div className="field-row">
        {num("min_cold_aisle_m", "Narrower cold aisles are flagged. Blank: the usual minimum.")}
        {num("min_hot_aisle_m", "Narrower hot aisles are flagged. Blank: the usual minimum.")}
      </div>
      <div className="field-row">
        {num("tile_m")}
        {num("tray_height_m", "Height of the overhead tray above the rack tops.")}
      </div>
      <div className="field-row">
        <Field label="Raised floor">
          {(a11y) => (
            <label className="check">
              <input
                type="checkbox"
                {...a11y}
                name="raised_floor"
                checked={values.raised_floor}
                onChange={(e) => set("raised_floor")(e.target.checked)}
              />
              cables under the floor
            </label>
          )}
        </Field>
      </div>
      {values.raised_floor && <div className="field-row">{num("raised_floor_height_m")}</div>}
      {gpu && <GpuClusterFields values={gpuValues} set={setGpu} errors={errors.fields} />}
      <FormError text={errors.form} />
      <div className="form-actions">
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Creating…" : gpu ? "Create GPU hall" : "Create hall"}
        </button>
        {onCancel && (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

const modelLabel = (e: CatalogEntry): string =>
  "gpus" in e
    ? `${e.name} (${e.gpus} GPUs, ${e.nic_ports} × ${e.port_gbps}G)`
    : "server_ports" in e
      ? `${e.name} (${e.server_ports} × ${e.server_port_gbps}G + ${e.uplink_ports} × ${e.uplink_gbps}G)`
      : e.name;

/**
 * The cluster's numbers and models: GPU servers (the catalog's models with GPUs), rail leaves and
 * spines (its switches; no spine model: a rail-only hall). The server lays out a row per SU with a
 * network rack for its rail leaves, and a row of spine racks.
 */
function GpuClusterFields({
  values,
  set,
  errors,
}: {
  values: GpuValues;
  set: (f: GpuField) => (v: string) => void;
  errors: Partial<Record<GpuField, string>>;
}) {
  const [servers, setServers] = useState<CatalogEntry[]>([]);
  const [switches, setSwitches] = useState<CatalogEntry[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    Promise.all([listCatalog("server-models"), listCatalog("switch-models")]).then(
      ([sv, sw]) => {
        setServers(sv.filter((e) => "gpus" in e && e.gpus > 0));
        setSwitches(sw);
      },
      (e: unknown) => setLoadError(userMessage(e)),
    );
  }, []);
  const text = (f: GpuField, hint?: string) => (
    <TextField
      label={GPU_FIELDS[f].label}
      name={f}
      inputMode="numeric"
      value={values[f]}
      onChange={set(f)}
      error={errors[f]}
      hint={hint}
    />
  );
  const choose = (f: GpuField, models: CatalogEntry[], none: string) => (
    <Field label={GPU_FIELDS[f].label} error={errors[f]}>
      {(a11y) => (
        <select {...a11y} name={f} value={values[f]} onChange={(e) => set(f)(e.target.value)}>
          <option value="">{none}</option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {modelLabel(m)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  return (
    <fieldset className="gpu-cluster" data-testid="gpu-cluster">
      <legend>GPU cluster</legend>
      <p className="muted small">
        A row per scalable unit (its GPU racks, and a network rack at the row&apos;s end for its rail leaves), and a row
        of spine racks. The floor must hold them: the server says how large it needs to be.
      </p>
      {loadError && <FormError text={`The catalog could not be read: ${loadError}`} />}
      <div className="field-row">
        {text("scalable_units")}
        {text("servers_per_su", "At most the rail leaf's server ports.")}
      </div>
      <div className="field-row">
        {choose("server_model_id", servers, servers.length ? "choose a GPU server…" : "no GPU server in the catalog")}
        {text("servers_per_rack")}
      </div>
      <div className="field-row">
        {choose("rail_leaf_model_id", switches, "choose a switch…")}
        {choose("spine_model_id", switches, "none (rail-only: no spine)")}
      </div>
      <div className="field-row">{text("spines", "0 without a spine model.")}</div>
      <p className="muted small">
        The front-end network (storage, in-band management): the GPU racks&apos; own ToR and, if it has any, its spines,
        placed after the compute spines.
      </p>
      <div className="field-row">
        {choose("frontend_tor_model_id", switches, "the rail leaf model")}
        {choose("frontend_spine_model_id", switches, "none (servers to ToRs only)")}
      </div>
      <div className="field-row">{text("frontend_spines", "0 without a front-end spine model.")}</div>
    </fieldset>
  );
}
