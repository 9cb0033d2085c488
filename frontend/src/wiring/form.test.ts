import { describe, expect, it } from "vitest";
import { ApiError } from "../sync/http";
import {
  formErrors,
  formProblems,
  formFromSpec,
  generateErrors,
  INITIAL_FORM,
  initialFormFor,
  PATTERNS,
  planName,
  shownFields,
  toPlanCreate,
  withCabling,
  type WiringForm,
} from "./form";

const form = (patch: Partial<WiringForm>): WiringForm => ({ ...INITIAL_FORM, ...patch });

describe("the form a hall's first plan starts from", () => {
  it("is rail-optimized on a GPU hall, the rest as on any hall; a general hall's is the initial form itself", () => {
    expect(initialFormFor("gpu")).toEqual({ ...INITIAL_FORM, pattern: "rail-optimized" });
    // The same object: the panel tells an untouched form by identity.
    expect(initialFormFor("general")).toBe(INITIAL_FORM);
    expect(INITIAL_FORM.pattern).toBe("paired-row");
  });
});

describe("patterns", () => {
  it("lists every API pattern once, in menu order, with its label", () => {
    expect(PATTERNS).toEqual([
      { value: "single-homed", label: "Single-homed (Type 0)" },
      { value: "mc-lag", label: "MC-LAG (dual-homed)" },
      { value: "side-to-side", label: "Subways · side-to-side" },
      { value: "paired-row", label: "Subways · paired rows" },
      { value: "inter-chassis", label: "Subways · inter-chassis" },
      { value: "grin", label: "GRIN (server-to-server)" },
      { value: "rail-optimized", label: "Rail-optimized (GPU)" },
      { value: "rail-only", label: "Rail-only (GPU)" },
    ]);
  });
});

