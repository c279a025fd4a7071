/**
 * `npm run backup` and `npm run restore` on the embedded database, as an operator runs them: the
 * scripts as child processes, against a DATA_DIR that a live API owns and sells from meanwhile.
 * PGlite only: PostgreSQL is copied with pg_dump (docs/deploy.md).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, query } from "#api/db/client";
import { startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, makeOption, newEmail, type Option } from "../api/_helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const work = mkdtempSync(path.join(tmpdir(), "ofertas-backup-"));

function run(script: "backup" | "restore" | "seed-large", args: string[], dataDir: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", TEST_DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

const paidSales = async (db: TestApi["db"]) =>
  (await query<{ id: string }>(db, sql`SELECT id FROM sales WHERE status = 'paid' ORDER BY id`)).map((r) => r.id);

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))("backup and restore of the embedded database", () => {
  let api: TestApi;
  let option: Option;
  const dataDir = path.join(work, "live");
  beforeAll(async () => {
    api = await startTestApi({ dataDir });
    option = await makeOption(api, { available: 10_000 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("a backup taken while buyers pay restores with every sale paid before it began", async () => {
    let backupDone = false;
    let paidAfterBackup = 0;
    const buyer = async () => {
      while (!backupDone || paidAfterBackup < 2) {
        await buy(api, [{ option }], newEmail("copia"));
        if (backupDone) paidAfterBackup++;
      }
    };
    const buyers = [buyer(), buyer(), buyer()];
    while ((await paidSales(api.db)).length < 3) await new Promise((r) => setTimeout(r, 50));

    const paidBefore = await paidSales(api.db);
    const file = path.join(work, "copia.tar");
    const backup = await run("backup", [file], dataDir);
    backupDone = true;
    expect(backup.output).toMatch(/servidor en marcha/);
    expect(backup.code, backup.output).toBe(0);
    await Promise.all(buyers);
    const paidAtEnd = await paidSales(api.db);
    expect(paidAtEnd.length).toBeGreaterThan(paidBefore.length);

    const restoredDir = path.join(work, "restored");
    const restore = await run("restore", [file], restoredDir);
    expect(restore.code, restore.output).toBe(0);
    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      const paidRestored = await paidSales(restored.db);
      expect(paidRestored).toEqual(expect.arrayContaining(paidBefore));
      // Whole sales: each paid one restored has its coupons.
      const [orphans] = await query<{ n: number }>(
        restored.db,
        sql`SELECT count(*)::int AS n FROM sales s WHERE s.status = 'paid' AND NOT EXISTS (SELECT 1 FROM sale_items i JOIN coupons c ON c.sale_item_id = i.id WHERE i.sale_id = s.id)`,
      );
      expect(Number(orphans.n)).toBe(0);
    } finally {
      await restored.close();
    }

    // Never over a database, never over a file.
    const again = await run("restore", [file], restoredDir);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/ya tiene una base de datos/);
    const over = await run("backup", [file], dataDir);
    expect(over.code).toBe(1);
    expect(over.output).toMatch(/ya existe/);
  }, 300_000);

  it("a file that is not a backup: a Spanish line naming it, and the DATA_DIR left as empty as it was", async () => {
    const text = path.join(work, "notas.txt");
    writeFileSync(text, "no soy una copia\n");
    const tar = path.join(work, "otra-cosa.tar");
    execFileSync("tar", ["cf", tar, "-C", work, "notas.txt"]);
    for (const file of [text, tar]) {
      const target = path.join(work, `vacio-${path.basename(file)}`);
      const restore = await run("restore", [file], target);
      expect(restore.code).toBe(1);
      expect(restore.output).toContain(`${file} no es una copia de «npm run backup»`);
      expect(restore.output).not.toContain("[object Object]");
      expect(restore.output).not.toMatch(/\n\s+at /);
      expect(existsSync(path.join(target, "pglite")) || existsSync(path.join(target, "pglite.init"))).toBe(false);
    }
  }, 120_000);

  it("seed:large on the DATA_DIR of a running server is refused, naming the server, and touches nothing", async () => {
    const before = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM offers`);
    const seeded = await run("seed-large", ["--offers", "50"], dataDir);
    expect(seeded.code).toBe(1);
    expect(seeded.output).toContain("npm run seed:large");
    expect(seeded.output).toContain(`pid ${process.pid}`);
    const after = await query<{ n: number }>(api.db, sql`SELECT count(*)::int AS n FROM offers`);
    expect(after[0].n).toBe(before[0].n);
    expect(existsSync(path.join(dataDir, "pglite.init"))).toBe(false);
  }, 120_000);
});
