import { cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, query } from "#api/db/client";
import {
  migrate,
  MigrationChangedError,
  migrationFiles,
  NO_TRANSACTION_MARKER,
  pendingMigrations,
  PendingMigrationsError,
} from "#api/db/migrate";
import { startDatabase } from "#api/db/startup";
import { seedIfEmpty } from "#api/db/seed";
import { SEED_OFFERS } from "#api/db/seed-data";
import { startTestApi, type TestApi } from "#tests/support/api-server";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ seed: false });
});
afterAll(() => api.close());

it("two processes starting at once apply each migration once and load the demo catalogue once", async () => {
  // On PostgreSQL these are separate connection pools, like two app processes; on PGlite the
  // single connection serialises them, which must give the same result.
  const others = api.databaseUrl
    ? await Promise.all([openDatabase({ databaseUrl: api.databaseUrl }), openDatabase({ databaseUrl: api.databaseUrl })])
    : null;
  const dbs = others ? others.map((o) => o.db) : [api.db, api.db];
  try {
    const applied = await Promise.all(dbs.map((db) => migrate(db)));
    expect(applied.flat()).toEqual([]); // startTestApi already migrated: nothing to do, no error
    const seeded = await Promise.all(dbs.map((db) => seedIfEmpty(db)));
    expect(seeded.filter(Boolean)).toHaveLength(1);
    const [row] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM offers`);
    expect(Number(row.n)).toBe(SEED_OFFERS.length);
    const versions = await query<{ version: string }>(api.db, sql`SELECT version FROM schema_migrations ORDER BY version`);
    // Every file in the folder, each once (the list grows with each issue's migration).
    const files = (await readdir(fileURLToPath(new URL("../../api/db/migrations/", import.meta.url))))
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(files).toEqual(expect.arrayContaining(["0001_catalogue.sql", "0002_sales.sql"]));
    expect(versions.map((v) => v.version)).toEqual(files);
  } finally {
    await Promise.all((others ?? []).map((o) => o.close()));
  }
});

const MIGRATIONS = fileURLToPath(new URL("../../api/db/migrations/", import.meta.url));

/** The project's migrations plus some of a test's own, in a folder of their own. */
async function migrationsWith(extra: Record<string, string>): Promise<string> {
  const dir = (await mkdtemp(path.join(tmpdir(), "ofertas-migrations-"))) + "/";
  await cp(MIGRATIONS, dir, { recursive: true });
  for (const [name, text] of Object.entries(extra)) await writeFile(dir + name, text);
  return dir;
}

it("records each migration's checksum, fills the ones missing, and refuses an applied file that changed, naming it", async () => {
  const files = await migrationFiles();
  await api.db.execute(sql`UPDATE schema_migrations SET checksum = NULL WHERE version < '0010'`);
  expect(await migrate(api.db)).toEqual([]);
  const rows = await query<{ version: string; checksum: string }>(
    api.db,
    sql`SELECT version, checksum FROM schema_migrations ORDER BY version`,
  );
  expect(rows).toEqual(files.map((f) => ({ version: f.version, checksum: f.checksum })));

  const edited = await migrationsWith({ "0002_sales.sql": files[1].text + "\n-- edited\n" });
  const refusal = await migrate(api.db, { dir: edited }).catch((e: unknown) => e);
  expect(refusal).toBeInstanceOf(MigrationChangedError);
  expect((refusal as Error).message).toMatch(/La migración 0002_sales\.sql ya está aplicada y su archivo ha cambiado/);
  await expect(pendingMigrations(api.db, edited)).rejects.toBeInstanceOf(MigrationChangedError);
  await rm(edited, { recursive: true });
});

it("a file marked «-- migrate: no-transaction» runs outside a transaction (CREATE INDEX CONCURRENTLY), applied once by two processes", async () => {
  const dir = await migrationsWith({
    "9000_concurrent.sql": `${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS offers_title_test ON offers (title);\n`,
    "9001_after.sql": "CREATE TABLE migration_probe (id int PRIMARY KEY);\nINSERT INTO migration_probe VALUES (1);\n",
  });
  try {
    expect(await pendingMigrations(api.db, dir)).toEqual(["9000_concurrent.sql", "9001_after.sql"]);
    const others = api.databaseUrl
      ? await Promise.all([openDatabase({ databaseUrl: api.databaseUrl }), openDatabase({ databaseUrl: api.databaseUrl })])
      : null;
    try {
      // Two processes at once on PostgreSQL; the one embedded connection runs them in turn.
      const applied = others
        ? await Promise.all(others.map((o) => migrate(o.db, { dir })))
        : [await migrate(api.db, { dir }), await migrate(api.db, { dir })];
      expect(applied.flat().sort()).toEqual(["9000_concurrent.sql", "9001_after.sql"]);
    } finally {
      await Promise.all((others ?? []).map((o) => o.close()));
    }
    const index = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = 'offers_title_test'`);
    expect(Number(index[0].n)).toBe(1);
    expect(await pendingMigrations(api.db, dir)).toEqual([]);
  } finally {
    await api.db.execute(sql`DROP INDEX IF EXISTS offers_title_test`);
    await api.db.execute(sql`DROP TABLE IF EXISTS migration_probe`);
    await api.db.execute(sql`DELETE FROM schema_migrations WHERE version >= '9000'`);
    await rm(dir, { recursive: true });
  }
});

it("MIGRATE_ON_START=0: a server that finds a migration pending refuses to start and names it", async () => {
  const [last] = (await migrationFiles()).slice(-1);
  await api.db.execute(sql`DELETE FROM schema_migrations WHERE version = ${last.version}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), "ofertas-migrate-off-"));
  try {
    // Embedded, the server owns a folder: the same database through a copy is not possible, so
    // PGlite takes this path in the data-dir tests (a new DATA_DIR, then npm run migrate).
    if (api.databaseUrl) {
      const refusal = await startDatabase({ ...api.config, DATABASE_URL: api.databaseUrl, dataDir, MIGRATE_ON_START: false }).catch(
        (e: unknown) => e,
      );
      expect(refusal).toBeInstanceOf(PendingMigrationsError);
      expect((refusal as Error).message).toContain(last.version);
      expect((refusal as Error).message).toContain("npm run migrate");
    }
    expect(await pendingMigrations(api.db)).toEqual([last.version]);
  } finally {
    await migrate(api.db);
    await rm(dataDir, { recursive: true });
  }
});
