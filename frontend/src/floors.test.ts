/**
 * The floors of the editor (frontend/README.md, "Floors") are enforced by `no-restricted-imports` in
 * eslint.config.js. This test lints one import from every folder to every other folder and checks
 * that exactly the downward ones pass, so a rule that stops firing (a typo in a pattern, a folder
 * left out) fails here.
 */
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Bottom to top; folders on one floor do not import each other. */
const FLOORS = [
  ["api"],
  ["model"],
  ["commands"],
  ["state"],
  ["sync", "tools"],
  ["widgets"],
  ["scene", "wiring", "ui", "projects", "plans", "simulations"],
];
const FOLDERS = FLOORS.flat();
const floorOf = (folder: string) => FLOORS.findIndex((f) => f.includes(folder));

async function lint(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(source, { filePath: `${ROOT}/${file}` });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? "fatal"}: ${m.message}`);
}

/** For each folder except the generated `api/`, the folders it imported that ESLint refused. */
async function refusedImports(targets: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const folder of FOLDERS.filter((f) => f !== "api")) {
    const source = targets.map((t, i) => `import * as m${i} from "${t}";\nvoid m${i};\n`).join("");
    const messages = await lint(`src/${folder}/probe.ts`, source);
    expect(messages.filter((m) => !m.startsWith("no-restricted-imports"))).toEqual([]);
    out[folder] = targets.filter((t) => messages.some((m) => m.includes(`'${t}'`)));
  }
  return out;
}

describe("floors (ESLint no-restricted-imports)", () => {
  it(
    "refuses every import from a floor above or from the same floor, and nothing else",
    { timeout: 60_000 },
    async () => {
      const targets = [...FOLDERS.map((f) => `../${f}/x`), "../App", "../main"];
      const refused = await refusedImports(targets);
      const expected = Object.fromEntries(
        FOLDERS.filter((f) => f !== "api").map((from) => [
          from,
          [
            ...FOLDERS.filter((to) => to !== from && floorOf(to) >= floorOf(from)).map((to) => `../${to}/x`),
            "../App",
            "../main",
          ],
        ]),
      );
      expect(refused).toEqual(expected);
      // Spelled out for the floors that matter most:
      expect(refused.state).toEqual([
        "../sync/x",
        "../tools/x",
        "../widgets/x",
        "../scene/x",
        "../wiring/x",
        "../ui/x",
        "../projects/x",
        "../plans/x",
        "../simulations/x",
        "../App",
        "../main",
      ]);
      const top = ["scene", "wiring", "ui", "projects", "plans", "simulations"];
      for (const f of ["ui", "projects", "plans", "simulations"])
        expect(refused[f]).toEqual([...top.filter((t) => t !== f).map((t) => `../${t}/x`), "../App", "../main"]);
    },
  );

  it("catches deeper relative paths and bare folder imports too", async () => {
    const messages = await lint(
      "src/sync/probe.ts",
      `import "../../src/ui/session";\nimport "../scene";\nimport "../state/session";\n`,
    );
    expect(messages).toHaveLength(2);
  });

  it("keeps three.js and React out of model/ and commands/", async () => {
    for (const folder of ["model", "commands"]) {
      const messages = await lint(
        `src/${folder}/probe.ts`,
        `import "three";\nimport "react";\nimport "@react-three/fiber";\nimport "zod";\n`,
      );
      expect(messages).toHaveLength(3);
    }
  });

  it("lets the model's tests build fixtures with commands/, and nothing above", async () => {
    const messages = await lint(
      "src/model/probe.test.ts",
      `import "../commands/layout";\nimport "../state/session";\n`,
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("'../state/session'");
  });
});
