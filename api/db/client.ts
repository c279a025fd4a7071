import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
// The real one even where a test has faked the global timers: statements must still take turns.
import { setImmediate } from "node:timers";
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

export type OpenOptions = {
  databaseUrl?: string;
  /** PostgreSQL only: the pool's connections (DATABASE_POOL_SIZE). */
  poolSize?: number;
  dataDir?: string;
  /**
   * Runs on a brand-new embedded cluster before it is put in place (migrations, demo catalogue),
   * so a first start that dies half-way leaves nothing behind and the next one starts over.
   */
  prepare?: (db: Database) => Promise<void>;
  /** Progress, for logs and for the crash tests that kill the process at each step. */
  onPhase?: (phase: "initdb" | "prepare" | "open") => void;
};

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite: files under dataDir, or memory when
 * dataDir is "memory://" (tests).
 */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 4 });
    // An idle connection that the server ends (restart, failover, a dropped test database) emits
    // 'error' on the pool; unheard, that is an uncaught exception that kills the whole process.
    // The pool replaces the connection on the next query, so logging is all there is to do.
    pool.on("error", (error) => console.warn(`PostgreSQL: conexión inactiva cerrada (${error.message}).`));
    // numeric stays a string ("12.50"), which is the API's money format.
    return { db: drizzlePg(pool, { schema }) as unknown as Database, kind: "postgres", close: () => pool.end() };
  }
  // Loaded only when used: the WASM build is tens of MB a PostgreSQL-backed process never needs.
  const { PGlite } = await import("@electric-sql/pglite");
  const settings = { extensions: await pgliteExtensions(), ...pgliteSettings(PGlite.defaultStartParams) };
  if (!options.dataDir || options.dataDir === "memory://") return openPglite(new PGlite(settings));
  // Its own subfolder: initdb wants an empty directory, and DATA_DIR also holds the dev secret.
  const target = path.join(options.dataDir, "pglite");
  if (!existsSync(target)) {
    // initdb, migrations and seed happen in a scratch folder that becomes the database only when
    // all of it is done: rename is atomic, so a kill at any moment leaves either no database or a
    // complete one. The caller holds the DATA_DIR lock, so no other process uses the scratch.
    const scratch = path.join(options.dataDir, "pglite.init");
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(options.dataDir, { recursive: true });
    options.onPhase?.("initdb");
    const fresh = await openPglite(new PGlite(scratch, settings));
    options.onPhase?.("prepare");
    await options.prepare?.(fresh.db);
    await fresh.close();
    renameSync(scratch, target);
  }
  options.onPhase?.("open");
  return openPglite(new PGlite(target, settings));
}

/**
 * The same database and memory on every embedded cluster, old or new:
 * - template1 is where PGlite 0.3 kept our tables (its default database); 0.4 defaults to
 *   "postgres", so without this a data directory from before the upgrade would look empty.
 * - shared_buffers: PGlite's PostgreSQL lives inside this Node process, so its buffer pool is
 *   the server's own memory. initdb writes 128MB into a new cluster's postgresql.conf; at 100,000
 *   offers the pool fills and the process passes 450 MB. With 16MB the rest is read from the OS
 *   page cache: at 100,000 offers the API served as many requests as with 64MB (and 0.3's
 *   128MB), and a quarter more than with the 400kB that 0.3's initdb wrote into older clusters.
 */
const pgliteSettings = (defaultStartParams: string[]) => ({
  database: "template1",
  startParams: [...defaultStartParams, "-c", "shared_buffers=16MB"],
});

// Search needs unaccent and pg_trgm (migration 0006) and intarray (0013); PGlite bundles them as loadable contrib.
async function pgliteExtensions() {
  const [{ pg_trgm }, { unaccent }, { intarray }] = await Promise.all([
    import("@electric-sql/pglite/contrib/pg_trgm"),
    import("@electric-sql/pglite/contrib/unaccent"),
    import("@electric-sql/pglite/contrib/intarray"),
  ]);
  return { pg_trgm, unaccent, intarray };
}

async function openPglite(client: PGlite): Promise<DatabaseHandle> {
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  await client.waitReady;
  takeTurnsInArrivalOrder(client);
  return { db: drizzlePglite(client, { schema }) as unknown as Database, kind: "pglite", close: () => client.close() };
}

/**
 * PGlite's statements start in the order their requests arrived, one per turn of the event loop.
 *
 * The embedded database runs on this thread, so a statement blocks it. Without this, Node reads
 * every request that is ready at once and runs each to the end (its statement included) before
 * it looks at the network again: a request that arrives while such a batch runs waits for the
 * whole batch and then for its place in the next one, so at 10 connections a listing's p90 was
 * twice its median (17.7 → 33 ms). With one statement per turn, the requests that arrived during
 * it are read and queue behind the ones already waiting: first come, first served, and p90 close
 * to the median (20.4 → 22 ms). Throughput is the same; one request alone waits one turn (µs).
 * Statements inside a transaction go through its own handle and are not queued again.
 */
function takeTurnsInArrivalOrder(client: PGlite) {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  const next = () => {
    const go = waiting.shift();
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(next);
    go?.();
  };
  const turn = () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(next);
      }
    });
  const methods = client as unknown as Record<"query" | "exec" | "transaction", (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["query", "exec", "transaction"] as const) {
    const run = methods[name].bind(client);
    methods[name] = async (...args: unknown[]) => {
      await turn();
      return run(...args);
    };
  }
}

/** Raw SQL with typed rows; the same on PGlite and node-postgres, which both answer { rows }. */
export async function query<T = Record<string, unknown>>(db: Executor, statement: SQL): Promise<T[]> {
  const result = (await db.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

/** SQLSTATEs that mean "nothing was wrong with the request, try the transaction again". */
const RETRYABLE = new Set(["40001", "40P01"]); // serialization_failure, deadlock_detected

function sqlState(error: unknown): string | undefined {
  // drizzle wraps the driver's error; node-postgres and PGlite both put the SQLSTATE in `code`.
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/**
 * db.transaction, run again (a few times, with a short random pause) when PostgreSQL aborted it
 * for a deadlock or a serialization failure. Those are a matter of timing between buyers, never
 * the buyer's fault, so they must not reach them as an error. Row locks are still taken in one
 * stable order (by id) so that this is rare.
 */
export async function transactionWithRetry<T>(db: Database, work: (tx: Transaction) => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      const state = sqlState(error);
      if (!state || !RETRYABLE.has(state) || attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
