import { describe, expect, it } from "vitest";
import { exportLinks, netboxUpgradeLink, powerSheetLinks, scopeNote, structuredLinks, workOrderLinks } from "./exports";

describe("export links", () => {
  it("every export of the plan, for the whole hall", () => {
    expect(Object.fromEntries(exportLinks(12, { kind: "hall" }).map((l) => [l.key, l.href]))).toEqual({
      "wiring-csv": "/api/v1/wiring-plans/12/exports/wiring-sheet.csv",
      "wiring-xlsx": "/api/v1/wiring-plans/12/exports/wiring-sheet.xlsx?per_row=true",
      "wiring-pdf": "/api/v1/wiring-plans/12/exports/wiring-sheet.pdf",
      "labels-pdf": "/api/v1/wiring-plans/12/exports/labels.pdf",
      "labels-one-pdf": "/api/v1/wiring-plans/12/exports/labels.pdf?one_pdf=true",
      "pull-list": "/api/v1/wiring-plans/12/exports/pull-list.csv",
      netbox: "/api/v1/wiring-plans/12/exports/netbox.zip",
      "netbox-cables": "/api/v1/wiring-plans/12/exports/netbox-cables.csv",
    });
  });

  it("a row scopes the CSV and PDF sheets and the labels (the name encoded); the rest stay whole", () => {
    const links = Object.fromEntries(exportLinks(3, { kind: "row", row: "R 01/é" }).map((l) => [l.key, l.href]));
    expect(links["wiring-csv"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.csv?row=R+01%2F%C3%A9");
    expect(links["wiring-pdf"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.pdf?row=R+01%2F%C3%A9");
    expect(links["labels-pdf"]).toBe("/api/v1/wiring-plans/3/exports/labels.pdf?row=R+01%2F%C3%A9");
    expect(links["labels-one-pdf"]).toBe("/api/v1/wiring-plans/3/exports/labels.pdf?row=R+01%2F%C3%A9&one_pdf=true");
    expect(links["wiring-xlsx"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.xlsx?per_row=true");
    expect(links["pull-list"]).toBe("/api/v1/wiring-plans/3/exports/pull-list.csv");
  });
});

describe("a structured plan's sheets", () => {
  it("the panel port maps, the trunk pull list and the segment wiring sheet, for the whole hall", () => {
    expect(structuredLinks(7).map((l) => [l.key, l.label, l.href])).toEqual([
      ["panel-map", "Panel port maps (PDF)", "/api/v1/wiring-plans/7/exports/panel-map.pdf"],
      ["trunk-pull-list", "Trunk pull list (CSV)", "/api/v1/wiring-plans/7/exports/trunk-pull-list.csv"],
      ["wiring-segments", "Segment wiring sheet (CSV)", "/api/v1/wiring-plans/7/exports/wiring-segments.csv"],
    ]);
    // Their keys are not row- or rack-scoped: the note says they cover the whole hall.
    expect(structuredLinks(7).map((l) => scopeNote(l.key, { kind: "row", row: "R01" }))).toEqual([
      "whole hall",
      "whole hall",
      "whole hall",
    ]);
  });
});

describe("a rack scope", () => {
  const scope = { kind: "rack", row: "R01", rack: "H1.R01.K03" } as const;

  it("scopes the CSV and the workbook to the rack, the printable sheets to its row", () => {
    const links = Object.fromEntries(exportLinks(3, scope).map((l) => [l.key, l.href]));
    expect(links["wiring-csv"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.csv?rack=H1.R01.K03");
    expect(links["wiring-xlsx"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.xlsx?rack=H1.R01.K03");
    expect(links["wiring-pdf"]).toBe("/api/v1/wiring-plans/3/exports/wiring-sheet.pdf?row=R01");
    expect(links["labels-pdf"]).toBe("/api/v1/wiring-plans/3/exports/labels.pdf?row=R01");
    expect(links["labels-one-pdf"]).toBe("/api/v1/wiring-plans/3/exports/labels.pdf?row=R01&one_pdf=true");
    expect(links.netbox).toBe("/api/v1/wiring-plans/3/exports/netbox.zip");
  });

  it("says beside each button what it covers", () => {
    const note = (key: string) => scopeNote(key, scope);
    expect([
      note("wiring-csv"),
      note("wiring-xlsx"),
      note("labels-pdf"),
      note("labels-one-pdf"),
      note("netbox"),
    ]).toEqual(["rack H1.R01.K03", "rack H1.R01.K03", "row R01", "row R01", "whole hall"]);
    expect(scopeNote("wiring-xlsx", { kind: "row", row: "R01" })).toBe("whole hall");
    expect(scopeNote("wiring-csv", { kind: "hall" })).toBe("");
  });
});

describe("work order links", () => {
  it("the three formats of the upgrade's work order, against the older plan", () => {
    expect(workOrderLinks(9, 4).map((l) => [l.key, l.href])).toEqual([
      ["work-order-csv", "/api/v1/wiring-plans/9/exports/work-order.csv?against=4"],
      ["work-order-xlsx", "/api/v1/wiring-plans/9/exports/work-order.xlsx?against=4"],
      ["work-order-pdf", "/api/v1/wiring-plans/9/exports/work-order.pdf?against=4"],
    ]);
  });
});

describe("NetBox upgrade link", () => {
  it("the upgrade's NetBox changes against the plan it was built from", () => {
    const link = netboxUpgradeLink(9, 4);
    expect([link.key, link.label, link.href]).toEqual([
      "netbox-upgrade",
      "NetBox upgrade from #4 (ZIP)",
      "/api/v1/wiring-plans/9/exports/netbox-upgrade.zip?against=4",
    ]);
  });
});

describe("power sheet links", () => {
  it("the hall's power sheet in three formats, with the plan's optics when a plan is named", () => {
    expect(powerSheetLinks(4, 12).map((l) => [l.key, l.href])).toEqual([
      ["power-csv", "/api/v1/halls/4/exports/power-sheet.csv?plan_id=12"],
      ["power-xlsx", "/api/v1/halls/4/exports/power-sheet.xlsx?plan_id=12"],
      ["power-pdf", "/api/v1/halls/4/exports/power-sheet.pdf?plan_id=12"],
    ]);
    expect(powerSheetLinks(4).map((l) => l.href)[0]).toBe("/api/v1/halls/4/exports/power-sheet.csv");
  });
});
