/**
 * How a command-line script (migrate, seed:large, digest, backup, restore, staff:create) reaches
 * the database. PostgreSQL has many clients; the embedded database has one owner per DATA_DIR
 * (api/control.ts), and a second process opening its files corrupts them. So a script either
 * asks the running server to do the work through the control socket (askServer), or owns the
 * directory itself for as long as it runs (openDatabaseForCommand), and is refused, naming the
 * server, when a server owns it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Config } from "#platform/config.server";
import { askOwner, claimDataDir, DataDirInUseError, NoOwnerError, registerControlCommand, type OwnerInfo } from "#api/control";
import { openDatabase, type Database, type DatabaseHandle } from "./client";
import { migrate } from "./migrate";

type CommandConfig = Pick<Config, "DATABASE_URL" | "dataDir"> & Partial<Pick<Config, "DATABASE_POOL_SIZE" | "DATABASE_STATEMENT_TIMEOUT">>;

/** The embedded database of DATA_DIR is in use by a server: the command does not touch it. */
export class DataDirBusyError extends Error {
  constructor(
    readonly command: string,
    readonly dataDir: string,
    readonly owner: OwnerInfo | null,
  ) {
    super(
      `npm run ${command}: no se abre la base de datos de ${dataDir} porque la usa ` +
        (owner
          ? `el servidor de ofertas con pid ${owner.pid}${owner.port ? ` (http://localhost:${owner.port})` : ""}, en marcha desde ${owner.startedAt}`
          : `otro proceso de ofertas que no responde`) +
        `. Detén el servidor y vuelve a ejecutarlo, o usa DATABASE_URL (PostgreSQL).`,
    );
  }
}

export type CommandDatabase = DatabaseHandle & { kind: DatabaseHandle["kind"] };

/**
 * Opens the database for a command: DATABASE_URL as any client would, or the embedded one with
 * the DATA_DIR lock held until close(). Throws DataDirBusyError when a server owns DATA_DIR.
 */
export async function openDatabaseForCommand(
  config: CommandConfig,
  command: string,
  { prepare, from }: { prepare?: (db: Database) => Promise<void>; from?: string } = {},
): Promise<CommandDatabase> {
  // DATABASE_STATEMENT_TIMEOUT as set: a seed's or a restore's statements may run longer than a request's.
  if (config.DATABASE_URL) {
    const timeouts = config.DATABASE_STATEMENT_TIMEOUT === undefined ? {} : { statementMs: config.DATABASE_STATEMENT_TIMEOUT };
    return openDatabase({ databaseUrl: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, timeouts });
  }
  let claim;
  try {
    claim = await claimDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw new DataDirBusyError(command, error.dataDir, error.owner);
    throw error;
  }
  try {
    const database = await openDatabase({ dataDir: config.dataDir, prepare, from });
    return {
      ...database,
      close: async () => {
        await database.close();
        await claim.release();
      },
    };
  } catch (error) {
    await claim.release();
    throw error;
  }
}

/**
 * Asks the server that owns the embedded DATA_DIR to run a command (see registerDatabaseCommands).
 * Undefined when there is no such server (or on PostgreSQL), so the script does the work itself.
 */
export async function askServer(config: CommandConfig, command: string, args: Record<string, unknown> = {}): Promise<unknown> {
  if (config.DATABASE_URL) return undefined;
  try {
    return await askOwner(config.dataDir, command, args, { timeoutMs: 10 * 60_000 });
  } catch (error) {
    if (error instanceof NoOwnerError) return undefined;
    throw error;
  }
}

/** True when DATA_DIR holds an embedded database (or a half-made one). */
export function hasEmbeddedDatabase(dataDir: string): boolean {
  return existsSync(path.join(dataDir, "pglite")) || existsSync(path.join(dataDir, "pglite.init"));
}

/**
 * What a server that owns the embedded database does for the scripts, through the control socket.
 * Anyone on the machine can reach the socket, so a backup is only ever written to a new file
 * (never over one), readable by the server's user alone.
 */
export function registerDatabaseCommands(database: DatabaseHandle): void {
  registerControlCommand("migrate", async () => ({ applied: await migrate(database.db) }));
  registerControlCommand("backup", async (args) => {
    const file = typeof args.file === "string" ? args.file : "";
    if (!path.isAbsolute(file)) throw new Error("La copia necesita una ruta absoluta.");
    if (existsSync(file)) throw new Error(`${file} ya existe: la copia se escribe en un archivo nuevo.`);
    if (!database.dump) throw new Error("Esta base de datos no es la embebida: usa pg_dump (docs/deploy.md).");
    await database.dump(file);
    return { file };
  });
}

/** A script's end on a refusal: the message alone (no stack), exit code 1. */
export function exitWithMessage(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
