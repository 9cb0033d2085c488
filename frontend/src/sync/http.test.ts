import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, BUSY_RETRIES, request, retryAfterSeconds, RETRY_WAIT_CAP_S } from "./http";

const busy = (retryAfter: string | null) =>
  new Response(JSON.stringify({ detail: [{ loc: ["server"], field: "server", msg: "busy" }] }), {
    status: 503,
    headers: retryAfter === null ? {} : { "Retry-After": retryAfter },
  });
const ok = () => new Response(JSON.stringify({ id: 7 }), { status: 200 });

/** Answers in order; records when each call came (fake time, in seconds). */
function server(...answers: (() => Response)[]) {
  const calls: { method: string; at: number }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      calls.push({ method: init.method ?? "GET", at: Date.now() / 1000 });
      const next = answers.shift();
      if (!next) throw new Error("no answer left");
      return next();
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a read answered 503 is asked again after Retry-After", () => {
  it("waits what the server asked, then returns the answer", async () => {
    vi.useFakeTimers({ now: 0 });
    const calls = server(
      () => busy("2"),
      () => busy(null),
      ok,
    );
    const answer = request<{ id: number }>("GET", "/projects/1");
    await vi.runAllTimersAsync();
    await expect(answer).resolves.toEqual({ id: 7 });
    // 2 s as asked, then 1 s when the server named no wait.
    expect(calls.map((c) => c.at)).toEqual([0, 2, 3]);
  });

  it("gives up after BUSY_RETRIES, each wait capped, and says how long to wait", async () => {
    vi.useFakeTimers({ now: 0 });
    const calls = server(...Array.from({ length: BUSY_RETRIES + 1 }, () => () => busy("120")));
    const answer = request("GET", "/projects/1").catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    const error = (await answer) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.retryAfterS, error.message]).toEqual([503, 120, "busy"]);
    expect([BUSY_RETRIES, RETRY_WAIT_CAP_S]).toEqual([3, 10]);
    expect(calls.map((c) => c.at)).toEqual([0, 10, 20, 30]);
  });

  it("never repeats a write", async () => {
    vi.useFakeTimers({ now: 0 });
    const calls = server(() => busy("1"), ok);
    const answer = request("POST", "/projects", { body: { name: "x" } }).catch((e: unknown) => e);
    await vi.runAllTimersAsync();
    expect(((await answer) as ApiError).status).toBe(503);
    expect(calls).toHaveLength(1);
  });
});

describe("retryAfterSeconds", () => {
  it("reads the delta-seconds form only", () => {
    expect([retryAfterSeconds("5"), retryAfterSeconds(" 30 "), retryAfterSeconds(null)]).toEqual([5, 30, null]);
    expect(retryAfterSeconds("Wed, 21 Oct 2026 07:28:00 GMT")).toBeNull();
    expect(retryAfterSeconds("-1")).toBeNull();
  });
});
