/**
 * `/catalog`: the device models a layout can use. Server models, switch models and rack types, each
 * listed with the builtin ones (read-only) and your own (create, edit, delete). Every value is judged
 * by the API, the one owner of the rules: its refusal is shown under the field it names, in the same
 * words as the other forms (forms.ts `describe`).
 */
import { useCallback, useEffect, useState, type FormEvent } from "react";
import {
  createCatalogEntry,
  deleteCatalogEntry,
  listCatalog,
  updateCatalogEntry,
  type CatalogEntry,
  type CatalogKind,
} from "./api";
import { Confirm } from "./Confirm";
import { FormError, TextField } from "./Field";
import { formErrors, userMessage, type FieldSpec, type FormErrors } from "./forms";

interface Column extends FieldSpec {
  key: string;
  number?: boolean;
  hint?: string;
}

interface Kind {
  title: string;
  one: string;
  columns: Column[];
}

export const CATALOG_KINDS: Record<CatalogKind, Kind> = {
  "server-models": {
    title: "Server models",
    one: "server model",
    columns: [
      { key: "name", label: "Name" },
      { key: "nic_ports", label: "NIC ports", number: true, hint: "Ports per server." },
      { key: "port_gbps", label: "Port speed", unit: "Gb/s", number: true },
      { key: "height_u", label: "Height", unit: "U", number: true },
    ],
  },
  "switch-models": {
    title: "Switch models",
    one: "switch model",
    columns: [
      { key: "name", label: "Name" },
      { key: "server_ports", label: "Server ports", number: true, hint: "Server-facing (downlink) ports." },
      { key: "server_port_gbps", label: "Server port speed", unit: "Gb/s", number: true },
      { key: "uplink_ports", label: "Uplink ports", number: true },
      { key: "uplink_gbps", label: "Uplink speed", unit: "Gb/s", number: true },
      { key: "height_u", label: "Height", unit: "U", number: true },
    ],
  },
  "rack-types": {
    title: "Rack types",
    one: "rack type",
    columns: [
      { key: "name", label: "Name" },
      { key: "width_m", label: "Width", unit: "m", number: true, hint: "Along the row." },
      { key: "depth_m", label: "Depth", unit: "m", number: true, hint: "Across the row." },
      { key: "height_u", label: "Height", unit: "U", number: true },
    ],
  },
};
const KINDS = Object.keys(CATALOG_KINDS) as CatalogKind[];

/** The body to send: numbers as numbers; anything else as typed (the API names what is wrong with it). */
export function entryBody(kind: Kind, values: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const c of kind.columns) {
    const t = (values[c.key] ?? "").trim();
    if (!t) continue; // missing: the API says it is required
    if (!c.number) body[c.key] = t;
    else {
      const n = Number(t.replace(",", "."));
      body[c.key] = Number.isFinite(n) ? n : t;
    }
  }
  return body;
}

function specs(kind: Kind): Record<string, FieldSpec> {
  return Object.fromEntries(kind.columns.map((c) => [c.key, c]));
}

function show(c: Column, e: CatalogEntry): string {
  const v = (e as unknown as Record<string, unknown>)[c.key];
  return c.unit ? `${String(v)} ${c.unit}` : String(v);
}

export function Catalog({ userId }: { userId: number }) {
  return (
    <div className="page" data-testid="catalog-page">
      <h1>Device models</h1>
      <p className="muted">
        The builtin models are shared by everyone and read-only. Models you add are yours: the layouts of every project
        you are a member of can use them.
      </p>
      {KINDS.map((k) => (
        <KindSection key={k} kind={k} userId={userId} />
      ))}
    </div>
  );
}

type Editing = { entry: CatalogEntry | null } | null;

function KindSection({ kind, userId }: { kind: CatalogKind; userId: number }) {
  const k = CATALOG_KINDS[kind];
  const [entries, setEntries] = useState<CatalogEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CatalogEntry | null>(null);
  const reload = useCallback(() => {
    listCatalog(kind).then(
      (items) => {
        setEntries(items);
        setError(null);
      },
      (e: unknown) => setError(userMessage(e)),
    );
  }, [kind]);
  useEffect(reload, [reload]);
  return (
    <section aria-label={k.title} data-testid={`catalog-${kind}`}>
      <h2>{k.title}</h2>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {entries && (
        <table className="list" aria-label={k.title}>
          <thead>
            <tr>
              {k.columns.map((c) => (
                <th key={c.key}>{c.label}</th>
              ))}
              <th>Source</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-testid={`entry-${e.name}`}>
                {k.columns.map((c) => (
                  <td key={c.key}>{show(c, e)}</td>
                ))}
                <td>{e.builtin ? "builtin (read-only)" : e.owner_id === userId ? "yours" : "a member's"}</td>
                <td>
                  {!e.builtin && e.owner_id === userId && (
                    <>
                      <button type="button" className="link" onClick={() => setEditing({ entry: e })}>
                        Edit
                      </button>{" "}
                      <button type="button" className="link danger" onClick={() => setDeleting(e)}>
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing ? (
        <EntryForm
          kind={kind}
          entry={editing.entry}
          onDone={() => {
            setEditing(null);
            reload();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <button type="button" onClick={() => setEditing({ entry: null })}>
          New {k.one}
        </button>
      )}
      {deleting && (
        <Confirm
          title={`Delete ${k.one} “${deleting.name}”?`}
          action="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await deleteCatalogEntry(kind, deleting);
            } catch (e) {
              throw new Error(userMessage(e), { cause: e });
            }
            setDeleting(null);
            reload();
          }}
        >
          <p>Layouts that use it keep it: a model in use cannot be deleted (you are told where it is used).</p>
        </Confirm>
      )}
    </section>
  );
}

function EntryForm({
  kind,
  entry,
  onDone,
  onCancel,
}: {
  kind: CatalogKind;
  entry: CatalogEntry | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const k = CATALOG_KINDS[kind];
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      k.columns.map((c) => [c.key, entry ? String((entry as unknown as Record<string, unknown>)[c.key]) : ""]),
    ),
  );
  const [errors, setErrors] = useState<FormErrors<string>>({ fields: {}, form: null });
  const [busy, setBusy] = useState(false);
  const title = entry ? `Edit ${k.one} “${entry.name}”` : `New ${k.one}`;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = entryBody(k, values);
      if (entry) await updateCatalogEntry(kind, entry, body);
      else await createCatalogEntry(kind, body);
      onDone();
    } catch (err) {
      setErrors(formErrors(err, specs(k)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card form" onSubmit={submit} aria-label={title} noValidate>
      <h3>{title}</h3>
      {k.columns.map((c) => (
        <TextField
          key={c.key}
          label={c.unit ? `${c.label} (${c.unit})` : c.label}
          name={c.key}
          value={values[c.key] ?? ""}
          onChange={(v) => {
            setValues((s) => ({ ...s, [c.key]: v }));
            setErrors((x) => ({ ...x, fields: { ...x.fields, [c.key]: undefined } }));
          }}
          error={errors.fields[c.key]}
          hint={c.hint}
        />
      ))}
      <FormError text={errors.form} />
      <div className="actions">
        <button className="primary" type="submit" disabled={busy}>
          {entry ? "Save" : "Create"}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
