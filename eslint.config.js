import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import eslintConfigPrettier from "eslint-config-prettier/flat";
import routeFolders from "./eslint/private-route-folders.js";

// The server loads what it imports, untouched by tree-shaking: date-fns's index and locale index
// load every function and every locale (8.4 MB of heap that each full collection marked).
const wholeDateFns = {
  paths: ["date-fns", "date-fns/locale"].map((name) => ({
    name,
    message: "Import one function (date-fns/format) or one locale (date-fns/locale/es).",
  })),
};

// The layout states the design (docs/decisions/009-layout.md): each top-level folder imports only
// from the folders it builds on. A pattern matches a folder by its alias (#rules/…) or by a
// relative path that climbs into it (../../rules/…).
const never = (folders, message) => folders.map((name) => ({ regex: `^(#${name}/|(\\.\\./)+${name}(/|$))`, message }));
const restrictImports = (files, ...patterns) => ({
  files,
  rules: { "no-restricted-imports": ["error", { ...wholeDateFns, patterns: patterns.flat() }] },
});

const oneSecretComparison = {
  selector: "Identifier[name='timingSafeEqual']",
  message: "Compare secrets with sameSecret from #platform/same-secret.server.",
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
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-imports": ["error", wholeDateFns],
    },
  },
  // Tests read answers loosely on purpose: the contract's schemas check them (tests/support/api-server.ts).
  { files: ["tests/**"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  // rules/: the shop's rules, pure and written once for both halves.
  restrictImports(
    ["rules/**"],
    never(
      ["app", "api", "server", "contract", "platform", "tests"],
      "rules/ is pure: it imports only other rules (#rules/…). Move what a rule needs into rules/.",
    ),
  ),
  // contract/: the /api/v0 requests and responses, for any client; built on the rules alone.
  restrictImports(
    ["contract/**"],
    never(
      ["app", "api", "server", "platform", "tests"],
      "contract/ imports only the rules (#rules/…) and other contract files (#contract/…).",
    ),
  ),
  // platform/: server-only code that the API, the storefront and the host all use.
  restrictImports(
    ["platform/**"],
    never(
      ["app", "api", "server", "tests"],
      "platform/ serves the API, the storefront and the host alike: it imports only #rules/…, #contract/… and #platform/….",
    ),
  ),
  // app/: the storefront reaches the API only over HTTP, so it can run against any server of the
  // contract; and the host wires the storefront in, never the other way round.
  restrictImports(
    ["app/**"],
    never(
      ["api"],
      "app/ never imports api/: call the API through #app/api-client/…, with the types and schemas of #contract/… and the rules of #rules/….",
    ),
    never(
      ["server"],
      "app/ never imports the host (server/): the host imports the storefront; server-only code that both need goes to #platform/….",
    ),
  ),
  // A route folder is a private room: it imports no other route folder but its family's +shared/.
  { files: ["app/**"], plugins: { ofertas: routeFolders }, rules: { "ofertas/private-route-folders": "error" } },
  // api/: the system of record knows nothing of its clients or of the host that mounts it.
  restrictImports(
    ["api/**"],
    never(
      ["app", "server"],
      "api/ never imports the storefront (app/) or the host (server/): rules come from #rules/…, the contract from #contract/…, shared server code from #platform/….",
    ),
  ),
  {
    // One constant-time comparison, so every secret is compared the same careful way.
    ignores: ["platform/same-secret.server.ts"],
    rules: { "no-restricted-syntax": ["error", oneSecretComparison] },
  },
  {
    // A route of /api/v0 is registered only from its declaration in contract/: on(router, route, handler).
    files: ["api/routes/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        oneSecretComparison,
        {
          selector: "CallExpression[callee.object.name=/[Rr]outer$/][callee.property.name!='use']",
          message: "Declare the route in contract/<resource>.ts and register it with on() from #api/route.",
        },
      ],
    },
  },
  {
    // Playwright fixtures call their callback `use`; it is not React's hook.
    files: ["tests/e2e/**", "tests/operator/**"],
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
