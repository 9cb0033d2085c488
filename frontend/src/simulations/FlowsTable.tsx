/**
 * One row per flow of a run: paged on the server (a million flows stay there), sorted by index,
 * completion time or slowdown, filtered to finished or unfinished flows; the whole table as CSV.
 */
import { useEffect, useState } from "react";
import { flowPage, flowsCsvUrl, pageCount, type FlowPage, type FlowQuery, type FlowSort } from "./flows";
import { formatSeconds } from "./results";

const LIMIT = 50;
const SORTABLE: { key: FlowSort; label: string }[] = [
  { key: "fct_s", label: "Completion" },
  { key: "slowdown", label: "Slowdown" },
];

export function FlowsTable({ jobId, records }: { jobId: number; records: number | null }) {
  const [query, setQuery] = useState<FlowQuery>({ sort: "index", order: "asc", flows: "all", page: 1, limit: LIMIT });
  const [page, setPage] = useState<FlowPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (records === null) return;
    let live = true;
    flowPage(jobId, query).then(
      (p) => live && (setPage(p), setError(null)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [jobId, records, query]);
  if (records === null)
    return <p className="muted small">No per-flow table: this run kept no per-flow records (over 1,000,000 flows).</p>;
  const pages = page ? pageCount(page.total, page.limit) : 1;
  const sortBy = (key: FlowSort) =>
    setQuery((q) => ({ ...q, sort: key, order: q.sort === key && q.order === "asc" ? "desc" : "asc", page: 1 }));
  const arrow = (key: FlowSort) => (query.sort === key ? (query.order === "asc" ? " ▲" : " ▼") : "");
  return (
    <section className="sim-flows" data-testid="flows-table">
      <h4>
        Flows{" "}
        <span className="muted small" data-testid="flows-total" data-total={page?.total}>
          {page ? `${page.total.toLocaleString("en")} ${query.flows === "all" ? "" : `${query.flows} `}flows` : "…"}
        </span>
      </h4>
      <p className="button-row small">
        <label>
          Show{" "}
          <select
            value={query.flows}
            onChange={(e) => setQuery((q) => ({ ...q, flows: e.target.value as FlowQuery["flows"], page: 1 }))}
            data-testid="flows-filter"
          >
            <option value="all">all flows</option>
            <option value="finished">finished</option>
            <option value="unfinished">unfinished</option>
          </select>
        </label>
        <a href={flowsCsvUrl(jobId)} download data-testid="sim-download-flows">
          Download flows (CSV)
        </a>
      </p>
      {error && <p className="field-error">{error}</p>}
      <table className="plans-table">
        <thead>
          <tr>
            <th className="num">
              <button type="button" className="link" onClick={() => sortBy("index")} data-testid="flows-sort-index">
                #{arrow("index")}
              </button>
            </th>
            <th>From</th>
            <th>To</th>
            <th className="num">Bytes</th>
            <th className="num">Start</th>
            {SORTABLE.map((s) => (
              <th className="num" key={s.key}>
                <button
                  type="button"
                  className="link"
                  onClick={() => sortBy(s.key)}
                  data-testid={`flows-sort-${s.key}`}
                >
                  {s.label}
                  {arrow(s.key)}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {page?.items.map((f) => (
            <tr key={f.index} data-testid="flow-row" data-index={f.index}>
              <td className="num">{f.index}</td>
              <td>{f.src}</td>
              <td>{f.dst}</td>
              <td className="num">{f.bytes.toLocaleString("en")}</td>
              <td className="num">{formatSeconds(f.start_s)}</td>
              <td className="num" data-fct={f.fct_s ?? ""}>
                {f.fct_s === null ? <span className="warn">did not finish</span> : formatSeconds(f.fct_s)}
              </td>
              <td className="num">{f.slowdown === null ? "—" : `${f.slowdown.toFixed(2)}×`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="button-row small">
        <button
          type="button"
          disabled={query.page <= 1}
          onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}
          data-testid="flows-prev"
        >
          ‹ Previous
        </button>
        <span data-testid="flows-page">
          page {query.page} of {pages.toLocaleString("en")}
        </span>
        <button
          type="button"
          disabled={query.page >= pages}
          onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}
          data-testid="flows-next"
        >
          Next ›
        </button>
      </p>
    </section>
  );
}
