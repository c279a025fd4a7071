/**
 * `npm run build`'s last step: server.ts and the API compiled to plain JavaScript in build/node/,
 * so `npm start` runs on Node alone. Under tsx every module was compiled at start-up and the
 * loader's own thread stayed resident: 50 MB more at rest and 55 MB more under load (RSS 310 →
 * 255 MB on the 100,000-offer catalogue). Packages stay imports of node_modules; lazy imports
 * (PGlite, mail templates, the PDF) stay lazy chunks. Migrations are read as files beside the code.
 */
import { cpSync, rmSync } from "node:fs";
import { build } from "esbuild";

const OUT = "build/node";
rmSync(OUT, { recursive: true, force: true });
await build({
  // The deploy commands too, so that an install without dev dependencies runs them (scripts/command.mjs).
  entryPoints: ["server.ts", "scripts/migrate.ts", "scripts/backup.ts", "scripts/restore.ts"],
  entryNames: "[name]",
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
cpSync("api/db/migrations", `${OUT}/migrations`, { recursive: true });
// Started by path (new URL beside the code), so it is copied as it is, like the migrations.
cpSync("api/db/pglite-worker.mjs", `${OUT}/pglite-worker.mjs`);
