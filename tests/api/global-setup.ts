import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#api/db/client";
import { migrate } from "#api/db/migrate";
import { seedDemoData } from "#tests/support/demo-data";

declare module "vitest" {
  export interface ProvidedContext {
    /** Embedded clusters for startTestApi to start from: migrated only, and with the demo data. */
    pgliteSnapshots?: { migrated: string; seeded: string };
  }
}

/**
 * Each API test file gets a database of its own. A new embedded cluster costs seconds of a core
 * (initdb most of it, migrations and demo data the rest); started from a copy made once here, a tenth.
 * On PostgreSQL (TEST_DATABASE_URL) every file still creates and migrates its own database.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = mkdtempSync(path.join(tmpdir(), "ofertas-api-snapshots-"));
  const snapshots = { migrated: path.join(dir, "migrated.tar"), seeded: path.join(dir, "seeded.tar") };
  const handle = await openDatabase({ dataDir: "memory://" });
  try {
    await migrate(handle.db);
    await handle.dump!(snapshots.migrated);
    await seedDemoData(handle.db);
    await handle.dump!(snapshots.seeded);
  } finally {
    await handle.close();
  }
  project.provide("pgliteSnapshots", snapshots);
  return () => rmSync(dir, { recursive: true, force: true });
}
