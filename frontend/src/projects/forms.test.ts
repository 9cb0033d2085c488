import { describe, expect, it } from "vitest";
import { ApiError } from "../sync/http";
import {
  checkEmail,
  checkNumber,
  describe as describeError,
  documentPlace,
  formErrors,
  sentence,
  userMessage,
  type FieldSpec,
} from "./forms";
import { HALL_DEFAULTS, HALL_FIELDS, hallBody } from "./hallForm";
import { importProblems, pathLoc } from "./ImportProject";
import { checkSignUp, SIGN_UP_FIELDS } from "./SignUp";

/** A 422 as FastAPI writes it for a request body. */
const invalid = (...items: object[]) => new ApiError(422, items as never);

describe("formErrors: the API's 422 items go next to the form's fields, in words", () => {
  const fields: Record<"width_m" | "name", FieldSpec> = {
    width_m: { label: "Floor width", unit: "m" },
    name: { label: "Hall name" },
  };

  it("maps loc to the field and rewrites Pydantic's message with the field's label and unit", () => {
    const e = invalid(
      { loc: ["body", "width_m"], msg: "Input should be greater than 0", type: "greater_than", ctx: { gt: 0 } },
      {
        loc: ["body", "name"],
        msg: "String should have at least 1 character",
        type: "string_too_short",
        ctx: { min_length: 1 },
      },
    );
    expect(formErrors(e, fields)).toEqual({
      fields: { width_m: "Floor width must be more than 0 m.", name: "Hall name cannot be empty." },
      form: null,
    });
  });

  it("never shows an internal field name: what belongs to no field is one sentence for the form", () => {
    const e = invalid({
      loc: ["body", "tray_height_mm"],
      msg: "Input should be less than or equal to 5",
      type: "less_than_equal",
      ctx: { le: 5 },
    });
    const out = formErrors(e, fields);
    expect(out.fields).toEqual({});
    expect(out.form).toBe("This value can be at most 5.");
    expect(out.form).not.toContain("tray_height");
  });

  it("keeps the domain's own sentences (capitalised), e.g. a weak password", () => {
    const e = invalid({
      loc: ["password"],
      field: "password",
      msg: "too easy to guess (0 of 4, at least 3 needed). This is a top-10 common password. Add another word or two.",
    });
    expect(formErrors(e, SIGN_UP_FIELDS).fields.password).toBe(
      "Too easy to guess (0 of 4, at least 3 needed). This is a top-10 common password. Add another word or two.",
    );
  });

  it("finds the bound in the message when the answer has no ctx (document validation)", () => {
    const e = invalid({ loc: ["body", "width_m"], msg: "Input should be greater than 0", type: "greater_than" });
    expect(formErrors(e, fields).fields.width_m).toBe("Floor width must be more than 0 m.");
    const long = invalid({
      loc: ["body", "name"],
      msg: "String should have at most 100 characters",
      type: "string_too_long",
    });
    expect(formErrors(long, fields).fields.name).toBe("Hall name can have at most 100 characters.");
    // No type at all (an import job's errors): Pydantic's "Input should …" gets the field's label.
    expect(describeError({ loc: ["width_m"], msg: "Input should be a valid number" }, fields.width_m)).toBe(
      "Floor width should be a valid number.",
    );
  });

  it("uses a field's own sentence for a pattern mismatch", () => {
    const e = invalid({
      loc: ["body", "email"],
      msg: "String should match pattern '^[^@\\s]+@[^@\\s]+$'",
      type: "string_pattern_mismatch",
      ctx: {},
    });
    expect(formErrors(e, SIGN_UP_FIELDS).fields.email).toBe("Enter an email address like ada@example.com.");
  });

  it("keeps the first error of a field and joins the form's messages once", () => {
    const e = invalid(
      { loc: ["body", "name"], msg: "a", type: "string_too_short", ctx: { min_length: 3 } },
      { loc: ["body", "name"], msg: "b", type: "string_too_long", ctx: { max_length: 9 } },
      { loc: ["body"], msg: "the same thing" },
      { loc: ["body"], msg: "the same thing" },
    );
    expect(formErrors(e, fields)).toEqual({
      fields: { name: "Hall name needs at least 3 characters." },
      form: "The same thing.",
    });
  });

  it("says what happened for statuses that concern no field", () => {
    expect(
      formErrors(new ApiError(403, [{ loc: ["project_id"], msg: "this needs the 'owner' role" }]), fields).form,
    ).toBe("You do not have the rights to do this in this project.");
    expect(formErrors(new ApiError(409, [{ loc: ["If-Match"], msg: "stale" }], 4), fields).form).toMatch(
      /changed meanwhile/,
    );
    expect(formErrors(new ApiError(0, []), fields).form).toMatch(/cannot be reached/);
    expect(formErrors(new ApiError(503, []), fields).form).toMatch(/Try again/);
    expect(userMessage(new ApiError(404, [{ loc: ["project_id"], msg: "project 9 not found" }]))).toMatch(
      /no longer exists/,
    );
    // A 404 about a field of the form goes to that field (an email nobody registered).
    const member = formErrors(
      new ApiError(404, [{ loc: ["email"], msg: "no user with the email 'x@y': they must register first" }]),
      {
        email: { label: "Email" },
      },
    );
    expect(member).toEqual({
      fields: { email: "No user with the email 'x@y': they must register first." },
      form: null,
    });
  });
});

