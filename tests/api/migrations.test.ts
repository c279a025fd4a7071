import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, query } from "#api/db/client";
import { migrate } from "#api/db/migrate";
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
