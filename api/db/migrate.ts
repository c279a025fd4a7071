import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { poolOf, query, type Database } from "./client";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any constant works; it only has to be the same for every process of this app.
const MIGRATION_LOCK_KEY = 7_262_001;
/** A file whose first line is this runs statement by statement, outside a transaction. */
export const NO_TRANSACTION_MARKER = "-- migrate: no-transaction";

/**
 * A migration's statements: each ends with a `;` at the end of a line, except inside a
 * dollar-quoted body ($name$ … $name$), where a function's own statements end lines too.
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = [];
  let lines: string[] = [];
  let body: string | null = null;
  for (const line of text.split("\n")) {
    lines.push(line);
    for (const [tag] of line.matchAll(/\$[A-Za-z_]*\$/g)) body = body === null ? tag : body === tag ? null : body;
    if (body === null && /;\s*$/.test(line)) {
      statements.push(lines.join("\n").replace(/;\s*$/, "").trim());
      lines = [];
    }
  }
  statements.push(lines.join("\n").trim());
  return statements.filter(Boolean);
}

export type MigrationFile = { version: string; text: string; checksum: string; transactional: boolean };

/** The SQL files of a migrations folder, in the order they apply. */
export async function migrationFiles(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (version) => {
      const text = await readFile(dir + version, "utf8");
      return {
        version,
        text,
        checksum: createHash("sha256").update(text).digest("hex"),
        transactional: text.split("\n", 1)[0].trim() !== NO_TRANSACTION_MARKER,
      };
    }),
  );
}

/** An applied migration whose file no longer matches what was applied. */
export class MigrationChangedError extends Error {
  constructor(readonly version: string) {
    super(
      `La migración ${version} ya está aplicada y su archivo ha cambiado desde entonces (api/db/migrations/${version}). ` +
        `Una migración aplicada no se edita: deja el archivo como estaba y escribe el cambio en una migración nueva.`,
    );
  }
}

export class PendingMigrationsError extends Error {
  constructor(readonly versions: string[]) {
    super(
      `Hay ${versions.length} migración(es) sin aplicar (${versions.join(", ")}) y MIGRATE_ON_START=0: ` +
        `ejecuta «npm run migrate» y arranca de nuevo.`,
    );
  }
}

type Applied = Map<string, string | null>;

async function appliedMigrations(db: Database): Promise<Applied> {
  const exists = await query<{ t: string | null }>(db, sql`SELECT to_regclass('schema_migrations')::text AS t`);
  if (!exists[0]?.t) return new Map();
  // to_jsonb reads the checksum whether or not the column exists yet (before 0031).
  const rows = await query<{ version: string; checksum: string | null }>(
    db,
    sql`SELECT version, to_jsonb(m) ->> 'checksum' AS checksum FROM schema_migrations m`,
  );
  return new Map(rows.map((r) => [r.version, r.checksum]));
}

/** Refuses an applied file that changed; returns the files not applied yet. */
function pendingOf(files: MigrationFile[], applied: Applied): MigrationFile[] {
  for (const file of files) {
    const recorded = applied.get(file.version);
    if (recorded && recorded !== file.checksum) throw new MigrationChangedError(file.version);
  }
  return files.filter((f) => !applied.has(f.version));
}

/** The migrations not applied yet (and MigrationChangedError for an applied file that changed). */
export async function pendingMigrations(db: Database, dir?: string): Promise<string[]> {
  return pendingOf(await migrationFiles(dir), await appliedMigrations(db)).map((f) => f.version);
}

/**
 * What /readyz asks the database on every probe: every migration this build knows is recorded.
 * A database restored from an older backup, or migrated by an older build, is not ready for it.
 */
export async function migrationsCheck(db: Database, dir?: string): Promise<() => Promise<void>> {
  const versions = (await migrationFiles(dir)).map((f) => f.version);
  const list = sql.join(
    versions.map((v) => sql`${v}`),
    sql`, `,
  );
  return async () => {
    const rows = await query<{ version: string }>(db, sql`SELECT version FROM schema_migrations WHERE version IN (${list})`);
    if (rows.length < versions.length) {
      const applied = new Set(rows.map((r) => r.version));
      throw new PendingMigrationsError(versions.filter((v) => !applied.has(v)));
    }
  };
}

/**
 * Applies the SQL files in order, each once and each in its own transaction (or none, for a file
 * marked NO_TRANSACTION_MARKER), recording its checksum. A session advisory lock makes processes
 * that start at the same moment against one PostgreSQL take turns: the second finds the work done.
 */
export async function migrate(db: Database, { dir }: { dir?: string } = {}): Promise<string[]> {
  const files = await migrationFiles(dir);
  // The lock belongs to a connection, so on PostgreSQL every statement goes through one client.
  const pool = poolOf(db);
  const client = pool ? await pool.connect() : null;
  const session = client ? await sessionOn(client) : db;
  const applied: string[] = [];
  try {
    await takeLock(session);
    try {
      await session.execute(
        sql`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const file of pendingOf(files, await appliedMigrations(session))) {
        if (file.transactional) {
          await session.transaction(async (tx) => {
            // One statement per call: PGlite's extended protocol refuses several in one query.
            for (const statement of sqlStatements(file.text)) await tx.execute(sql.raw(statement));
            await tx.execute(sql`INSERT INTO schema_migrations (version) VALUES (${file.version})`);
          });
        } else {
          // A statement that failed half-way here is left for the next run: such files are
          // written to be run again (IF NOT EXISTS), as PostgreSQL's CONCURRENTLY needs anyway.
          for (const statement of sqlStatements(file.text)) await session.execute(sql.raw(statement));
          await session.execute(sql`INSERT INTO schema_migrations (version) VALUES (${file.version})`);
        }
        applied.push(file.version);
      }
      await recordChecksums(session, files);
    } finally {
      await session.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
    }
  } finally {
    client?.release();
  }
  return applied;
}

/**
 * Waits for the migration lock by asking again rather than blocking in pg_advisory_lock: a
 * blocked call is an open transaction, and CREATE INDEX CONCURRENTLY in the process holding the
 * lock waits for every open transaction to end, so the two would wait for each other.
 */
async function takeLock(session: Database) {
  for (;;) {
    const [row] = await query<{ ok: boolean }>(session, sql`SELECT pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) AS ok`);
    if (row?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
  }
}

/** Fills the checksums missing (rows from before the column, or from an older server). */
async function recordChecksums(db: Database, files: MigrationFile[]) {
  const applied = await appliedMigrations(db);
  const column = await query<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'schema_migrations' AND column_name = 'checksum'`,
  );
  if (!Number(column[0]?.n)) return;
  for (const file of files) {
    if (applied.has(file.version) && applied.get(file.version) === null) {
      await db.execute(sql`UPDATE schema_migrations SET checksum = ${file.checksum} WHERE version = ${file.version} AND checksum IS NULL`);
    }
  }
}

async function sessionOn(client: import("pg").PoolClient): Promise<Database> {
  const { drizzle } = await import("drizzle-orm/node-postgres");
  return drizzle(client) as unknown as Database;
}
