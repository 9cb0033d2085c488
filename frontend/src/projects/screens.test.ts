import { describe, expect, it } from "vitest";
import type { Token } from "./api";
import { exportFileName } from "./ProjectList";
import { tokenState } from "./Tokens";

const token = (over: Partial<Token>): Token => ({
  id: 1,
  name: "t",
  prefix: "llt_abc",
  scopes: ["layout:read"],
  created_at: "2026-01-01T00:00:00Z",
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  ...over,
});

describe("tokenState", () => {
  const now = new Date("2026-06-01T12:00:00Z");
  it("active, expired at its expiry instant, revoked before anything else", () => {
    expect(tokenState(token({}), now)).toBe("active");
    expect(tokenState(token({ expires_at: "2026-06-01T12:00:01Z" }), now)).toBe("active");
    expect(tokenState(token({ expires_at: "2026-06-01T12:00:00Z" }), now)).toBe("expired");
    expect(tokenState(token({ expires_at: "2026-01-01T00:00:00Z", revoked_at: "2025-12-01T00:00:00Z" }), now)).toBe(
      "revoked",
    );
  });
});

describe("exportFileName", () => {
  it("keeps letters (without accents), digits, dots and dashes; never empty, never a dot file", () => {
    expect(exportFileName("Frankfurt DC2 — 25G upgrade")).toBe("Frankfurt-DC2-25G-upgrade.loopline.json");
    expect(exportFileName("../../etc/passwd")).toBe("etc-passwd.loopline.json");
    expect(exportFileName("Zürich")).toBe("Zurich.loopline.json");
    expect(exportFileName("///")).toBe("project.loopline.json");
    expect(exportFileName("x".repeat(300))).toBe(`${"x".repeat(80)}.loopline.json`);
  });
});
