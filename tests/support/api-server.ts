import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import pg from "pg";
import { inject } from "vitest";
import { loadConfig, type Config } from "#platform/config.server";
import { createApi } from "#api/index";
import { openDatabase, type Database, type DatabaseHandle } from "#api/db/client";
import { migrate } from "#api/db/migrate";
import { routeOf } from "#contract/routes";
import { isNotJson, NoContent, routeName } from "#contract/define-route";
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
  const { url: databaseUrl, drop: dropDatabase } = await newTestDatabase();
  const config = loadConfig({
    NODE_ENV: "test",
    SESSION_SECRET: "test-secret-for-the-api-suite-0123456789",
    DATA_DIR: "/tmp/ofertas-test-unused",
    // The suite calls from this machine, many times a minute: exempt from the per-address limits
    // (tests that check them send X-Forwarded-For, or start a server without this). A deployment
    // (PUBLIC_URL) refuses the setting.
    ...(options.env?.PUBLIC_URL ? {} : { RATE_LIMIT_EXEMPT: "loopback" }),
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

/**
 * A successful answer must fit its route's schema in the contract (contract/routes.ts): every
 * test that calls the API through `call` checks the shapes it receives.
 */
export function checkContract(method: string, path: string, status: number, text: string, body: unknown) {
  if (status < 200 || status > 299) return;
  const route = routeOf(method, path);
  if (!route) throw new Error(`${method} ${path} answered ${status} but is declared in no contract file`);
  if (isNotJson(route.answer)) return;
  if (route.answer === NoContent) {
    if (text !== "") throw new Error(`${routeName(route)} should answer no content, answered: ${text.slice(0, 200)}`);
    return;
  }
  const result = route.answer.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(answer)"}: ${i.message}`).join("; ");
    throw new Error(`${routeName(route)} answered outside the contract: ${issues}`);
  }
}

/**
 * A new database on the PostgreSQL server named by TEST_DATABASE_URL, and how to drop it; no URL
 * (PGlite) when the variable is unset.
 */
export async function newTestDatabase(prefix = "ofertas_test"): Promise<{ url?: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) return { drop: async () => {} };
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** JSON call helper: returns status and parsed body, after checking a successful body against the contract. */
export async function call<T = any>(
  api: TestApi,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const method = init.method ?? (init.body === undefined ? "GET" : "POST");
  const response = await fetch(`${api.url}${path}`, {
    method,
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
  checkContract(method, path, response.status, text, body);
  return { status: response.status, body: body as T, headers: response.headers };
}
