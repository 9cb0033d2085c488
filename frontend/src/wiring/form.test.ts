import { describe, expect, it } from "vitest";
import { ApiError } from "../sync/http";
import {
  formErrors,
  formFromSpec,
  generateErrors,
  INITIAL_FORM,
  PATTERNS,
  planName,
  shownFields,
  toPlanCreate,
  type WiringForm,
} from "./form";

const form = (patch: Partial<WiringForm>): WiringForm => ({ ...INITIAL_FORM, ...patch });

describe("patterns", () => {
  it("lists every API pattern once, in menu order, with its label", () => {
    expect(PATTERNS).toEqual([
      { value: "single-homed", label: "Single-homed (Type 0)" },
      { value: "mc-lag", label: "MC-LAG (dual-homed)" },
      { value: "side-to-side", label: "Subways · side-to-side" },
      { value: "paired-row", label: "Subways · paired rows" },
      { value: "inter-chassis", label: "Subways · inter-chassis" },
      { value: "grin", label: "GRIN (server-to-server)" },
    ]);
  });
});

describe("form -> request", () => {
  it("the initial form asks for Subways paired rows, Type 1, with the server's defaults for p and l", () => {
    expect(toPlanCreate(INITIAL_FORM)).toEqual({
      name: "Subways · paired rows (Type 1)",
      pattern: "paired-row",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 0,
    });
  });

  it("sends p, l and c when given (c only for Type 2) and names the plan after them", () => {
    expect(
      toPlanCreate(
        form({ ports: "2", loop: "16", subwaysType: 2, clusters: "3", geometry: "paper", routeVia: "floor" }),
      ),
    ).toEqual({
      name: "Subways · paired rows (p=2, Type 2, l=16, c=3)",
      pattern: "paired-row",
      geometry: "paper",
      route_via: "floor",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 2,
      clusters: 3,
      grin_degree: 0,
      ports: 2,
      loop: 16,
    });
    expect(toPlanCreate(form({ subwaysType: 2, clusters: "" })).clusters).toBe(1);
  });

  it("GRIN sends its degree and scope; Subways-only fields fall back to their defaults", () => {
    expect(
      toPlanCreate(form({ pattern: "grin", grinDegree: "2", grinScope: "next-rack", clusters: "4", ports: "1" })),
    ).toEqual({
      name: "GRIN (server-to-server) (p=1, n=2)",
      pattern: "grin",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "next-rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 2,
      ports: 1,
    });
    expect(toPlanCreate(form({ pattern: "grin", grinDegree: "" })).grin_degree).toBe(0);
    expect(toPlanCreate(form({ pattern: "mc-lag", grinDegree: "3" })).grin_degree).toBe(0);
  });

  it("names a plan without parameters after its pattern alone", () => {
    expect(planName(form({ pattern: "single-homed" }))).toBe("Single-homed (Type 0)");
    expect(planName(form({ pattern: "mc-lag", ports: "2" }))).toBe("MC-LAG (dual-homed) (p=2)");
  });
});

describe("server errors -> fields", () => {
  it("shows only the inputs the pattern uses", () => {
    expect(shownFields(INITIAL_FORM)).toEqual({
      ports: true,
      loop: true,
      subwaysType: true,
      clusters: false,
      grinDegree: false,
    });
    expect(shownFields(form({ subwaysType: 2 }))).toEqual({
      ports: true,
      loop: true,
      subwaysType: true,
      clusters: true,
      grinDegree: false,
    });
    expect(shownFields(form({ pattern: "grin" }))).toEqual({
      ports: true,
      loop: false,
      subwaysType: false,
      clusters: false,
      grinDegree: true,
    });
  });

  const items = [
    { loc: ["body", "ports"], msg: "p must be at most 4" },
    { loc: ["body", "loop"], msg: "l must be at least 2" },
    { loc: ["body", "grin_degree"], msg: "n must be positive" },
    { loc: ["body", "clusters"], msg: "c must divide the ToRs" },
    { loc: [], msg: "the hall has no rows" },
    { loc: ["body", "loop"], msg: "l must divide the row" },
  ];

  it("puts each message under its field, joins several with '; ', and sends the rest under Generate", () => {
    expect(formErrors(INITIAL_FORM, items)).toEqual({
      ports: "p must be at most 4",
      loop: "l must be at least 2; l must divide the row",
      generate: "n must be positive; c must divide the ToRs; the hall has no rows",
    });
    expect(formErrors(form({ pattern: "grin" }), items)).toEqual({
      ports: "p must be at most 4",
      grinDegree: "n must be positive",
      generate: "l must be at least 2; c must divide the ToRs; the hall has no rows; l must divide the row",
    });
    expect(
      formErrors(form({ subwaysType: 2 }), [
        { loc: ["body", "clusters"], msg: "c must divide the ToRs" },
        { loc: ["body", "constructor"], msg: "odd" },
      ]),
    ).toEqual({
      clusters: "c must divide the ToRs",
      generate: "odd",
    });
  });

  it("maps an API refusal through the items, and anything else under Generate", () => {
    expect(generateErrors(INITIAL_FORM, new ApiError(422, [{ loc: ["body", "ports"], msg: "too many" }]))).toEqual({
      ports: "too many",
    });
    expect(generateErrors(INITIAL_FORM, new Error("boom"))).toEqual({ generate: "Error: boom" });
  });
});

describe("plan -> form (the form shows the plan being viewed)", () => {
  it("reads back every parameter of the request a plan was generated from", () => {
    const forms: WiringForm[] = [
      INITIAL_FORM,
      form({ pattern: "grin", ports: "1", grinDegree: "2", grinScope: "next-rack", geometry: "paper" }),
      form({ pattern: "side-to-side", ports: "4", loop: "6", subwaysType: 2, clusters: "3", routeVia: "floor" }),
      form({ pattern: "mc-lag", ports: "2", fabricOptical: false, serviceAllowanceM: 0.3, slackPct: 10 }),
      form({ pattern: "paired-row", parallel: { ports: 1, gbps: 100, tor_server_ports: 32, clusters: 2 } }),
    ];
    for (const f of forms) expect(formFromSpec(toPlanCreate(f))).toEqual(f);
  });

  it("a stored spec (with the server's nulls and the upgrade link) opens as that plan, and Generate sends it again", () => {
    const spec = {
      name: "Subways · side-to-side (p=2, Type 1, l=4)",
      pattern: "side-to-side",
      ports: 2,
      subways_type: 1,
      loop: 4,
      clusters: 1,
      grin_degree: 0,
      grin_scope: "rack",
      geometry: "default",
      route_via: "tray",
      service_allowance_m: null,
      slack_pct: null,
      fabric_optical: true,
      parallel: null,
      upgrade_from_plan_id: 7,
    };
    const f = formFromSpec(spec);
    expect(f).toEqual(form({ pattern: "side-to-side", ports: "2", loop: "4" }));
    const { upgrade_from_plan_id, service_allowance_m, slack_pct, parallel, ...sent } = spec;
    expect([upgrade_from_plan_id, service_allowance_m, slack_pct, parallel]).toEqual([7, null, null, null]);
    expect(toPlanCreate(f)).toEqual(sent);
  });

  it("falls back to the initial form for what a spec lacks or does not know", () => {
    expect(formFromSpec({})).toEqual(INITIAL_FORM);
    expect(formFromSpec({ pattern: "nope", subways_type: 3, geometry: "round", ports: "2" })).toEqual(INITIAL_FORM);
  });
});
