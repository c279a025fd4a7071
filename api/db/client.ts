import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import path from "node:path";
import pg from "pg";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
};

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite: files under dataDir, or memory when
 * dataDir is "memory://" (tests).
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // numeric stays a string ("12.50"), which is the API's money format.
    return { db: drizzlePg(pool, { schema }) as unknown as Database, kind: "postgres", close: () => pool.end() };
  }
  // Its own subfolder: initdb wants an empty directory, and DATA_DIR also holds the dev secret.
  // Search needs unaccent and pg_trgm (migration 0006); PGlite bundles them as loadable contrib.
  const extensions = { pg_trgm, unaccent };
  const client =
    options.dataDir && options.dataDir !== "memory://"
      ? new PGlite(path.join(options.dataDir, "pglite"), { extensions })
      : new PGlite({ extensions });
  await client.waitReady;
  return { db: drizzlePglite(client, { schema }) as unknown as Database, kind: "pglite", close: () => client.close() };
}

/** Raw SQL with typed rows; the same on PGlite and node-postgres, which both answer { rows }. */
export async function query<T = Record<string, unknown>>(db: Executor, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}
