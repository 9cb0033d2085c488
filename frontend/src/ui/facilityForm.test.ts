import { describe, expect, it } from "vitest";
import { feedsBody, generalErrors, initialText, placeholder, settingsBody, type SettingSpec } from "./facilityForm";

const SPECS: SettingSpec[] = [
  { key: "voltage_v", label: "Voltage", unit: "V", min: 0, exclusiveMin: true, max: 1000 },
  {
    key: "phases",
    label: "Phases",
    options: [
      ["1", "1"],
      ["3", "3"],
    ],
  },
  { key: "power_factor", label: "Power factor", min: 0, exclusiveMin: true, max: 1 },
  { key: "name", label: "Width", unit: "mm", min: 1, nullable: false },
];

describe("a facility setting's field", () => {
  it("shows a set value, and a default as a blank field over a placeholder", () => {
    expect(initialText({ value: 400, isDefault: false })).toBe("400");
    expect(initialText({ value: 230, isDefault: true })).toBe("");
    expect(placeholder({ value: 230, isDefault: true })).toBe("230 (default)");
    expect(placeholder({ value: null, isDefault: true })).toBe("none (default)");
    expect(placeholder({ value: 400, isDefault: false })).toBe("");
  });
});

describe("the body a save sends", () => {
  const current = {
    voltage_v: { value: 230, isDefault: true },
    phases: { value: 1, isDefault: true },
    power_factor: { value: 0.95, isDefault: false },
    name: { value: 300, isDefault: false },
  };

  it("sends only what was changed: typed numbers as numbers, choices as text", () => {
    expect(settingsBody(SPECS, current, { voltage_v: " 400 ", phases: "3", power_factor: "0.95" })).toEqual({
      body: { voltage_v: 400, phases: "3" },
    });
    expect(settingsBody(SPECS, current, {})).toEqual({ body: {} });
  });

  it("sends a cleared field as null: back to the default", () => {
    expect(settingsBody(SPECS, current, { power_factor: "" })).toEqual({ body: { power_factor: null } });
  });

  it("names the field and the reason for what it cannot send", () => {
    expect(settingsBody(SPECS, current, { voltage_v: "0", power_factor: "1.2", phases: "2", name: "" })).toEqual({
      errors: {
        voltage_v: "Voltage: must be more than 0 V",
        phases: "Phases: choose one of the list",
        power_factor: "Power factor: must be at most 1",
        name: "Width: enter a value",
      },
    });
    expect(settingsBody(SPECS, current, { voltage_v: "abc" })).toEqual({
      errors: { voltage_v: "Voltage: enter a number" },
    });
  });
});

describe("a rack's feeds as sent", () => {
  const FEED: SettingSpec[] = [
    { key: "voltage_v", label: "Voltage", unit: "V", min: 0, exclusiveMin: true },
    {
      key: "phases",
      label: "Phases",
      options: [
        ["1", "1"],
        ["3", "3"],
      ],
    },
    { key: "breaker_a", label: "Breaker", unit: "A", min: 0, exclusiveMin: true },
  ];
  const feeds = [
    {
      name: "A",
      values: {
        voltage_v: { value: 230, isDefault: true },
        phases: { value: 3, isDefault: false },
        breaker_a: { value: 32, isDefault: true },
      },
    },
    {
      name: "B",
      values: {
        voltage_v: { value: 230, isDefault: true },
        phases: { value: 1, isDefault: true },
        breaker_a: { value: 16, isDefault: false },
      },
    },
  ];

  it("writes both feeds whole: typed values, the feed's own values, null for defaults", () => {
    expect(feedsBody(FEED, feeds, { "A.breaker_a": "63", "B.voltage_v": "400" }, 2)).toEqual({
      feeds: [
        { name: "A", voltage_v: null, phases: 3, breaker_a: 63 },
        { name: "B", voltage_v: 400, phases: null, breaker_a: 16 },
      ],
    });
  });

  it("keeps feed A alone when the rack has one feed, and a cleared field goes back to the default", () => {
    expect(feedsBody(FEED, feeds, { "A.phases": "" }, 1)).toEqual({
      feeds: [{ name: "A", voltage_v: null, phases: null, breaker_a: null }],
    });
  });

  it("names the feed and the field it cannot send", () => {
    expect(feedsBody(FEED, feeds, { "B.breaker_a": "-5" }, 2)).toEqual({
      errors: { "B.breaker_a": "Feed B breaker: must be more than 0 A" },
    });
  });
});

describe("refusals no field shows", () => {
  it("are said under the form, with the field the server named", () => {
    expect(
      generalErrors({ voltage_v: "Voltage: must be more than 0 V", "": "stale", "header.if-match": "required" }, SPECS),
    ).toEqual(["stale", "header.if-match: required"]);
    expect(generalErrors({ voltage_v: "x" }, SPECS)).toEqual([]);
  });
});
