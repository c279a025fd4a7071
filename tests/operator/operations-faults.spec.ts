/**
 * Faults around the server that must never give a 500: a read-only DATA_DIR, a mail outbox that
 * cannot be claimed, a database outage seen from /metrics and from the log. And the labels an
 * operator's dashboards read. Browser-free, in the `operator` project.
 */
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { startFlags } from "../../scripts/start-flags";
import { databaseProxy, DATABASE_URL, onThisMachine, purchase, request, ROOT, serverProcesses, withDatabase } from "./operations-helpers";

test.describe.configure({ mode: "serial" });
test.setTimeout(300_000);

const dirs: string[] = [];
test.afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const start = serverProcesses();

/** chmod on every file and folder under `dir` (what `chmod -R` does). */
function chmodTree(dir: string, mode: (current: number, isDir: boolean) => number) {
  const stat = statSync(dir);
  chmodSync(dir, mode(stat.mode & 0o777, stat.isDirectory()));
  if (stat.isDirectory()) for (const name of readdirSync(dir)) chmodTree(path.join(dir, name), mode);
}

test("a read-only DATA_DIR: 503 with Retry-After, never 500; writes again once it is writable and restarted", async () => {
  // root writes whatever the permissions say: the server runs as an unprivileged user, as in the image.
  const asRoot = process.getuid?.() === 0;
  const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-ops-readonly-"));
  dirs.push(dataDir);
  if (asRoot) chownSync(dataDir, 65534, 65534);
  const command = asRoot ? ["runuser", "-u", "nobody", "--", process.execPath, ...startFlags(ROOT), "build/node/server.js"] : undefined;
  const server = await start({ DATA_DIR: dataDir, DATABASE_URL: "", CATALOGUE_CACHE_SECONDS: "0" }, { command });
  await server.waitReady(240_000);
  const here = onThisMachine(server);
  expect((await request(server, "GET", "/api/v0/public/offers/?page_size=1", undefined, here)).status).toBe(200);

  chmodTree(dataDir, (mode) => mode & ~0o222);
  try {
    const answers = [
      await request(server, "POST", "/api/v0/verification/send-code/", { email: "solo-lectura@correo.example" }, here),
      await request(server, "GET", "/api/v0/public/offers/?page_size=3&search=paella", undefined, here),
      await request(server, "GET", "/ofertas/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/", undefined, here),
      await request(server, "GET", "/api/v0/public/offers/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/", undefined, here),
    ];
    // A 500 names what the server logged for it: its error lines, not only the page it sent.
    const errors = () =>
      server.lines
        .filter((l) => Number(l.level) >= 50 || ["error", "fatal"].includes(String(l.level)) || "err" in l)
        .map((l) => JSON.stringify(l).slice(0, 1500));
    for (const answer of answers) expect([200, 404, 503], [answer.text.slice(0, 300), ...errors()].join("\n")).toContain(answer.status);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer.headers["retry-after"]).toBe("30");
    // A write cannot be made: the login code is not «sent». (/readyz may stay 200: what the
    // process has open it can still read and write; the mail outbox case is checked below.)
    expect(answers[0].status).toBe(503);
  } finally {
    chmodTree(dataDir, (mode, isDir) => mode | 0o200 | (isDir ? 0o100 : 0));
  }
  // Writable again. The embedded database keeps refusing the files it was refused (its file layer
  // remembers the permissions it saw), so the operator restarts it, as docs/monitoring.md says.
  expect(server.lines.some((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 500)).toBe(false);
  await server.stop();
  const again = await start({ DATA_DIR: dataDir, DATABASE_URL: "", CATALOGUE_CACHE_SECONDS: "0" }, { command });
  await again.waitReady(240_000);
  const written = (
    await request(again, "POST", "/api/v0/verification/send-code/", { email: "ya-escribe@correo.example" }, onThisMachine(again))
  ).status;
  expect(written).toBe(200);
  expect(again.lines.some((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 500)).toBe(false);
});

test("a mail outbox that cannot be claimed (PostgreSQL): /readyz 503 «mail outbox unavailable» while reads still answer", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("outbox", async (url) => {
    const server = await start({
      DATABASE_URL: url.toString(),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "ofertas-ops-outbox-")),
      DATABASE_STATEMENT_TIMEOUT: "1000",
    });
    await server.waitReady(120_000);
    // Another session holds the outbox, as a full disk or a stuck migration would: every claim times out.
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE mail_outbox IN ACCESS EXCLUSIVE MODE");
      let answer = "";
      for (const until = Date.now() + 20_000; Date.now() < until && answer !== "mail outbox unavailable";) {
        answer = await (await fetch(server.url("/readyz"))).text();
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(answer).toBe("mail outbox unavailable");
      expect((await request(server, "GET", "/api/v0/public/offers/?page_size=1", undefined, onThisMachine(server))).status).toBe(200);
      await holder.query("ROLLBACK");
      await server.waitReady(20_000);
    } finally {
      await holder.end().catch(() => {});
    }
  });
});

