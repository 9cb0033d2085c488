import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist", "node_modules", "src/api/schema.d.ts"] },
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
  {
    // The editor model is pure data: it must not know about Three.js or React.
    files: ["src/model/**/*.ts", "src/commands/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["three", "three/*", "@react-three/*", "react", "react-dom"] },
      ],
    },
  },
);
