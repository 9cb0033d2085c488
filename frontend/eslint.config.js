import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * The editor's floors, bottom to top (frontend/README.md, "Floors"). A folder may import from the
 * floors below it, never from a floor above it nor from another folder of its own floor.
 * `api/` (generated types) is the ground and imports nothing.
 */
const FLOORS = [
  ["model"],
  ["commands"],
  ["state"],
  ["sync", "tools"],
  ["widgets"],
  ["scene", "wiring", "ui", "projects", "plans", "simulations"],
];
/** Modules at the top of `src/` (the entry points): above every floor. */
const ROOT_MODULES = ["App", "main"];

/** Forbidden relative imports for a folder of `src/`, except the folders in `allowed`. */
function floorRule(folder, allowed = []) {
  const floor = FLOORS.findIndex((f) => f.includes(folder));
  const above = FLOORS.slice(floor + 1).flat();
  const siblings = FLOORS[floor].filter((f) => f !== folder);
  const forbidden = [...siblings, ...above].filter((f) => !allowed.includes(f));
  return [
    {
      regex: `^(\\.\\./)+(src/)?(${forbidden.join("|")})(/|$)`,
      message: `src/${folder}/ is below (or beside) ${forbidden.map((f) => `${f}/`).join(", ")}: it must not import them (frontend/README.md, "Floors").`,
    },
    {
      regex: `^(\\.\\./)+(src/)?(${ROOT_MODULES.join("|")})(\\.tsx?)?$`,
      message: "Nothing imports the entry points (App.tsx, main.tsx).",
    },
  ];
}

/** The pure core (model, commands) knows nothing of Three.js or React. */
const NO_VIEW = {
  group: ["three", "three/*", "@react-three/*", "react", "react-dom"],
  message: "model/ and commands/ are pure data: no Three.js, no React.",
};

const floorConfigs = FLOORS.flat().flatMap((folder) => {
  const pure = folder === "model" || folder === "commands";
  const rule = (allowed) => ["error", { patterns: [...(pure ? [NO_VIEW] : []), ...floorRule(folder, allowed)] }];
  const configs = [{ files: [`src/${folder}/**/*.{ts,tsx}`], rules: { "no-restricted-imports": rule() } }];
  // The model's tests build their fixtures with the layout commands (one floor up).
  if (folder === "model")
    configs.push({ files: ["src/model/**/*.test.ts"], rules: { "no-restricted-imports": rule(["commands"]) } });
  return configs;
});

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts", "src/api/engineResult.d.ts"] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    files: ["**/*.{ts,tsx}"],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    // Tests assert on fixtures they just built: `!` there reads better than a guard per line.
    files: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  ...floorConfigs,
);
