/**
 * Per-flow records of a result: the exact completion-time CDF (every finished flow, from the API's
 * sorted float64 values), pages of the per-flow table, and the CSV download. A run that kept no
 * records (over 1,000,000 flows, or from before records were kept) answers 409: callers fall back to
 * the result's quantiles.
 */
import type { components } from "../api/schema";
import { API, ApiError, request } from "../sync/http";
import type { Series } from "./results";

export type FlowRecord = components["schemas"]["FlowRecordRead"];
export type FlowPage = components["schemas"]["Page_FlowRecordRead_"];
export type FlowSort = "index" | "fct_s" | "slowdown";
export type FlowFilter = "all" | "finished" | "unfinished";

/** The finished flows' completion times (seconds, ascending) and the run's flow count (finished or not). */
export interface FlowValues {
  values: Float64Array;
  total: number;
}

/** Little-endian float64s as the API sends them (a copy when this machine is big-endian). */
export function decodeFloat64(buf: ArrayBuffer): Float64Array {
  const n = Math.floor(buf.byteLength / 8);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  if (little) return new Float64Array(buf, 0, n);
  const view = new DataView(buf);
  return Float64Array.from({ length: n }, (_, i) => view.getFloat64(i * 8, true));
}

/** The exact CDF's values, or null when the run kept no per-flow records. */
export async function fetchFlowValues(jobId: number, of: "fct_s" | "slowdown" = "fct_s"): Promise<FlowValues | null> {
  const res = await fetch(`${API}/simulations/${jobId}/results/flows/cdf?of=${of}`, { credentials: "same-origin" });
  if (res.status === 409) return null;
  if (!res.ok) throw new ApiError(res.status, [{ loc: [], msg: `flow CDF: ${res.status} ${res.statusText}` }]);
  const total = Number(res.headers.get("X-Flows-Total") ?? "0");
  return { values: decodeFloat64(await res.arrayBuffer()), total };
}

/**
 * The empirical CDF as chart data: x = each finished flow's completion in ms (ascending), y = its rank
 * over every flow of the run, so the curve ends below 1 by the share that did not finish.
 */
export function cdfCurve({ values, total }: FlowValues, scale = 1000): { x: number[]; y: number[] } {
  const n = values.length;
  const denominator = Math.max(total, n, 1);
  const x = new Array<number>(n);
  const y = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    x[i] = (values[i] ?? 0) * scale;
    y[i] = (i + 1) / denominator;
  }
  return { x, y };
}

/**
 * Several step CDFs on one x axis (the union of their x, merged in one pass: each curve's x ascending),
 * each holding its last value between its own points (0 before its first).
 */
export function overlaySorted(curves: readonly { x: number[]; y: number[] }[]): Series {
  const pos = curves.map(() => 0);
  const xs: number[] = [];
  const ys: number[][] = curves.map(() => []);
  for (;;) {
    let next = Infinity;
    curves.forEach((c, k) => {
      const v = c.x[pos[k] ?? 0];
      if (v !== undefined && v < next) next = v;
    });
    if (next === Infinity) break;
    xs.push(next);
    curves.forEach((c, k) => {
      let p = pos[k] ?? 0;
      while (p < c.x.length && (c.x[p] ?? Infinity) <= next) p++;
      pos[k] = p;
      ys[k]?.push(p > 0 ? (c.y[p - 1] ?? 0) : 0);
    });
  }
  return [xs, ...ys];
}

export interface FlowQuery {
  sort: FlowSort;
  order: "asc" | "desc";
  flows: FlowFilter;
  page: number;
  limit: number;
}

export function flowPage(jobId: number, q: FlowQuery): Promise<FlowPage> {
  const params = new URLSearchParams({
    sort: q.sort,
    order: q.order,
    flows: q.flows,
    page: String(q.page),
    limit: String(q.limit),
  });
  return request<FlowPage>("GET", `/simulations/${jobId}/results/flows?${params.toString()}`);
}

export const flowsCsvUrl = (jobId: number) => `${API}/simulations/${jobId}/results/flows.csv`;

/** Pages a table of `total` rows has at `limit` per page (at least 1). */
export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / Math.max(1, limit)));
