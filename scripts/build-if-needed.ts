/**
 * `npm start` runs this first: it builds when there is no build yet or when a source a build
 * depends on is newer than it, so a fresh clone starts with one command and `npm start` never
 * runs stale code. The storefront (Vite, tens of seconds) and the server (esbuild, under a
 * second) are checked apart, so a change to the API alone does not rebuild the storefront.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SHARED = ["contract", "rules", "platform", "package.json", "tsconfig.json"];
const STOREFRONT = { output: "build/server/index.js", sources: ["app", "public", "vite.config.ts", "scripts/vite-plugins.ts", ...SHARED] };
// The host (server.ts, server/) imports the storefront's server modules too.
const SERVER = { output: "build/node/server.js", sources: ["server.ts", "server", "api", "app", "scripts/build-server.ts", ...SHARED] };

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const builtAt = (output: string) => (existsSync(output) ? statSync(output).mtimeMs : 0);
const stale = (part: { output: string; sources: string[] }) => Math.max(...part.sources.map(newestMtime)) > builtAt(part.output);

function run(args: string[]) {
  const result = spawnSync("npm", args, { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (builtAt(STOREFRONT.output) === 0 || stale(STOREFRONT)) {
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
