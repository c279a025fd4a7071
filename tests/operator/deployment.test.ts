/**
 * A deployment (PUBLIC_URL https://…) started as an operator starts it, the compiled server on
 * Node: refused without its secret, refused without a chosen payment provider, and with both an
 * empty shop: no demo catalogue, sales or accounts, and no demo staff login. On PGlite, and on
 * PostgreSQL when TEST_DATABASE_URL is set.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, query } from "#api/db/client";
import { DEMO_CUSTOMER, DEMO_PARTNER, DEMO_STAFF } from "#api/db/demo-accounts";
import { SANDBOX_SUBJECT_PREFIX } from "#api/mail/worker";
import { newTestDatabase } from "#tests/support/api-server";
import { startEnv, startFlags } from "../../scripts/start-flags";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SECRET = "a-deployment-secret-for-the-test-0123456789";
const children = new Set<ChildProcess>();
const dirs: string[] = [];
let databaseUrl: string | undefined;
let dropDatabase = async () => {};

beforeAll(async () => {
  // The compiled server a deployment runs (npm run build); built here when missing or stale.
  // Without vitest's variables: vite.config.ts leaves the Remix plugin out under VITEST.
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production" };
  for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
  const build = spawnSync(process.execPath, ["scripts/build-if-needed.mjs"], { cwd: ROOT, stdio: "inherit", env });
  expect(build.status).toBe(0);
  ({ url: databaseUrl, drop: dropDatabase } = await newTestDatabase("ofertas_deploy"));
}, 600_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await dropDatabase();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

type Run = { child: ChildProcess; dataDir: string; output: () => string; exit: Promise<number | null> };

/** The server as `npm run serve` starts it, with only the given settings (and no inherited ones). */
function serve(env: Record<string, string>): Run {
  const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-deploy-"));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [...startFlags(ROOT), "build/node/server.js"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: "production", ...startEnv(ROOT), DATA_DIR: dataDir, HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => (children.delete(child), resolve(code))));
  return { child, dataDir, output: () => output, exit };
}

const deployment = () => ({
  PUBLIC_URL: "https://tienda.example",
  SESSION_SECRET: SECRET,
  PAYMENT_PROVIDER: "sandbox",
  // No mail server here: the messages are read from DATA_DIR/mail/.
  MAIL_TO_FILES: "1",
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
});

describe(`a deployment on ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  it("without SESSION_SECRET: refuses to start, naming it", async () => {
    const { SESSION_SECRET: _, ...settings } = deployment();
    const run = serve({ ...settings, PORT: String(await freePort()) });
    expect(await run.exit).not.toBe(0);
    expect(run.output()).toMatch(/SESSION_SECRET: obligatorio en un despliegue/);
  }, 60_000);

  it("without PAYMENT_PROVIDER: refuses to start, naming it", async () => {
    const { PAYMENT_PROVIDER: _, ...settings } = deployment();
    const run = serve({ ...settings, PORT: String(await freePort()) });
    expect(await run.exit).not.toBe(0);
    expect(run.output()).toMatch(/PAYMENT_PROVIDER: obligatorio en un despliegue/);
  }, 60_000);

  it("with both and no DEMO_DATA: starts with no demo data and no demo staff; the sandbox says so on pages and mail", async () => {
    const port = await freePort();
    const settings = { ...deployment(), PORT: String(port) };
    const run = serve(settings);
    const origin = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      const up = await fetch(`${origin}/api/v0/public/offers/`).catch(() => null);
      if (up?.ok) break;
      if (Date.now() > deadline || run.child.exitCode !== null) throw new Error(`the server did not start:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const offers = (await (await fetch(`${origin}/api/v0/public/offers/`)).json()) as { count?: number; results?: unknown[] };
    expect(offers.results ?? []).toEqual([]);
    for (const account of [DEMO_STAFF, DEMO_CUSTOMER, DEMO_PARTNER]) {
      const login = await fetch(`${origin}/api/v0/auth/jwt/create/`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: account.email, password: account.password }),
      });
      expect(login.status, account.email).not.toBe(200);
    }
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("Modo de pruebas: no se cobra nada");

    // The first staff account, through the running server (or DATABASE_URL); its mail says it is a test.
    const { dataDir } = run;
    const staff = spawnSync(process.execPath, ["scripts/command.mjs", "staff-create", "--email", "jefa@tienda.example"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: dataDir, ...settings },
      encoding: "utf8",
    });
    expect(staff.status, staff.stdout + staff.stderr).toBe(0);
    const mailDir = path.join(dataDir, "mail");
    const waitUntil = Date.now() + 30_000;
    while (!readdirSync(dataDir).includes("mail") || readdirSync(mailDir).length === 0) {
      if (Date.now() > waitUntil) throw new Error(`no mail written:\n${run.output()}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const mail = await simpleParser(readFileSync(path.join(mailDir, readdirSync(mailDir)[0])));
    expect(mail.subject?.startsWith(SANDBOX_SUBJECT_PREFIX), mail.subject).toBe(true);

    run.child.kill("SIGTERM");
    expect(await run.exit).toBe(0);
    const database = await openDatabase({ databaseUrl, dataDir });
    try {
      const count = async (table: string) =>
        Number((await query<{ n: number }>(database.db, sql.raw(`SELECT count(*)::int AS n FROM ${table}`)))[0].n);
      expect(await count("offers")).toBe(0);
      expect(await count("sales")).toBe(0);
      const people = await query<{ email: string; role: string }>(database.db, sql`SELECT email, role FROM users`);
      expect(people).toEqual([{ email: "jefa@tienda.example", role: "staff" }]);
    } finally {
      await database.close();
    }
  }, 240_000);
});
