import type { PGlite } from "@electric-sql/pglite";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import type pg from "pg";
import { logger } from "#platform/logger.server";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  close: () => Promise<void>;
  /** PGlite only: writes the whole cluster as a tarball that `from` can start another one from. */
  dump?: (file: string) => Promise<void>;
};

export type OpenOptions = {
  databaseUrl?: string;
  /** PostgreSQL only: the pool's connections (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** PostgreSQL only: DATABASE_CONNECT_TIMEOUT (s), DATABASE_STATEMENT_TIMEOUT and DATABASE_IDLE_IN_TRANSACTION_TIMEOUT (ms). */
  timeouts?: Partial<PostgresTimeouts>;
  dataDir?: string;
  /**
   * Runs on a brand-new embedded cluster before it is put in place (migrations, demo catalogue),
   * so a first start that dies half-way leaves nothing behind and the next one starts over.
   */
  prepare?: (db: Database) => Promise<void>;
  /** Progress, for logs and for the crash tests that kill the process at each step. */
  onPhase?: (phase: "initdb" | "prepare" | "open") => void;
  /**
   * A tarball written by `dump` to start from instead of a new cluster (a DATA_DIR only when it
   * has no database yet: `npm run restore`). initdb is most of the cost of a new embedded
   * database (more than migrations and the demo catalogue together), and the API suite opened
   * one per test file.
   */
  from?: string;
};

export type PostgresTimeouts = { connectSeconds: number; statementMs: number; idleInTransactionMs: number };
const DEFAULT_TIMEOUTS: PostgresTimeouts = { connectSeconds: 5, statementMs: 15_000, idleInTransactionMs: 30_000 };

const pools = new WeakMap<Database, pg.Pool>();

/** The connection pool under a PostgreSQL database; undefined for PGlite. */
export function poolOf(db: Database): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite: files under dataDir, or memory when
 * dataDir is "memory://" (tests).
 */
