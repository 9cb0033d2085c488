/**
 * The project's price book as an editable table: every part with the price a BOM uses and where it
 * comes from. Edits are sent as one PATCH with the version read (If-Match); when someone else saved in
 * between, the table says so and reloads on request, keeping everything typed. CSV export and import.
 */
import { useCallback, useEffect, useState } from "react";
import { notify, READ_ONLY_TITLE, useReadOnly } from "../state/session";
import { pricesChanged } from "../state/wiring";
import { ApiError, request } from "../sync/http";
import { formatMoney } from "./compare";
import { Dialog } from "../widgets/Dialog";
import { draftOf, isDirty, pendingEdit, rebaseDrafts, type Drafts, type PricedParts } from "./priceBook";

const STALE =
  "Someone else changed the price book since you opened it. Reload to see their prices; what you typed is kept.";

/** `focus`: parts to set now (a plan's unpriced ones): marked, the first one's price field focused. */
export function PriceBookDialog({
  projectId,
  onClose,
  focus = [],
}: {
  projectId: number;
  onClose: () => void;
  focus?: readonly string[];
}) {
  const [book, setBook] = useState<PricedParts | null>(null);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [filter, setFilter] = useState<"used" | "all">("used");
  const readOnly = useReadOnly();

  const load = useCallback(
    () =>
      request<PricedParts>("GET", `/projects/${projectId}/price-book/parts`).then(
        (fresh) => {
          setBook(fresh);
          setDrafts((d) => rebaseDrafts(fresh.items, d));
          setStale(false);
          setError(null);
        },
        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
      ),
    [projectId],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const refused = (e: unknown) => {
    if (e instanceof ApiError && (e.status === 409 || e.status === 412)) setStale(true);
    else setError(e instanceof ApiError ? e.items.map((i) => i.msg).join("; ") : String(e));
  };

  const save = async () => {
    if (!book) return;
    const edit = pendingEdit(book.items, drafts);
    setErrors(edit.errors);
    if (Object.keys(edit.errors).length || !edit.count) return;
    setBusy(true);
    try {
      await request("PATCH", `/projects/${projectId}/price-book`, { body: edit.patch, version: book.version });
      pricesChanged();
      setDrafts({});
      await load();
      notify("info", `Price book saved (${edit.count} price${edit.count === 1 ? "" : "s"}).`);
    } catch (e) {
      refused(e);
    } finally {
      setBusy(false);
    }
  };

  const importCsv = async (file: File) => {
    if (!book) return;
    setBusy(true);
    try {
      const csv = await file.text();
      await request("POST", `/projects/${projectId}/price-book/import`, { body: { csv }, version: book.version });
      pricesChanged();
      await load();
      notify("info", `Price book imported from ${file.name}.`);
    } catch (e) {
      refused(e);
    } finally {
      setBusy(false);
    }
  };

  const items = (book?.items ?? []).filter((p) => filter === "all" || p.used || p.source === "project");
  const dirty = book ? book.items.filter((p) => isDirty(p, drafts[p.part_number])).length : 0;
  const money = (x: number | null) => (x === null ? "" : formatMoney(x, ""));
  return (
    <Dialog title="Project price book" onClose={onClose} testId="pricebook-dialog">
      <div className="pricebook-bar">
        <span className="muted small" data-testid="pricebook-version">
          {book ? `Version ${book.version} · prices in ${book.currency}` : "Loading…"}
        </span>
        <label className="small">
          <input
            type="checkbox"
            checked={filter === "all"}
            onChange={(e) => setFilter(e.target.checked ? "all" : "used")}
          />{" "}
          every part (not only those the plans use)
        </label>
        <span className="spacer" />
        <a
          className="button"
          href={`/api/v1/projects/${projectId}/price-book.csv`}
          download
          data-testid="pricebook-export"
        >
          Export CSV
        </a>
        <label className="button" title={readOnly ? READ_ONLY_TITLE : undefined}>
          Import CSV
          <input
            type="file"
            accept=".csv,text/csv"
            hidden
            disabled={busy || readOnly}
            data-testid="pricebook-import"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) void importCsv(f);
            }}
          />
        </label>
      </div>
      {stale && (
        <p className="conflict" role="alert" data-testid="pricebook-stale">
          {STALE}{" "}
          <button type="button" className="link" onClick={() => void load()} data-testid="pricebook-reload">
            Reload
          </button>
        </p>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <table className="plans-table pricebook-table" data-testid="pricebook-table">
        <thead>
          <tr>
            <th>Part</th>
            <th>Category</th>
            <th>Description</th>
            <th className="num">Price ({book?.currency})</th>
            <th className="num">Per metre</th>
            <th>From</th>
            <th className="num">Default</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => {
            const d = drafts[p.part_number] ?? draftOf(p);
            const set = (k: "base" | "perMetre", v: string) =>
              setDrafts((all) => ({ ...all, [p.part_number]: { ...(all[p.part_number] ?? draftOf(p)), [k]: v } }));
            const err = errors[p.part_number];
            return (
              <tr
                key={p.part_number}
                data-part={p.part_number}
                className={`${p.source === null ? "unpriced" : ""}${isDirty(p, drafts[p.part_number]) ? " dirty" : ""}${focus.includes(p.part_number) ? " focused" : ""}`}
              >
                <td>{p.part_number}</td>
                <td>{p.category}</td>
                <td>{p.description}</td>
                <td className="num">
                  <input
                    inputMode="decimal"
                    readOnly={readOnly}
                    aria-label={`Price of ${p.part_number}`}
                    autoFocus={p.part_number === focus[0]}
                    placeholder={p.source === "default" ? money(p.base_price) : "no price"}
                    value={d.base}
                    onChange={(e) => set("base", e.target.value)}
                    data-testid={`price-${p.part_number}`}
                  />
                  {err && <span className="field-error">{err}</span>}
                </td>
                <td className="num">
                  {p.category === "cable" && (
                    <input
                      inputMode="decimal"
                      readOnly={readOnly}
                      aria-label={`Price per metre of ${p.part_number}`}
                      placeholder={p.source === "default" ? money(p.per_metre) : ""}
                      value={d.perMetre}
                      onChange={(e) => set("perMetre", e.target.value)}
                      data-testid={`per-metre-${p.part_number}`}
                    />
                  )}
                </td>
                <td>{p.source === "project" ? "project" : p.source === "default" ? "default" : "⚠ unpriced"}</td>
                <td className="num muted">
                  {p.default_base_price === null
                    ? "—"
                    : `${money(p.default_base_price)}${p.default_per_metre ? ` + ${money(p.default_per_metre)}/m` : ""}`}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="pricebook-bar">
        <button
          type="button"
          className="primary"
          disabled={busy || !dirty || stale || readOnly}
          title={readOnly ? READ_ONLY_TITLE : undefined}
          onClick={() => void save()}
          data-testid="pricebook-save"
        >
          {busy ? "Saving…" : `Save ${dirty} change${dirty === 1 ? "" : "s"}`}
        </button>
        <button type="button" disabled={busy || !dirty} onClick={() => setDrafts({})}>
          Discard changes
        </button>
        <span className="muted small">
          {readOnly ? `${READ_ONLY_TITLE}.` : "An emptied price goes back to the default book's."}
        </span>
      </div>
    </Dialog>
  );
}
