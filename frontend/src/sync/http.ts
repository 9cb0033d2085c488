/**
 * A small fetch wrapper for the Loopline API: JSON, session cookie, `If-Match` versions, and errors
 * turned into `ApiError` with the server's `{detail: [{loc, msg}]}` items.
 */
export interface ErrorItem {
  loc: (string | number)[];
  field?: string | null;
  msg: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly items: ErrorItem[],
    readonly currentVersion: number | null = null,
    /** Seconds the server asked to wait before trying again (`Retry-After` of a 503 or 429). */
    readonly retryAfterS: number | null = null,
  ) {
    super(items.map((i) => i.msg).join("; ") || `HTTP ${status}`);
  }
  get conflict(): boolean {
    return this.status === 409;
  }
}

export const API = "/api/v1";

/**
 * A read answered 503 (the API's queue is full, or a process of it is restarting) is asked again
 * after the server's `Retry-After`, at most `BUSY_RETRIES` times and `RETRY_WAIT_CAP_S` each: a read
 * loses nothing by being repeated. A write is never repeated here: its caller decides.
 */
export const BUSY_RETRIES = 3;
export const RETRY_WAIT_CAP_S = 10;

/** `Retry-After` in seconds (the delta form the API sends), or null when absent or not a number. */
export function retryAfterSeconds(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header.trim());
}

const sleep = (s: number) => new Promise<void>((resolve) => setTimeout(resolve, s * 1000));

export async function request<T>(
  method: string,
  path: string,
  opts: { body?: unknown; version?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (opts.body !== undefined) headers["Content-Type"] = "application/json";
  if (opts.version !== undefined) headers["If-Match"] = `"${opts.version}"`;
  let res: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      res = await fetch(path.startsWith("/api") ? path : `${API}${path}`, {
        method,
        headers,
        credentials: "same-origin",
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
    } catch (e) {
      throw new ApiError(0, [{ loc: [], msg: `network error: ${(e as Error).message}` }]);
    }
    if (res.status !== 503 || method !== "GET" || attempt >= BUSY_RETRIES) break;
    await sleep(Math.min(retryAfterSeconds(res.headers.get("Retry-After")) ?? 1, RETRY_WAIT_CAP_S));
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const body = (data ?? {}) as { detail?: unknown; current_version?: number };
    const items: ErrorItem[] = Array.isArray(body.detail)
      ? (body.detail as ErrorItem[])
      : [{ loc: [], msg: typeof body.detail === "string" ? body.detail : `${res.status} ${res.statusText}` }];
    throw new ApiError(
      res.status,
      items,
      body.current_version ?? null,
      retryAfterSeconds(res.headers.get("Retry-After")),
    );
  }
  return data as T;
}