test("a PostgreSQL outage: /metrics still answers without the database figures, and the log holds one record per kind of error", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("scrape", async (url) => {
    // The server reaches PostgreSQL through this proxy, which the test cuts and restores.
    const proxy = await databaseProxy(url);
    try {
      const server = await start({
        DATABASE_URL: proxy.via.toString(),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "ofertas-ops-scrape-")),
        DATABASE_CONNECT_TIMEOUT: "2",
        CATALOGUE_CACHE_SECONDS: "0",
      });
      await server.waitReady(120_000);
      expect(await (await fetch(server.url("/metrics"))).text()).toContain("ofertas_database_up 1");

      proxy.cut();
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++)
        statuses.push((await request(server, "GET", "/api/v0/public/offers/?page_size=1", undefined, onThisMachine(server))).status);
      expect(new Set(statuses)).toEqual(new Set([503]));
      const scrape = await fetch(server.url("/metrics"));
      expect(scrape.status).toBe(200);
      const text = await scrape.text();
      expect(text).toContain("ofertas_database_up 0");
      expect(text).toContain("nodejs_eventloop_lag_seconds");
      expect(text).not.toContain("ofertas_sales{");
      // The failures are labelled by their API route, not by the mount.
      expect(text).toMatch(
        /ofertas_http_request_duration_seconds_count\{method="GET",route="\/api\/v0\/public\/offers\/",status_class="5xx"\} 20/,
      );
      // 20 failed requests, one whole record (with its stack) per kind of error, not one each.
      const records = server.lines.filter((l) => l.level === 50 && (l.err as { stack?: string } | undefined)?.stack);
      expect(records.length).toBeGreaterThan(0);
      expect(records.length, records.map((r) => JSON.stringify(r).slice(0, 600)).join("\n")).toBeLessThanOrEqual(2);

      proxy.restore();
      await server.waitReady(30_000);
      expect(await (await fetch(server.url("/metrics"))).text()).toContain("ofertas_database_up 1");
    } finally {
      proxy.close();
    }
  });
});

test("labels an operator's dashboards read: kept pages by route, queued mail split from scheduled", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-ops-labels-"));
  dirs.push(dataDir);
  const server = await start({ DATA_DIR: dataDir, DATABASE_URL: "", FEEDBACK_DELAY_DAYS: "3" });
  await server.waitReady(240_000);
  await purchase(server, "etiquetas@correo.example");
  // The first render is kept; the next two are answered from the kept page, without Remix.
  for (let i = 0; i < 3; i++) expect((await fetch(server.url("/"))).status).toBe(200);
  const text = await (await fetch(server.url("/metrics"))).text();
  expect(text).toContain('ofertas_http_request_duration_seconds_count{method="GET",route="routes/_index",status_class="2xx"} 3');
  expect(text).not.toContain('route="unmatched"');
  // A purchase queues its feedback request days ahead: scheduled, not a backlog.
  expect(text).toMatch(/ofertas_mail_outbox\{status="scheduled"\} [1-9]/);
  for (const status of ["queued", "retrying", "sending", "sent", "failed", "skipped"])
    expect(text).toContain(`ofertas_mail_outbox{status="${status}"}`);
});
