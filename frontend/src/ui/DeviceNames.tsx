/**
 * The editor's Names tab: the hall's host-name template, the name every device gets (its override,
 * else the template's, else its location), asset tags, and the CSV round trip (download, edit
 * host_name / asset_tag, upload: all or nothing, each refused cell named by line and column). The
 * API owns every rule; refusals are shown as it words them.
 */
import { useCallback, useEffect, useState, type ChangeEvent, type FormEvent } from "react";
import type { components } from "../api/schema";
import { useReadOnly, useSession } from "../state/session";
import { ApiError, request } from "../sync/http";

type Names = components["schemas"]["DeviceNamesRead"];
const PAGE = 200;

function messages(e: unknown): string[] {
  if (e instanceof ApiError && e.items.length) return e.items.map((i) => i.msg);
  return [e instanceof Error ? e.message : String(e)];
}

export function DeviceNamesPanel() {
  const hallId = useSession((s) => s.hallId);
  const readOnly = useReadOnly();
  const [data, setData] = useState<Names | null>(null);
  const [page, setPage] = useState(1);
  const [template, setTemplate] = useState("");
  const [templateError, setTemplateError] = useState<string | null>(null);
  const [uploadErrors, setUploadErrors] = useState<string[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const base = `/halls/${hallId ?? 0}/device-names`;
  const load = useCallback(
    (p: number) => {
      if (hallId === null) return;
      request<Names>("GET", `${base}?page=${p}&limit=${PAGE}`).then(
        (got) => {
          setData(got);
          setTemplate((t) => (t === "" ? (got.template ?? "") : t));
        },
        (e: unknown) => setUploadErrors(messages(e)),
      );
    },
    [base, hallId],
  );
  useEffect(() => load(page), [load, page]);

  const apply = async (e: FormEvent) => {
    e.preventDefault();
    if (!data) return;
    setBusy(true);
    setTemplateError(null);
    try {
      setData(
        await request<Names>("PATCH", `${base}?page=${page}&limit=${PAGE}`, {
          body: { template: template.trim() || null },
          version: data.version,
        }),
      );
      setNote(template.trim() ? "Template applied." : "Devices are named by their location again.");
    } catch (err) {
      setTemplateError(messages(err).join(" "));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file || !data) return;
    setBusy(true);
    setUploadErrors([]);
    setNote(null);
    try {
      const got = await request<Names>("POST", `${base}/import?page=${page}&limit=${PAGE}`, {
        body: { csv: await file.text() },
        version: data.version,
      });
      setData(got);
      setNote(`${file.name} applied.`);
    } catch (err) {
      setUploadErrors(messages(err));
    } finally {
      setBusy(false);
    }
  };

  if (hallId === null) return null;
  const pages = data ? Math.max(1, Math.ceil(data.total / PAGE)) : 1;
  return (
    <div className="device-names" data-testid="device-names">
      <form onSubmit={apply} aria-label="Naming template" noValidate>
        <label htmlFor="naming-template">Naming template</label>
        <input
          id="naming-template"
          className="mono"
          value={template}
          disabled={readOnly}
          placeholder="{hall}-{row}{rack:02}-s{u:02}"
          aria-invalid={Boolean(templateError)}
          aria-describedby="naming-template-hint"
          onChange={(e) => {
            setTemplate(e.target.value);
            setTemplateError(null);
          }}
        />
        <p id="naming-template-hint" className="muted small">
          Fields: {"{site} {hall} {row} {rack_name} {role}"}; counters {"{rack}"} (rack in its row), {"{u}"} (lowest U),{" "}
          {"{n}"} (device in its rack); {"{u:02}"} pads to two digits. Empty: location names.
        </p>
        {templateError && (
          <p className="field-error" role="alert" data-testid="template-error">
            {templateError}
          </p>
        )}
        {!readOnly && (
          <button type="submit" className="primary" disabled={busy || !data}>
            Apply template
          </button>
        )}
      </form>
      <div className="device-names-csv">
        <a className="button" href={`/api/v1${base}.csv`} download data-testid="names-csv-download">
          Download names (CSV)
        </a>
        {!readOnly && (
          <label className="button">
            Upload CSV of overrides
            <input
              type="file"
              accept=".csv,text/csv"
              hidden
              disabled={busy || !data}
              onChange={(e) => void upload(e)}
              data-testid="names-csv-upload"
            />
          </label>
        )}
      </div>
      {note && <p className="muted small">{note}</p>}
      {uploadErrors.length > 0 && (
        <ul className="field-error" role="alert" data-testid="names-upload-errors">
          {uploadErrors.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      )}
      {data && (
        <>
          <table className="list small" aria-label="Device names">
            <thead>
              <tr>
                <th>Device</th>
                <th>Name</th>
                <th>Asset tag</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((d) => (
                <tr key={d.device} data-testid={`device-${d.device}`}>
                  <td className="mono" title={`${d.role}, row ${d.row}, rack ${d.rack}, U${d.u}`}>
                    {d.device}
                  </td>
                  <td className="mono" title={`from the ${d.source}`}>
                    {d.name}
                  </td>
                  <td>{d.asset_tag ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted small">
            {data.total} devices
            {pages > 1 && (
              <>
                {" "}
                · page {page} of {pages}{" "}
                <button type="button" className="link" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>{" "}
                <button type="button" className="link" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </>
            )}
          </p>
        </>
      )}
    </div>
  );
}
