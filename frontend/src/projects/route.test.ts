import { describe, expect, it } from "vitest";
import { canonicalAddress, href, parseRoute, type Route } from "./route";

describe("parseRoute", () => {
  it("reads every screen's address", () => {
    expect(parseRoute("/projects")).toEqual({ name: "projects" });
    expect(parseRoute("/projects/12")).toEqual({ name: "project", projectId: 12 });
    expect(parseRoute("/projects/12/halls/7")).toEqual({ name: "hall", projectId: 12, hallId: 7, planId: null });
    expect(parseRoute("/projects/12/halls/7", "?plan=99")).toEqual({
      name: "hall",
      projectId: 12,
      hallId: 7,
      planId: 99,
    });
    expect(parseRoute("/account/tokens")).toEqual({ name: "tokens" });
    expect(parseRoute("/signup")).toEqual({ name: "signup" });
  });

  it("keeps the older ?project=&hall=&plan= links opening the same hall", () => {
    expect(parseRoute("/", "?project=1&hall=2")).toEqual({ name: "hall", projectId: 1, hallId: 2, planId: null });
    expect(parseRoute("/", "?project=1&hall=2&plan=3")).toEqual({ name: "hall", projectId: 1, hallId: 2, planId: 3 });
    expect(parseRoute("/", "?project=4")).toEqual({ name: "project", projectId: 4 });
    expect(parseRoute("/", "")).toEqual({ name: "projects" });
    // A hall without its project cannot be opened from a link: the project list.
    expect(parseRoute("/", "?hall=2")).toEqual({ name: "projects" });
  });

  it("ignores a trailing slash and refuses ids the API would refuse", () => {
    expect(parseRoute("/projects/3/")).toEqual({ name: "project", projectId: 3 });
    expect(parseRoute("/projects/")).toEqual({ name: "projects" });
    for (const bad of ["0", "-1", "1.5", "abc", "2147483648", "99999999999"])
      expect(parseRoute(`/projects/${bad}`)).toEqual({ name: "notFound", path: `/projects/${bad}` });
    expect(parseRoute("/projects/2147483647")).toEqual({ name: "project", projectId: 2147483647 });
    expect(parseRoute("/projects/1/halls/x").name).toBe("notFound");
    expect(parseRoute("/", "?project=1&hall=0")).toEqual({ name: "project", projectId: 1 });
    expect(parseRoute("/projects/1/halls/2", "?plan=nope")).toEqual({
      name: "hall",
      projectId: 1,
      hallId: 2,
      planId: null,
    });
    expect(parseRoute("/nowhere").name).toBe("notFound");
  });

  it("round-trips: every route's address reads back as the same route", () => {
    const routes: Route[] = [
      { name: "projects" },
      { name: "project", projectId: 5 },
      { name: "hall", projectId: 5, hallId: 6, planId: null },
      { name: "hall", projectId: 5, hallId: 6, planId: 8 },
      { name: "tokens" },
      { name: "signup" },
    ];
    for (const r of routes) {
      const [path, search = ""] = href(r).split(/(?=\?)/);
      expect(parseRoute(path!, search)).toEqual(r);
    }
  });
});

describe("canonicalAddress", () => {
  it("rewrites / and the legacy query form, and leaves canonical addresses alone", () => {
    expect(canonicalAddress(parseRoute("/", ""), "/", "")).toBe("/projects");
    expect(canonicalAddress(parseRoute("/", "?project=1&hall=2&plan=3"), "/", "?project=1&hall=2&plan=3")).toBe(
      "/projects/1/halls/2?plan=3",
    );
    expect(canonicalAddress(parseRoute("/projects/1/"), "/projects/1/", "")).toBe("/projects/1");
    expect(canonicalAddress(parseRoute("/projects/1/halls/2", "?plan=3"), "/projects/1/halls/2", "?plan=3")).toBeNull();
    expect(canonicalAddress(parseRoute("/nowhere"), "/nowhere", "")).toBeNull();
  });
});
