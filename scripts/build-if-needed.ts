/**
 * `npm start` runs this first: it builds the storefront when there is no build yet or when a
 * source the build depends on is newer than it, so a fresh clone starts with one command.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const OUTPUT = "build/server/index.js";
const SOURCES = ["app", "lib", "public", "vite.config.ts", "scripts/vite-plugins.ts", "package.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

const built = existsSync(OUTPUT) ? statSync(OUTPUT).mtimeMs : 0;
const changed = Math.max(...SOURCES.map(newestMtime));
if (built === 0 || changed > built) {
  console.log(built === 0 ? "Construyendo la tienda (primera vez)…" : "Hay cambios desde la última construcción: reconstruyendo…");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
