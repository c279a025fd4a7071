/**
 * npm run staff:create: the first staff account of a shop, by the real command, on the database
 * it is given (DATABASE_URL), through the server that owns an embedded database, or opening the
 * embedded database itself when no server runs. The mailed login code logs in as staff.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { askOwner, claimDataDir, registerControlCommand, type DataDirClaim } from "#api/control";
import { openDatabase, query } from "#api/db/client";
import { users } from "#api/db/schema";
import { issueTokens, verifyAccess } from "#api/auth/tokens";
import { openSessions } from "#api/auth/sessions";
import { staffCommand } from "#api/services/staff-accounts";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { newEmail } from "../api/_helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "ofertas-staff-"));
  dirs.push(dir);
  return dir;
};

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ seed: false });
});
afterAll(async () => {
  await api.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The command as an operator runs it; its exit code and output. */
function staffCreate(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/staff-create.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, SMTP_URL: "", PUBLIC_URL: "", DATABASE_URL: "", SESSION_SECRET: api.config.sessionSecrets[0], ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** The newest login code queued for this address. */
async function queuedCode(email: string): Promise<string> {
  const [row] = await query<{ data: { code: string } | string }>(
    api.db,
    sql`SELECT data FROM mail_outbox WHERE recipient = ${email} AND kind = 'login-code' ORDER BY created_at DESC LIMIT 1`,
  );
  expect(row, `no login code queued for ${email}`).toBeTruthy();
  return (typeof row.data === "string" ? JSON.parse(row.data) : row.data).code;
}

async function logsInAsStaff(email: string, code: string) {
  const login = await call(api, "/verification/otp-login/", { body: { email, code } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  const claims = await verifyAccess(api.config, login.body.access);
  expect(claims).toMatchObject({ email, role: "staff" });
}

describe("through the server that owns the embedded database (control socket)", () => {
  let dataDir: string;
  let claim: DataDirClaim;
  beforeAll(async () => {
    dataDir = tempDir();
    claim = await claimDataDir(dataDir);
    registerControlCommand(
      "staff-create",
      staffCommand(api.db, api.config, () => {}),
    );
  });
  afterAll(() => claim.release());

  it("creates the account, queues a login code, and the code logs in as staff", async () => {
    const email = newEmail("equipo");
    const run = await staffCreate(["--email", email.toUpperCase()], { DATA_DIR: dataDir });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Cuenta de equipo creada/);
    await logsInAsStaff(email, await queuedCode(email));
  });

  it("promotes an existing customer, ending every session it had (their tokens carried the old role), and says so", async () => {
    const email = newEmail("cliente");
    const [user] = await api.db.insert(users).values({ email }).returning();
    const customer = await issueTokens(api.db, api.config, { ...user, role: "customer" }, "móvil");
    await issueTokens(api.db, api.config, { ...user, role: "customer" }, "portátil");
    const run = await staffCreate(["--email", email], { DATA_DIR: dataDir });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/La cuenta ya existía \(cliente\); ahora es de equipo\. Se han cerrado sus 2 sesión\(es\) abiertas/);
    expect(run.output).not.toContain(email);
    expect(await openSessions(api.db, user.id)).toEqual([]);
    const refresh = await call(api, "/auth/jwt/refresh/", { body: { refresh: customer.refresh } });
    expect(refresh.status).toBe(401);
    await logsInAsStaff(email, await queuedCode(email));
  });

  it("a deactivated account is refused, unchanged, unless --reactivate, which says it switched it back on", async () => {
    const email = newEmail("baja");
    const [user] = await api.db.insert(users).values({ email, isActive: false }).returning();
    const refused = await staffCreate(["--email", email], { DATA_DIR: dataDir });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/está desactivada: staff:create no la vuelve a activar.*--reactivate/);
    const [unchanged] = await api.db.select().from(users).where(eq(users.id, user.id));
    expect(unchanged).toMatchObject({ role: "customer", isActive: false });

    const run = await staffCreate(["--email", email, "--reactivate"], { DATA_DIR: dataDir });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/estaba desactivada: se ha vuelto a activar; ahora es de equipo/);
    await logsInAsStaff(email, await queuedCode(email));
  });

  it("refuses a caller without the shop's secret", async () => {
    const email = newEmail("intruso");
    await expect(askOwner(dataDir, "staff-create", { email, proof: "00".repeat(32) })).rejects.toThrow(/no autorizada/);
    await expect(askOwner(dataDir, "staff-create", { email })).rejects.toThrow(/no autorizada/);
    const [row] = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM users WHERE email = ${email}`);
    expect(Number(row.n)).toBe(0);
  });

  it("refuses a missing or malformed address, in Spanish, with the usage", async () => {
    for (const args of [[], ["--email", "no-es-un-correo"]]) {
      const run = await staffCreate(args, { DATA_DIR: dataDir });
      expect(run.code).not.toBe(0);
      expect(run.output).toMatch(/Uso: npm run staff:create -- --email/);
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("against DATABASE_URL (PostgreSQL)", () => {
  it("creates the account and sends the code itself (.eml without SMTP_URL)", async () => {
    const dataDir = tempDir();
    const email = newEmail("equipo-pg");
    const run = await staffCreate(["--email", email], { DATA_DIR: dataDir, DATABASE_URL: api.databaseUrl! });
    expect(run.code, run.output).toBe(0);
    // It sends whatever the outbox holds, this file's earlier codes too.
    const mails = readdirSync(path.join(dataDir, "mail")).map((f) => readFileSync(path.join(dataDir, "mail", f), "utf8"));
    expect(mails.filter((m) => m.includes(email))).toHaveLength(1);
    await logsInAsStaff(email, await queuedCode(email));
  });
});

describe("no server on the embedded database", () => {
  it("takes the DATA_DIR itself, creates the account and writes the mail", async () => {
    const dataDir = tempDir();
    const email = newEmail("equipo-solo");
    const run = await staffCreate(["--email", email], { DATA_DIR: dataDir });
    expect(run.code, run.output).toBe(0);
    const mails = readdirSync(path.join(dataDir, "mail"));
    expect(mails).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, "mail", mails[0]), "utf8")).toMatch(/\d{6}/);
    const own = await openDatabase({ dataDir });
    try {
      const [row] = await query<{ role: string }>(own.db, sql`SELECT role FROM users WHERE email = ${email}`);
      expect(row.role).toBe("staff");
    } finally {
      await own.close();
    }
  }, 120_000);
});