export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    // Loaded only here: on the embedded database the driver is ~2 MB of heap that nothing uses.
    const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([import("pg"), import("drizzle-orm/node-postgres")]);
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    // A database that does not answer fails the request within seconds (a 503) instead of
    // holding it, and a transaction left open by a stuck process cannot keep its row locks.
    // The connect timeout is the client's alone: given to the pool, the same limit would also
    // apply to waiting for a free connection, and a burst of buyers queued behind a busy pool
    // would be answered 503 while the database is fine.
    const connectionTimeoutMillis = timeouts.connectSeconds * 1000;
    class TimedClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        super({ ...config, connectionTimeoutMillis });
      }
    }
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 4,
      Client: TimedClient,
      options: `-c statement_timeout=${timeouts.statementMs} -c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
    });
    // An idle connection that the server ends (restart, failover, a dropped test database) emits
    // 'error' on the pool; unheard, that is an uncaught exception that kills the whole process.
    // The pool replaces the connection on the next query, so logging is all there is to do.
    pool.on("error", (error) => logger.warn({ err: error }, "PostgreSQL: conexión inactiva cerrada."));
    // numeric stays a string ("12.50"), which is the API's money format.
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    pools.set(db, pool);
    return { db, kind: "postgres", close: () => pool.end() };
  }
  pgliteSharesTheProcess();
  const settings = pgliteSettings();
  if (!options.dataDir || options.dataDir === "memory://") return openPglite(new PgliteOnWorker({ ...settings, from: options.from }));
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
    const fresh = await openPglite(new PgliteOnWorker({ ...settings, dataDir: scratch, from: options.from }));
    options.onPhase?.("prepare");
    await options.prepare?.(fresh.db);
    await fresh.close();
    renameSync(scratch, target);
  }
  options.onPhase?.("open");
  return openPglite(new PgliteOnWorker({ ...settings, dataDir: target }));
}

/**
 * The embedded database (its compiled WASM and heap) shares the process, so the V8 heap may grow
 * by half between collections instead of up to four times, which keeps the process under the
 * memory goal (ADR 018): the server, and the monthly statements run on its own (248 against
 * 336 MB). The server calls this before its start-up grows the heap; every other process opening
 * PGlite gets it here. Not on PostgreSQL: there the process is small without it, and the extra
 * collections cost the API p99.
 */
export function pgliteSharesTheProcess() {
  v8.setFlagsFromString("--heap-growing-percent=50");
}

/**
 * The same database and memory on every embedded cluster, old or new:
 * - template1 is where PGlite 0.3 kept our tables (its default database); 0.4 defaults to
 *   "postgres", so without this a data directory from before the upgrade would look empty.
 * - shared_buffers: PGlite's PostgreSQL lives inside this Node process, so its buffer pool is
 *   the server's own memory. initdb writes 128MB into a new cluster's postgresql.conf; at 100,000
 *   offers the pool fills and the process grows by as much. A small pool reads the rest from the OS
 *   page cache and serves as many requests as a large one, and more than the tiny pool PGlite 0.3's
 *   initdb wrote into older clusters (figures: ADR 018).
 * The worker adds these to PGlite's default start parameters and loads the extensions.
 */
const pgliteSettings = (): PgliteWorkerSettings => ({
  database: "template1",
  startParams: ["-c", "shared_buffers=8MB"],
});

async function openPglite(client: PgliteOnWorker): Promise<DatabaseHandle> {
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  await client.waitReady;
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Database;
  return { db, kind: "pglite", close: () => client.close(), dump: (file) => client.dump(file) };
}

type PgliteWorkerSettings = { dataDir?: string; from?: string; database: string; startParams: string[] };
type QueryOptions = { rowMode?: "array" | "object"; parsers?: Record<number, unknown> };
type WorkerError = Record<string, unknown> & { message: string };
type Rows = Record<string | number, unknown>[];
type Reply = { id: number; ok: boolean; result?: unknown; error?: WorkerError; texts?: [number, string | number][] };
type Call = { op: "query" | "begin" | "end" | "ready" | "close" | "dump"; tx?: number } & Record<string, unknown>;

/**
 * PGlite, run on a thread of its own (pglite-worker.mjs), behind the two calls drizzle makes:
 * query and transaction.
 *
 * PGlite's PostgreSQL is WebAssembly on whichever thread runs it, and a statement holds that
 * thread until it ends. On the server's thread it took half of each API request (the WASM
 * itself and PGlite's parsing), and every request that arrived meanwhile waited for it (ADR 005). On its own thread, the
 * statements still run one at a time, in the order they were sent, while HTTP, JSON and gzip
 * go on beside them on the other core.
 *
 * A transaction is a BEGIN on the worker that stays open until this side commits or rolls it
 * back; PGlite's own lock keeps other statements out of it meanwhile, as before.
 */
class PgliteOnWorker {
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #lastId = 0;
  #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #stopped: Error | null = null;

  constructor(settings: PgliteWorkerSettings) {
    this.#worker = new Worker(new URL("./pglite-worker.mjs", import.meta.url), { workerData: settings });
    // Like a socket: it keeps the process alive only while a statement is on its way.
    this.#worker.unref();
    this.#worker.on("message", (reply: Reply) => this.#answer(reply));
    this.#worker.on("error", (error) => this.#stop(error));
    this.#worker.on("exit", (code) => this.#stop(new Error(`La base de datos embebida se detuvo (código ${code}).`)));
    this.waitReady = this.#call({ op: "ready" }).then(() => undefined);
  }

  query(sql: string, params?: unknown[], options?: QueryOptions, tx?: number) {
    // A parser is a function and cannot cross threads: drizzle's only keep some types as written.
    const rawTypes = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return this.#call({ op: "query", sql, params, rowMode: options?.rowMode, rawTypes, tx });
  }

  async transaction<T>(work: (tx: unknown) => Promise<T>): Promise<T> {
    const id = ++this.#lastId;
    await this.#send(id, { op: "begin" });
    let closed = false;
    const tx = {
      query: (sql: string, params?: unknown[], options?: QueryOptions) => this.query(sql, params, options, id),
      get closed() {
        return closed;
      },
    };
    try {
      const result = await work(tx);
      closed = true;
      await this.#call({ op: "end", tx: id, commit: true });
      return result;
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.#call({ op: "end", tx: id, commit: false }).catch(() => undefined);
      }
      throw error;
    }
  }

  async dump(file: string) {
    await this.#call({ op: "dump", file });
  }

  async close() {
    await this.#call({ op: "close" });
    this.#stopped = new Error("La base de datos embebida está cerrada.");
    await this.#worker.terminate();
  }

  #call(message: Call) {
    return this.#send(++this.#lastId, message);
  }

  #send(id: number, message: Call) {
    if (this.#stopped) return Promise.reject(this.#stopped);
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<unknown>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #answer({ id, ok, result, error, texts }: Reply) {
    const waiting = this.#pending.get(id);
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (!waiting) return;
    if (ok) waiting.resolve(texts ? withTexts(result, texts) : result);
    // The caller's stack, with the database's code, constraint and detail (SQLSTATE and all).
    else {
      const { stack: _onTheWorker, ...fields } = error!;
      waiting.reject(Object.assign(new Error(error!.message), fields));
    }
  }

  #stop(error: Error) {
    if (this.#stopped) return;
    this.#stopped = error;
    logger.error({ err: error }, "PGlite detenido.");
    for (const { reject } of this.#pending.values()) reject(error);
    this.#pending.clear();
  }
}

const decoder = new TextDecoder();

/**
 * Puts back the long texts that crossed as bytes (see LONG_TEXT in pglite-worker.mjs), except in
 * columns named for bytes (UTF8_COLUMN), which stay UTF-8.
 */
function withTexts(result: unknown, texts: [number, string | number][]) {
  const { rows } = result as { rows: Rows };
  for (const [row, key] of texts) {
    const bytes = rows[row][key] as Uint8Array;
    rows[row][key] =
      typeof key === "string" && key.endsWith(UTF8_COLUMN)
        ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        : decoder.decode(bytes);
  }
  return result;
}

/**
 * A text column whose name ends in this may come as its UTF-8 bytes (a Buffer) rather than as
 * text: on PGlite when it is long (the worker sends those as bytes), for JSON the API sends on as
 * it is (a listing page's cards). Decoding ~31,000 characters only to encode them again for the
 * response was the main thread's largest cost for a listing after the socket and GC.
 */
export const UTF8_COLUMN = "_utf8";

/** Such a column's value: bytes from PGlite, text from PostgreSQL (whose driver decodes every field). */
export type Utf8Text = string | Buffer;

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
