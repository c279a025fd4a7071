/**
 * `npm start` runs this first: it builds when there is no build yet or when a source a build
 * depends on is newer than it, so a fresh clone starts with one command and `npm start` never
 * runs stale code. The storefront (Vite, tens of seconds) and the server (esbuild, under a
 * second) are checked apart, so a change to the API alone does not rebuild the storefront.
 *
 * Plain JavaScript on Node alone: a production install (`npm prune --omit=dev`) has no build
 * tools, and there a stale build is served as it is, with a warning, instead of failing to build.
 * `--serve` (npm run serve) never builds: it only checks that there is a build to serve.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const SHARED = ["contract", "rules", "platform", "package.json", "tsconfig.json"];
const STOREFRONT = { output: "build/server/index.js", sources: ["app", "public", "vite.config.ts", "scripts/vite-plugins.ts", ...SHARED] };
// The host (server.ts, server/) imports the storefront's server modules too.
const SERVER = { output: "build/node/server.js", sources: ["server.ts", "server", "api", "app", "scripts", ...SHARED] };

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const builtAt = (output) => (existsSync(output) ? statSync(output).mtimeMs : 0);
const stale = (part) => Math.max(...part.sources.map(newestMtime)) > builtAt(part.output);
const built = builtAt(STOREFRONT.output) > 0 && builtAt(SERVER.output) > 0;

/** The packages `npm run build` needs, all devDependencies: absent after `npm prune --omit=dev`. */
function buildToolsInstalled() {
  const require = createRequire(path.resolve("package.json"));
  try {
    for (const name of ["@remix-run/dev/package.json", "esbuild", "tsx/package.json"]) require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

function run(args) {
  const result = spawnSync("npm", args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (process.argv.includes("--serve")) {
  if (!built) {
    console.error("No hay nada que servir: falta build/. Construye antes con «npm run build» (npm start construye solo).");
    process.exit(1);
  }
} else if (!buildToolsInstalled()) {
  if (!built) {
    console.error(
      "Falta build/ y no están las herramientas para construirlo (instalación de producción). " +
        "Construye con «npm ci && npm run build» antes de «npm prune --omit=dev».",
    );
    process.exit(1);
  }
  if (stale(STOREFRONT) || stale(SERVER))
    console.warn("Aviso: hay fuentes más nuevas que build/, pero sin las herramientas de construcción se sirve build/ tal cual.");
} else if (builtAt(STOREFRONT.output) === 0 || stale(STOREFRONT)) {
  console.log(
    builtAt(STOREFRONT.output) === 0
      ? "Construyendo la tienda (primera vez)…"
      : "Hay cambios desde la última construcción: reconstruyendo…",
  );
  run(["run", "build"]);
} else if (stale(SERVER)) {
  console.log("Hay cambios en el servidor: compilándolo…");
  run(["exec", "--", "tsx", "scripts/build-server.ts"]);
}
