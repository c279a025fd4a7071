/**
 * `npm run build`'s last step: server.ts and the API compiled to plain JavaScript in build/node/,
 * so `npm start` runs on Node alone. Under tsx every module was compiled at start-up and the
 * loader's own thread stayed resident, a sixth of the process's memory (ADR 018). Packages stay imports of node_modules; lazy imports
 * (PGlite, mail templates, the PDF) stay lazy chunks. Migrations are read as files beside the code.
 */
import { cpSync, rmSync } from "node:fs";
import { build } from "esbuild";

const OUT = "build/node";
rmSync(OUT, { recursive: true, force: true });
await build({
  // The maintenance commands too, so a production install (no tsx) can run them (scripts/command.mjs).
  entryPoints: {
    server: "server.ts",
    "staff-create": "scripts/staff-create.ts",
    migrate: "scripts/migrate.ts",
    backup: "scripts/backup.ts",
    restore: "scripts/restore.ts",
    digest: "scripts/digest.ts",
  },
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
