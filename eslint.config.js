import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import eslintConfigPrettier from "eslint-config-prettier/flat";

// The server loads what it imports, untouched by tree-shaking: date-fns's index and locale index
// load every function and every locale (8.4 MB of heap that each full collection marked).
const wholeDateFns = {
  paths: ["date-fns", "date-fns/locale"].map((name) => ({
    name,
    message: "Import one function (date-fns/format) or one locale (date-fns/locale/es).",
  })),
};

export default tseslint.config(
  { ignores: ["build/", "tests/bench/floor/build/", "data/", "node_modules/", "test-results/", "playwright-report/", "public/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "off",
      "no-restricted-imports": ["error", wholeDateFns],
    },
  },
  {
    // The storefront speaks to the API only through the contract (types in lib/), so it can run
    // against any server that speaks it; nothing in app/ may reach into api/ internals.
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          ...wholeDateFns,
          patterns: [
            {
              regex: "^(#api/|(\\.\\./)+api/)",
              message: "app/ imports the contract from lib/ (e.g. #contract/offers), never from api/.",
            },
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures call their callback `use`; it is not React's hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["scripts/**/*.mjs", "tests/bench/**"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        fetch: "readonly",
      },
    },
  },
  // Formatting is Prettier's: rules that could fight it are off.
  eslintConfigPrettier,
);
