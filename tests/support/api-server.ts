import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import pg from "pg";
import { inject } from "vitest";
import { loadConfig, type Config } from "#platform/config.server";
import { createApi } from "#api/index";
import { openDatabase, type Database, type DatabaseHandle } from "#api/db/client";
import { migrate } from "#api/db/migrate";
import { claimDataDir, type DataDirClaim } from "#api/control";
import { registerDatabaseCommands } from "#api/db/command";
import { seedDemoData } from "./demo-data";

export type TestApi = {
  /** Base URL of /api/v0, e.g. http://127.0.0.1:54321/api/v0 */
  url: string;
  origin: string;
  db: Database;
  config: Config;
  kind: "pglite" | "postgres";
  /** The PostgreSQL database of this API (undefined on PGlite). */
  databaseUrl?: string;
  close: () => Promise<void>;
};

/**
 * A real /api/v0 on a fresh database for one test file: in-memory PGlite by default, or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL (CI runs the suite both ways).
 */
export async function startTestApi(
  options: {
    seed?: boolean;
    env?: Record<string, string>;
    /** PGlite only: an embedded database in this folder, owned (and its commands answered) as a server does. */
    dataDir?: string;
  } = {},
): Promise<TestApi> {
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const name = `ofertas_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const config = loadConfig({
    NODE_ENV: "test",
    SESSION_SECRET: "test-secret-for-the-api-suite-0123456789",
    DATA_DIR: "/tmp/ofertas-test-unused",
    ...options.env,
  });
  const seed = options.seed !== false;
  let handle: DatabaseHandle;
  // On PGlite, a copy of a cluster the run's global setup already migrated and seeded (tests/api/global-setup.ts).
  const snapshots = databaseUrl ? undefined : inject("pgliteSnapshots");
  let claim: DataDirClaim | null = null;
  if (options.dataDir) {
    claim = await claimDataDir(options.dataDir);
    handle = await openDatabase({
      dataDir: options.dataDir,
      prepare: async (db) => {
        await migrate(db);
        if (seed) await seedDemoData(db);
      },
    });
    registerDatabaseCommands(handle);
  } else if (snapshots) {
    handle = await openDatabase({ dataDir: "memory://", from: seed ? snapshots.seeded : snapshots.migrated });
  } else {
    handle = await openDatabase({ databaseUrl, dataDir: "memory://" });
    await migrate(handle.db);
    if (seed) await seedDemoData(handle.db);
  }
  const app = express();
  app.set("trust proxy", config.trustProxy);
  // Both readings of the base path, as server.ts mounts them.
  app.use(["/api/v0", "/v0"], createApi({ db: handle.db, config, log: () => {} }));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/api/v0`,
    origin,
    db: handle.db,
    config,
    kind: handle.kind,
    databaseUrl,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await handle.close();
      await claim?.release();
      await dropDatabase();
    },
  };
}

/** JSON call helper: returns status and parsed body. */
export async function call<T = any>(
  api: TestApi,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${api.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
    redirect: "manual",
  });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (HTML of the sandbox page, for instance)
  }
  return { status: response.status, body: body as T, headers: response.headers };
}
