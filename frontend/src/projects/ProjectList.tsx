/**
 * Your projects: create, rename, delete, import a project document, export one. A new account sees
 * what to do first (create a project) instead of an empty table.
 */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { createProject, deleteProject, exportUrl, listProjects, renameProject, type Project } from "./api";
import { Confirm } from "./Confirm";
import { FormError, TextField } from "./Field";
import { checkText, formErrors, userMessage, type FieldSpec, type FormErrors } from "./forms";
import { ImportButton } from "./ImportProject";
import { linkProps, navigate } from "./route";

const PROJECT_FIELDS: Record<"name" | "description", FieldSpec> = {
  name: { label: "Project name" },
  description: { label: "Description" },
};

const ROLE_WORDS: Record<NonNullable<Project["role"]>, string> = {
  owner: "Owner",
  editor: "Editor",
  viewer: "Viewer",
};

/** A file name for a project's export: its name, safe on every system. */
export function exportFileName(name: string): string {
  const safe = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\w.-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
  return `${safe || "project"}.loopline.json`;
}

export function ProjectList() {
  const [projects, setProjects] = useState<Project[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Project | null>(null);
  const reload = useCallback(() => {
    listProjects().then(
      (p) => {
        setProjects(p);
        setLoadError(null);
      },
      (e: unknown) => setLoadError(userMessage(e)),
    );
  }, []);
  useEffect(reload, [reload]);

  if (loadError)
    return (
      <div className="page">
        <p className="field-error" role="alert">
          Your projects could not be loaded. {loadError}{" "}
          <button type="button" className="link" onClick={reload}>
            Retry
          </button>
        </p>
      </div>
    );
  if (!projects) return <div className="center muted">Loading your projects…</div>;

  const empty = projects.length === 0;
  return (
    <div className="page" data-testid="project-list">
      <div className="page-head">
        <h1>Projects</h1>
        <span className="spacer" />
        {!empty && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New project
          </button>
        )}
        <ImportButton onImported={(id) => navigate({ name: "project", projectId: id })} />
      </div>
      {empty && (
        <section className="empty-state" data-testid="empty-state">
          <h2>Start with a project</h2>
          <p>
            A project holds the halls of one site or study: their floor layouts, wiring plans and the people you work
            with. Create one, then add a hall to it and draw its rows.
          </p>
          <ol className="steps">
            <li className="current">Create a project</li>
            <li>Add a hall: its floor size and minimum aisle widths</li>
            <li>Open the hall and draw rows of racks</li>
          </ol>
        </section>
      )}
      {(empty || creating) && (
        <NewProject
          onCancel={empty ? undefined : () => setCreating(false)}
          onCreated={(p) => navigate({ name: "project", projectId: p.id })}
        />
      )}
      {!empty && (
        <table className="list" aria-label="Projects">
          <thead>
            <tr>
              <th>Name</th>
              <th>Your role</th>
              <th>Created</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {projects.map((p) => (
              <ProjectRow key={p.id} project={p} onChanged={reload} onDelete={() => setDeleting(p)} />
            ))}
          </tbody>
        </table>
      )}
      {deleting && (
        <Confirm
          title={`Delete project “${deleting.name}”?`}
          action="Delete project"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await deleteProject(deleting);
            } catch (e) {
              throw new Error(userMessage(e), { cause: e });
            }
            setDeleting(null);
            reload();
          }}
        >
          <p>Its halls, layouts, wiring plans and simulations are deleted for every member. This cannot be undone.</p>
          <p className="muted small">Export it first if you may need it again.</p>
        </Confirm>
      )}
    </div>
  );
}

function NewProject({ onCreated, onCancel }: { onCreated: (p: Project) => void; onCancel?: () => void }) {
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [errors, setErrors] = useState<FormErrors<"name" | "description">>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const nameError = checkText(name, PROJECT_FIELDS.name, { min: 1, max: 200 });
    const descriptionError = checkText(description, PROJECT_FIELDS.description, { max: 2000 });
    if (nameError || descriptionError) {
      setErrors({ fields: { name: nameError ?? undefined, description: descriptionError ?? undefined }, form: null });
      return;
    }
    setBusy(true);
    try {
      onCreated(await createProject(name.trim(), description.trim()));
    } catch (err) {
      setErrors(formErrors(err, PROJECT_FIELDS));
      setBusy(false);
    }
  };
  return (
    <form className="card form" onSubmit={submit} aria-label="New project" noValidate>
      <TextField
        label="Project name"
        name="project-name"
        value={name}
        onChange={setName}
        error={errors.fields.name}
        placeholder="e.g. Frankfurt DC2 — 25G upgrade"
        autoFocus
      />
      <TextField
        label="Description"
        name="project-description"
        value={description}
        onChange={setDescription}
        error={errors.fields.description}
        hint="Optional: what this project studies."
      />
      <FormError text={errors.form} />
      <div className="form-actions">
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create project"}
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

function ProjectRow({
  project,
  onChanged,
  onDelete,
}: {
  project: Project;
  onChanged: () => void;
  onDelete: () => void;
}) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const canWrite = project.role === "owner" || project.role === "editor";
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const local = checkText(name, PROJECT_FIELDS.name, { min: 1, max: 200 });
    if (local) {
      setError(local);
      return;
    }
    setBusy(true);
    try {
      await renameProject(project, name.trim());
      setRenaming(false);
      setError(null);
      onChanged();
    } catch (err) {
      const f = formErrors(err, PROJECT_FIELDS);
      setError(f.fields.name ?? f.form);
    } finally {
      setBusy(false);
    }
  };
  return (
    <tr data-testid={`project-${project.id}`}>
      <td>
        {renaming ? (
          <form className="inline-form" onSubmit={save} aria-label={`Rename ${project.name}`} noValidate>
            <TextField
              label="New name"
              name="rename"
              value={name}
              onChange={(v) => {
                setName(v);
                setError(null);
              }}
              error={error}
              autoFocus
            />
            <button className="primary" type="submit" disabled={busy}>
              Save
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => {
                setRenaming(false);
                setName(project.name);
                setError(null);
              }}
            >
              Cancel
            </button>
          </form>
        ) : (
          <>
            <a className="project-name" {...linkProps({ name: "project", projectId: project.id })}>
              {project.name}
            </a>
            {project.description && <div className="muted small">{project.description}</div>}
          </>
        )}
      </td>
      <td>{project.role ? ROLE_WORDS[project.role] : ""}</td>
      <td className="muted">{new Date(project.created_at).toLocaleDateString()}</td>
      <td className="actions">
        {canWrite && !renaming && (
          <button type="button" className="link" onClick={() => setRenaming(true)}>
            Rename
          </button>
        )}
        <a className="link" href={exportUrl(project.id)} download={exportFileName(project.name)}>
          Export
        </a>
        {project.role === "owner" && (
          <button type="button" className="link danger-link" onClick={onDelete}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}
