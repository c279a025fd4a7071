/**
 * Runs a maintenance command (scripts/<name>.ts): from the sources under tsx where the build tools
 * are installed, or compiled in build/node/<name>.js in a production install (no tsx there).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z][a-z0-9-]*$/.test(name)) {
  console.error("Uso: node scripts/command.mjs <comando> [argumentos…]");
  process.exit(1);
}
let tsx = true;
try {
  createRequire(path.resolve("package.json")).resolve("tsx/package.json");
} catch {
  tsx = false;
}
const compiled = `build/node/${name}.js`;
if (!tsx && !existsSync(compiled)) {
  console.error(`Falta ${compiled} y no está tsx para ejecutar scripts/${name}.ts: construye con «npm run build».`);
  process.exit(1);
}
const result = spawnSync(process.execPath, tsx ? ["--import", "tsx", `scripts/${name}.ts`, ...args] : [compiled, ...args], {
  stdio: "inherit",
});
process.exit(result.status ?? 1);
