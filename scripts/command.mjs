// npm run migrate | backup | restore: the TypeScript source where the dev tools are installed (a
// checkout), the compiled copy in build/node/ where they are not (a production install, the
// container). Plain JavaScript, so that it runs on Node alone.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

const [name, ...args] = process.argv.slice(2);
let hasTsx = true;
try {
  createRequire(import.meta.url).resolve("tsx");
} catch {
  hasTsx = false;
}
const built = `build/node/${name}.js`;
if (!hasTsx && !existsSync(built)) {
  console.error(`Falta ${built}: ejecuta npm run build.`);
  process.exit(1);
}
const command = hasTsx ? ["--import", "tsx", `scripts/${name}.ts`] : ["--enable-source-maps", built];
const { status, signal } = spawnSync(process.execPath, [...command, ...args], { stdio: "inherit" });
process.exit(status ?? (signal ? 1 : 0));
