import { describe, expect, it, vi } from "vitest";
import { useFacility } from "../state/facility";
import { useSession } from "../state/session";
import { ApiError } from "./http";
import { hallPatch, refreshFacility, refusals, settingsOf } from "./facility";

describe("the hall's facility settings as the form holds them", () => {
  it("reads each value and whether the API names it a default, a tray's fields under its level", () => {
    const read = { power_factor: 1, floor_load_kg_m2: 1500, hall_cooling_kw: null };
    expect(
      settingsOf(read, ["power_factor", "floor_load_kg_m2", "hall_cooling_kw"], ["power_factor", "hall_cooling_kw"]),
    ).toEqual({
      power_factor: { value: 1, isDefault: true },
      floor_load_kg_m2: { value: 1500, isDefault: false },
      hall_cooling_kw: { value: null, isDefault: true },
    });
    const tray = { width_mm: 4, usable_depth_mm: 102, load_kg_per_m: 65.5 };
    expect(
      settingsOf(
        tray,
        ["width_mm", "usable_depth_mm"],
        ["trays.above-racks.usable_depth_mm"],
        "trays.above-racks.",
        "tray.above-racks.",
      ),
    ).toEqual({
      "tray.above-racks.width_mm": { value: 4, isDefault: false },
      "tray.above-racks.usable_depth_mm": { value: 102, isDefault: true },
    });
  });

  it("sends changes under `facility`, a level's tray fields grouped under `trays`", () => {
    expect(
      hallPatch({
        power_factor: 0.95,
        "tray.above-racks.width_mm": 4,
        "tray.above-racks.usable_depth_mm": null,
        "tray.cross-aisle.width_mm": 8,
      }),
    ).toEqual({
      facility: {
        power_factor: 0.95,
        trays: { "above-racks": { width_mm: 4, usable_depth_mm: null }, "cross-aisle": { width_mm: 8 } },
      },
    });
    expect(hallPatch({})).toEqual({ facility: {} });
  });
});

describe("a refused facility write", () => {
  it("names the field as the form does (body and facility dropped), a conflict saying what to do", () => {
    const e = new ApiError(422, [
      { loc: ["body", "facility", "feeds", 1, "breaker_a"], msg: "Input should be greater than 0" },
      { loc: ["body", "facility", "power_factor"], msg: "Input should be less than or equal to 1" },
    ]);
    expect(refusals(e)).toEqual({
      "feeds.1.breaker_a": "Input should be greater than 0",
      power_factor: "Input should be less than or equal to 1",
    });
    expect(refusals(new ApiError(409, [{ loc: [], msg: "stale version" }]))).toEqual({
      "": "stale version (someone else saved first: reload and try again)",
    });
    expect(refusals(new Error("offline"))).toEqual({ "": "offline" });
  });
});

describe("asking for the report", () => {
  it("sends one request at a time: questions asked meanwhile become one, the latest, and only its answer stays", async () => {
    const urls: string[] = [];
    const answers: ((body: unknown) => void)[] = [];
    const empty = (racks: number) => ({
      errors: [],
      warnings: [],
      racks: Array.from({ length: racks }, (_, i) => ({
        rack: `R01-0${i + 1}`,
        row: "R01",
        typical_w: 0,
        max_w: 0,
        budget_w: null,
        cooling_w: null,
        weight_kg: 0,
        static_load_kg: null,
        floor_kg_m2: 0,
        feeds: [],
        worst_pct: 0,
        worst: "",
      })),
      trays: [],
      totals: {
        typical_w: 0,
        max_w: 0,
        heat_w: 0,
        weight_kg: 0,
        fullest_tray: null,
        fullest_tray_pct: 0,
        incomplete: [],
      },
    });
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((url: string) => {
      urls.push(url);
      return new Promise((resolve) =>
        answers.push((body) => resolve(new Response(JSON.stringify(body), { status: 200 }))),
      );
    }) as typeof fetch;
    useSession.setState({ hallId: 5 });
    try {
      const first = refreshFacility(5, null);
      void refreshFacility(5, 7);
      void refreshFacility(5, 8);
      expect(urls).toEqual(["/api/v1/halls/5/facility"]);
      expect(useFacility.getState().pending).toBe(true);
      answers[0]!(empty(1));
      await first;
      // The first answer is dropped (a newer question is waiting); the latest question is asked once.
      expect(urls).toEqual(["/api/v1/halls/5/facility", "/api/v1/halls/5/facility?plan_id=8"]);
      expect(useFacility.getState().view).toBeNull();
      answers[1]!(empty(2));
      await vi.waitFor(() => expect(useFacility.getState().pending).toBe(false));
      expect(useFacility.getState().view?.planId).toBe(8);
      expect(useFacility.getState().view?.racks.map((r) => r.rack)).toEqual(["R01-01", "R01-02"]);
      // An answer about a hall no longer open is dropped.
      useSession.setState({ hallId: 6 });
      const late = refreshFacility(5, 8);
      answers[2]!(empty(3));
      await late;
      expect(useFacility.getState().view?.racks).toHaveLength(2);
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