describe("browser-side checks (same limits as the API)", () => {
  it("checkNumber", () => {
    const spec = { label: "Floor width", unit: "m" };
    expect(checkNumber("30", spec, { gt: 0, le: 1000 })).toEqual({ value: 30 });
    expect(checkNumber(" 2,5 ", spec, { gt: 0 })).toEqual({ value: 2.5 });
    expect(checkNumber("", spec, { gt: 0 })).toEqual({ error: "Floor width is required." });
    expect(checkNumber("abc", spec, { gt: 0 })).toEqual({ error: "Floor width must be a number." });
    expect(checkNumber("0", spec, { gt: 0 })).toEqual({ error: "Floor width must be more than 0 m." });
    expect(checkNumber("1000.5", spec, { gt: 0, le: 1000 })).toEqual({ error: "Floor width can be at most 1000 m." });
    expect(checkNumber("0.2", spec, { ge: 0.3 })).toEqual({ error: "Floor width must be at least 0.3 m." });
    expect(checkNumber("Infinity", spec, {})).toEqual({ error: "Floor width must be a number." });
  });

  it("checkEmail and the sign-up form", () => {
    expect(checkEmail("ada@example.com")).toBeNull();
    expect(checkEmail("")).toBe("Email is required.");
    expect(checkEmail("ada example.com")).toBe("Enter an email address like ada@example.com.");
    expect(checkSignUp({ email: "a@b", display_name: "", password: "short" })).toEqual({
      password: "Password needs at least 8 characters.",
    });
    expect(checkSignUp({ email: "a@b", display_name: "", password: "long enough words" })).toEqual({});
  });

  it("hallBody: defaults make a valid body; each bad field gets its own sentence", () => {
    // Blank aisle minimums are left to the server (its defaults are the one owner of that rule).
    expect(hallBody({ ...HALL_DEFAULTS, name: " H1 " })).toEqual({
      body: {
        name: "H1",
        site: "S1",
        width_m: 30,
        depth_m: 20,
        tile_m: 0.6,
        tray_height_m: 0.3,
        raised_floor: false,
        raised_floor_height_m: 0,
      },
    });
    const own = hallBody({ ...HALL_DEFAULTS, name: "H1", min_cold_aisle_m: "1.5", min_hot_aisle_m: " " });
    expect("body" in own && [own.body.min_cold_aisle_m, "min_hot_aisle_m" in own.body]).toEqual([1.5, false]);
    expect(hallBody({ ...HALL_DEFAULTS, name: "", width_m: "0", min_cold_aisle_m: "11", tile_m: "2" })).toEqual({
      errors: {
        name: "Name is required.",
        width_m: "Floor width must be more than 0 m.",
        min_cold_aisle_m: "Minimum cold aisle can be at most 10 m.",
        tile_m: "Floor tile can be at most 1.5 m.",
      },
    });
    // A raised floor needs its height (the API refuses 0 with one for the whole body).
    expect(hallBody({ ...HALL_DEFAULTS, name: "H", raised_floor: true, raised_floor_height_m: "0" })).toEqual({
      errors: { raised_floor_height_m: "Raised-floor height must be more than 0 m." },
    });
    const raised = hallBody({ ...HALL_DEFAULTS, name: "H", raised_floor: true, raised_floor_height_m: "0.8" });
    expect("body" in raised && raised.body.raised_floor_height_m).toBe(0.8);
    // Every field of the form has a label for its errors.
    expect(Object.keys(HALL_FIELDS).sort()).toEqual([
      "depth_m",
      "min_cold_aisle_m",
      "min_hot_aisle_m",
      "name",
      "raised_floor_height_m",
      "site",
      "tile_m",
      "tray_height_m",
      "width_m",
    ]);
  });
});

describe("documentPlace and sentence", () => {
  it("names the hall, row and rack of a refused document in words, counting from 1", () => {
    expect(documentPlace(["body", "halls", 0, "rows", 2, "name"])).toBe("hall 1, row 3");
    expect(documentPlace(["body", "halls", 1, "rows", 0, "racks", 4])).toBe("hall 2, row 1, rack 5");
    expect(documentPlace(["body", "name"])).toBe("");
  });
  it("sentence", () => {
    expect(sentence("too short")).toBe("Too short.");
    expect(sentence("Done!")).toBe("Done!");
    expect(sentence("  ")).toBe("");
  });
});

describe("importProblems and pathLoc", () => {
  it("reads a job's field paths", () => {
    expect(pathLoc("halls[3].rows[0].racks[2].rack_type")).toEqual(["halls", 3, "rows", 0, "racks", 2, "rack_type"]);
    expect(pathLoc("project.name")).toEqual(["project", "name"]);
  });
  it("says where in the document and what, with the hall form's words for a hall's values", () => {
    const e = new ApiError(422, [
      { loc: ["body", "halls", 0, "width_m"], msg: "Input should be greater than 0", type: "greater_than" },
      {
        loc: ["body", "halls", 1, "rows", 2, "name"],
        msg: "String should have at least 1 character",
        type: "string_too_short",
      },
    ] as never);
    expect(importProblems(e)).toEqual([
      "Hall 1: Floor width must be more than 0 m.",
      "Hall 2, row 3: This value cannot be empty.",
    ]);
    expect(importProblems(new ApiError(403, []))).toEqual(["You do not have the rights to do this in this project."]);
  });
});