describe("form -> request", () => {
  it("the initial form asks for Subways paired rows, Type 1, with the server's defaults for p and l", () => {
    expect(toPlanCreate(INITIAL_FORM)).toEqual({
      name: "Subways · paired rows (Type 1)",
      fabric: "compute",
      pattern: "paired-row",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 0,
      cabling: "direct",
      breakouts: false,
    });
  });

  it("sends p, l and c when given (c only for Type 2) and names the plan after them", () => {
    expect(
      toPlanCreate(
        form({ ports: "2", loop: "16", subwaysType: 2, clusters: "3", geometry: "paper", routeVia: "floor" }),
      ),
    ).toEqual({
      name: "Subways · paired rows (p=2, Type 2, l=16, c=3)",
      fabric: "compute",
      pattern: "paired-row",
      geometry: "paper",
      route_via: "floor",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 2,
      clusters: 3,
      grin_degree: 0,
      cabling: "direct",
      breakouts: false,
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
      fabric: "compute",
      pattern: "grin",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "next-rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 2,
      cabling: "direct",
      breakouts: false,
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

describe("structured cabling", () => {
  it("a direct plan asks for direct cabling, no breakouts and no plant settings (the panel placement is not sent)", () => {
    const body = toPlanCreate(form({ pattern: "single-homed", panelAt: "rack" }));
    expect([body.cabling, body.breakouts, "structured" in body]).toEqual(["direct", false, false]);
  });

  it("structured cabling sends the panel placement and stated losses; breakouts only when ticked", () => {
    expect(toPlanCreate(form({ pattern: "single-homed", cabling: "structured", breakouts: true }))).toEqual({
      name: "Single-homed (Type 0) (structured, panels at the row end, breakouts)",
      fabric: "compute",
      pattern: "single-homed",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 0,
      cabling: "structured",
      structured: { panel_at: "row-end", lc_pair_loss_db: null, mpo_pair_loss_db: null },
      breakouts: true,
    });
    const rack = toPlanCreate(form({ cabling: "structured", panelAt: "rack", mpoPairLossDb: 0.35 }));
    expect([rack.name, rack.structured, rack.breakouts]).toEqual([
      "Subways · paired rows (Type 1, structured, panels in each rack)",
      { panel_at: "rack", lc_pair_loss_db: null, mpo_pair_loss_db: 0.35 },
      false,
    ]);
  });

  it("switching to direct cabling clears breakouts (they are built in the plant); back to structured keeps them off", () => {
    const on = form({ cabling: "structured", breakouts: true });
    expect(withCabling(on, "direct")).toEqual(form({ cabling: "direct", breakouts: false }));
    expect(withCabling(withCabling(on, "direct"), "structured")).toEqual(form({ cabling: "structured" }));
    expect(withCabling(on, "structured")).toEqual(on);
  });

  it("a stored structured spec opens as that plan; a spec with breakouts but direct cabling opens without them", () => {
    const f = form({ cabling: "structured", panelAt: "rack", breakouts: true, lcPairLossDb: 0.25 });
    expect(formFromSpec(toPlanCreate(f))).toEqual(f);
    expect(formFromSpec({ cabling: "direct", structured: null, breakouts: true })).toEqual(INITIAL_FORM);
    expect(formFromSpec({ cabling: "braided", structured: { panel_at: "ceiling" } })).toEqual(INITIAL_FORM);
  });

  it("the server's refusals of the options land under their inputs", () => {
    expect(
      formErrors(form({ cabling: "structured" }), [
        { loc: ["body", "breakouts"], msg: "breakouts need structured cabling" },
        { loc: ["body", "structured", "panel_at"], msg: "Input should be 'rack' or 'row-end'" },
        { loc: ["body", "cabling"], msg: "Input should be 'direct' or 'structured'" },
      ]),
    ).toEqual({
      breakouts: "breakouts need structured cabling",
      panelAt: "Input should be 'rack' or 'row-end'",
      cabling: "Input should be 'direct' or 'structured'",
    });
    // A carried loss figure is not on the form: its refusal goes under Generate, not under the placement.
    expect(
      formErrors(form({ cabling: "structured" }), [
        { loc: ["body", "structured", "mpo_pair_loss_db"], msg: "must be at least 0" },
      ]),
    ).toEqual({ generate: "must be at least 0" });
    // The panel placement is not on screen with direct cabling: its error goes under Generate.
    expect(formErrors(INITIAL_FORM, [{ loc: ["body", "structured", "panel_at"], msg: "bad" }])).toEqual({
      generate: "bad",
    });
  });
});

describe("server errors -> fields", () => {
  it("shows only the inputs the pattern uses", () => {
    expect(shownFields(INITIAL_FORM)).toEqual({
      fabric: true,
      ports: true,
      loop: true,
      subwaysType: true,
      clusters: false,
      grinDegree: false,
      cabling: true,
      panelAt: false,
      breakouts: true,
      suSize: false,
      leafModelId: false,
      oversubscription: false,
      spinePlanes: false,
    });
    expect(shownFields(form({ subwaysType: 2 }))).toEqual({
      fabric: true,
      ports: true,
      loop: true,
      subwaysType: true,
      clusters: true,
      grinDegree: false,
      cabling: true,
      panelAt: false,
      breakouts: true,
      suSize: false,
      leafModelId: false,
      oversubscription: false,
      spinePlanes: false,
    });
    expect(shownFields(form({ pattern: "grin", cabling: "structured" }))).toEqual({
      fabric: true,
      ports: true,
      loop: false,
      subwaysType: false,
      clusters: false,
      grinDegree: true,
      cabling: true,
      panelAt: true,
      breakouts: true,
      suSize: false,
      leafModelId: false,
      oversubscription: false,
      spinePlanes: false,
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
      fabric: "compute",
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
      cabling: "direct",
      structured: null,
      breakouts: false,
      upgrade_from_plan_id: 7,
    };
    const f = formFromSpec(spec);
    expect(f).toEqual(form({ pattern: "side-to-side", ports: "2", loop: "4" }));
    const { upgrade_from_plan_id, service_allowance_m, slack_pct, parallel, structured, ...sent } = spec;
    expect([upgrade_from_plan_id, service_allowance_m, slack_pct, parallel, structured]).toEqual([
      7,
      null,
      null,
      null,
      null,
    ]);
    expect(toPlanCreate(f)).toEqual(sent);
  });

  it("falls back to the initial form for what a spec lacks or does not know", () => {
    expect(formFromSpec({})).toEqual(INITIAL_FORM);
    expect(formFromSpec({ pattern: "nope", subways_type: 3, geometry: "round", ports: "2" })).toEqual(INITIAL_FORM);
  });
});

describe("rail patterns (GPU clusters)", () => {
  const optimized = form({
    pattern: "rail-optimized",
    suSize: "32",
    leafModelId: 7,
    oversubscription: "2",
    spinePlanes: "8",
  });
  const only = form({ pattern: "rail-only", suSize: "16", leafModelId: 7, oversubscription: "2" });

  it("rail-optimized sends SU size, leaf model and ratio; rail-only the same without a ratio (it has no spine)", () => {
    expect(toPlanCreate(optimized)).toEqual({
      name: "Rail-optimized (GPU) (SU=32, 2:1, 8 spine planes)",
      fabric: "compute",
      pattern: "rail-optimized",
      geometry: "default",
      route_via: "tray",
      fabric_optical: true,
      grin_scope: "rack",
      subways_type: 1,
      clusters: 1,
      grin_degree: 0,
      cabling: "direct",
      breakouts: false,
      rail: { su_size: 32, leaf_model_id: 7, oversubscription: 2, spine_planes: 8 },
    });
    const body = toPlanCreate({ ...only, spinePlanes: "4" });
    expect([body.name, body.rail]).toEqual(["Rail-only (GPU) (SU=16)", { su_size: 16, leaf_model_id: 7 }]);
    // An empty ratio (or plane count) is the server's default: left out, not sent as 0.
    expect(toPlanCreate({ ...optimized, oversubscription: "", spinePlanes: "" }).rail).toEqual({
      su_size: 32,
      leaf_model_id: 7,
    });
    // Other patterns send no rail block, whatever the hidden inputs hold.
    expect("rail" in toPlanCreate(form({ suSize: "32", leafModelId: 7 }))).toBe(false);
  });

  it("shows SU size and leaf model for both rail patterns, the ratio only for rail-optimized", () => {
    const pick = (f: WiringForm) => {
      const s = shownFields(f);
      return [s.suSize, s.leafModelId, s.oversubscription, s.spinePlanes, s.loop, s.grinDegree];
    };
    expect(pick(optimized)).toEqual([true, true, true, true, false, false]);
    expect(pick(only)).toEqual([true, true, false, false, false, false]);
  });

  it("refuses before sending an SU size that is not a whole number of 1 or more, no leaf model, a ratio of 0", () => {
    expect(formProblems(optimized)).toEqual({});
    expect(formProblems(form({ pattern: "rail-only", suSize: "", leafModelId: null }))).toEqual({
      suSize: "servers per SU: give a whole number of 1 or more",
      leafModelId: "choose the switch model of the rail leaves",
    });
    expect(formProblems({ ...optimized, suSize: "2.5", oversubscription: "0", spinePlanes: "1.5" })).toEqual({
      suSize: "servers per SU: give a whole number of 1 or more",
      oversubscription: "oversubscription: give a ratio above 0 (1 = non-blocking)",
      spinePlanes: "spine planes: give a whole number of 1 or more",
    });
    // rail-only ignores the hidden ratio and planes; other patterns are not checked here at all
    expect(formProblems({ ...only, oversubscription: "0", spinePlanes: "0" })).toEqual({});
    expect(formProblems(form({ suSize: "x" }))).toEqual({});
  });

  it("the server's refusals land at the rail inputs (pydantic's body paths and the domain's dotted fields)", () => {
    expect(
      formErrors(optimized, [
        { loc: ["rail", "oversubscription"], msg: "U = 2.5 uplinks per leaf is not whole: 1.6:1 or 2.67:1" },
        { loc: ["body", "rail", "su_size"], msg: "su_size 80 is above the leaf's 64 server ports" },
        { loc: ["body", "rail", "leaf_model_id"], msg: "switch model 99 is not in the catalog" },
        { loc: ["layout"], msg: "SU 2 (rows R03, R04) has no network rack with room" },
        { loc: ["rail", "spine_planes"], msg: "16 spines do not split into 3 equal planes" },
      ]),
    ).toEqual({
      spinePlanes: "16 spines do not split into 3 equal planes",
      oversubscription: "U = 2.5 uplinks per leaf is not whole: 1.6:1 or 2.67:1",
      suSize: "su_size 80 is above the leaf's 64 server ports",
      leafModelId: "switch model 99 is not in the catalog",
      generate: "SU 2 (rows R03, R04) has no network rack with room",
    });
    // A ratio refused on a rail-only plan is not on screen: it goes under Generate.
    expect(formErrors(only, [{ loc: ["rail", "oversubscription"], msg: "rail-only has no spine" }])).toEqual({
      generate: "rail-only has no spine",
    });
    expect(formErrors(only, [{ loc: ["body", "rail"], msg: "rail patterns need rail" }])).toEqual({
      suSize: "rail patterns need rail",
    });
  });

  it("a stored rail plan opens as that plan; a ratio stored on rail-only is not carried", () => {
    expect(formFromSpec(toPlanCreate(optimized))).toEqual(optimized);
    expect(formFromSpec(toPlanCreate(only))).toEqual({ ...only, oversubscription: "" });
    expect(formFromSpec({ ...toPlanCreate(only), rail: { su_size: 16, leaf_model_id: 7, spine_planes: 2 } })).toEqual({
      ...only,
      oversubscription: "",
    });
    expect(formFromSpec({ pattern: "single-homed", rail: { su_size: 4, leaf_model_id: 2 } })).toEqual(
      form({ pattern: "single-homed" }),
    );
  });
});

describe("the fabric a plan wires (compute or front end)", () => {
  it("compute by default; a front-end plan says so in its name and reads back as one", () => {
    expect(toPlanCreate(INITIAL_FORM).fabric).toBe("compute");
    const fe = form({ fabric: "front_end", pattern: "single-homed" });
    const body = toPlanCreate(fe);
    expect([body.fabric, body.name]).toEqual(["front_end", "Single-homed (Type 0) (front end)"]);
    expect(formFromSpec(body)).toEqual(fe);
    expect(formFromSpec({ fabric: "storage" }).fabric).toBe("compute");
  });

  it("the server's refusal of the fabric lands under its menu", () => {
    expect(
      formErrors(form({ fabric: "front_end", pattern: "rail-only" }), [
        { loc: ["fabric"], msg: "the front-end fabric is wired with the non-rail patterns" },
      ]),
    ).toEqual({ fabric: "the front-end fabric is wired with the non-rail patterns" });
  });
});
