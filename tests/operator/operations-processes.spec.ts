/**
 * The server's processes as an operator runs them: the documented command hands SIGTERM to the
 * server, a start that cannot work stops before it touches the database, and (on PostgreSQL) web
 * processes leave the mail to the one worker. Browser-free, in the `operator` project.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startTestSmtp } from "#tests/support/smtp";
import { alive, DATABASE_URL, onThisMachine, request, runUntilExit, serverProcesses, sql, withDatabase } from "./operations-helpers";

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

const dirs: string[] = [];
const newDataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "ofertas-ops-processes-"));
  dirs.push(dir);
  return dir;
};
test.afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const start = serverProcesses();
// One embedded database for the tests that need one: the first start builds it, the next reuses it.
const embedded = newDataDir();

test("`npm run serve`, the documented command: SIGTERM to npm reaches the server, and every process exits 0", async () => {
  const server = await start({ DATA_DIR: embedded, DATABASE_URL: "" }, { command: ["npm", "run", "--silent", "serve"] });
  const pids = new Set<number>();
  try {
    await server.waitReady(240_000);
    for (const line of server.lines) if (typeof line.pid === "number") pids.add(line.pid);
    expect(pids.size).toBeGreaterThan(0);
    // A supervisor that signals its child's process alone (runit, supervisord, a container's CMD).
    server.child.kill("SIGTERM");
    expect(await server.exit).toBe(0);
    const until = Date.now() + 15_000;
    while ([...pids].some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect([...pids].filter(alive), "server processes left behind").toEqual([]);
    expect(server.lines.some((l) => l.msg === "Cierre completo.")).toBe(true);
  } finally {
    // Whatever was left behind (the failure this test is about) is stopped by its id.
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  }
});

test("SHUTDOWN_DELAY_MS: after SIGTERM /readyz says 503 while the shop still serves, then it drains and exits 0", async () => {
  const server = await start({ DATA_DIR: embedded, DATABASE_URL: "", SHUTDOWN_DELAY_MS: "3000" });
  await server.waitReady(240_000);
  const here = onThisMachine(server);
  const sigterm = Date.now();
  server.child.kill("SIGTERM");
  await server.waitFor((l) => l.signal === "SIGTERM");
  const ready = await fetch(server.url("/readyz"));
  expect(ready.status).toBe(503);
  expect(await ready.text()).toBe("stopping");
  // The balancer has not noticed yet: what it still sends is answered, on new connections too.
  expect((await request(server, "GET", "/api/v0/public/offers/?page_size=1", undefined, here)).status).toBe(200);
  expect(await server.exit).toBe(0);
  expect(Date.now() - sigterm).toBeGreaterThanOrEqual(3_000);
});

test("a payment provider without its keys: exit 1 with the Spanish line, before the database is created or migrated", async () => {
  const dataDir = newDataDir();
  const run = await runUntilExit({ DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", PAYMENT_PROVIDER: "paypal", PAYPAL_CLIENT_ID: "id" });
  expect(run.code).toBe(1);
  expect(run.output).toContain("PAYMENT_PROVIDER=paypal necesita PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET y PAYPAL_WEBHOOK_ID");
  expect(run.output).not.toMatch(/\n\s+at /);
  expect(existsSync(path.join(dataDir, "pglite"))).toBe(false);
});

test("a payment provider without its keys, WEB_CONCURRENCY=2 on PostgreSQL: the primary exits 1, nothing migrated", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("nokeys", async (url) => {
    const run = await runUntilExit({
      DATA_DIR: newDataDir(),
      DATABASE_URL: url.toString(),
      WEB_CONCURRENCY: "2",
      PORT: "0",
      PAYMENT_PROVIDER: "rapyd",
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain("PAYMENT_PROVIDER=rapyd necesita RAPYD_ACCESS_KEY y RAPYD_SECRET_KEY");
    const [table] = await sql<{ t: string | null }>(url, "SELECT to_regclass('public.schema_migrations')::text AS t");
    expect(table.t).toBeNull();
  });
});

test("2 web processes and 1 worker on PostgreSQL: each mail is sent once, by the worker", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("roles", async (url) => {
    // Each role its own SMTP server: what the web processes would send lands apart.
    const [webMail, workerMail] = await Promise.all([startTestSmtp(), startTestSmtp()]);
    try {
      const shared = { DATABASE_URL: url.toString(), DATA_DIR: newDataDir(), SESSION_SECRET: "roles-secret-0123456789abcdef-0123456789" };
      const worker = await start({ ...shared, PROCESS_ROLE: "worker", SMTP_URL: workerMail.url });
      await worker.waitReady(120_000);
      const webs = [
        await start({ ...shared, PROCESS_ROLE: "web", SMTP_URL: webMail.url }),
        await start({ ...shared, PROCESS_ROLE: "web", SMTP_URL: webMail.url }),
      ];
      await Promise.all(webs.map((web) => web.waitReady(120_000)));
      for (const web of webs) expect(web.lines.some((l) => l.msg === "PROCESS_ROLE=web: ninguna tarea de fondo.")).toBe(true);
      expect(worker.lines.some((l) => String(l.msg).startsWith("PROCESS_ROLE=worker: tareas mail, reservation-sweep, digest"))).toBe(true);

      const emails = ["rol-web1@correo.example", "rol-web2@correo.example"];
      for (const [i, web] of webs.entries()) {
        const sent = await request(web, "POST", "/api/v0/verification/send-code/", { email: emails[i] }, onThisMachine(web));
        expect(sent.status, sent.text).toBe(200);
      }
      for (const email of emails) await workerMail.waitFor(email, { timeoutMs: 30_000 });
      // Every process looks at the outbox every 2 s: a web process that ran the mail job has had time to.
      await new Promise((r) => setTimeout(r, 5_000));
      for (const email of emails) expect(workerMail.messages.filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
      expect(webMail.messages).toHaveLength(0);

      // The worker serves no shop, only its probes (and metrics).
      expect((await request(worker, "GET", "/", undefined, onThisMachine(worker))).status).toBe(404);
      expect((await fetch(worker.url("/readyz"))).status).toBe(200);
    } finally {
      await Promise.all([webMail.close(), workerMail.close()]);
    }
  });
});
