/**
 * What an operator relies on, against the compiled server in its own process: readiness while it
 * starts and while it stops, one JSON log line per request with an id shared by the page and its
 * API calls, /metrics, a SIGTERM under keep-alive load that cuts nothing, an API that hangs, and
 * (with TEST_DATABASE_URL) a PostgreSQL outage. Browser-free, in the `operator` project (`npm run test:operator`).
 */
import http from "node:http";
import net from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { expect, test } from "@playwright/test";
import { startServerProcess, type ServerProcess } from "#tests/support/server-process";
import { databaseProxy, DATABASE_URL, withDatabase } from "./operations-helpers";

test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

// One embedded database for the file: the first start builds it, the later ones reuse it.
const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-ops-"));
const running = new Set<ServerProcess>();
async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: "", ...env });
  running.add(server);
  void server.exit.then(() => running.delete(server));
  return server;
}
test.afterEach(async () => {
  await Promise.all([...running].map((s) => s.stop()));
});
test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("while the database starts, /healthz is 200, /readyz and pages 503; then /readyz is 200", async () => {
  const server = await start();
  const ready = await fetch(server.url("/readyz"));
  const health = await fetch(server.url("/healthz"));
  const page = await fetch(server.url("/"));
  // A brand-new embedded database takes seconds to build: the probes answer during that time.
  expect(ready.status).toBe(503);
  expect(ready.headers.get("cache-control")).toBe("no-store");
  expect(health.status).toBe(200);
  expect(page.status).toBe(503);
  expect(page.headers.get("retry-after")).toBe("30");
  expect(await page.text()).toContain("Estamos teniendo problemas técnicos…");
  await server.waitReady();
  expect((await fetch(server.url("/healthz"))).status).toBe(200);
  expect((await fetch(server.url("/"))).status).toBe(200);
  // Probes are not logged one by one.
  expect(server.lines.some((l) => String((l.req as { path?: string } | undefined)?.path ?? "").includes("readyz"))).toBe(false);
});

test("one JSON line per request, its id returned and carried by the page's API calls; secrets redacted", async () => {
  const server = await start();
  await server.waitReady();
  const id = "proxy-req-0123456789";
  const response = await fetch(server.url("/buscar?q=yoga&email=ana%40correo.es&t=tok3n"), {
    headers: { "X-Request-Id": id, Cookie: "__session=galleta-secreta; ofertas_consent=1" },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("x-request-id")).toBe(id);
  const page = await server.waitFor((l) => l.reqId === id && String((l.req as { path: string })?.path).startsWith("/buscar"));
  expect(page).toMatchObject({ level: 30, req: { method: "GET", ip: "127.0.0.1" }, res: { statusCode: 200 } });
  expect(typeof page.time).toBe("string");
  expect(typeof page.responseTime).toBe("number");
  expect((page.req as { path: string }).path).toBe("/buscar?q=yoga&email=[redacted]&t=[redacted]");
  const apiLine = await server.waitFor((l) => l.reqId === id && String((l.req as { path: string })?.path).startsWith("/api/v0/"));
  expect(apiLine.res).toMatchObject({ statusCode: 200 });
  const log = server.lines.map((l) => JSON.stringify(l)).join("\n");
  expect(log).not.toContain("galleta-secreta");
  expect(log).not.toContain("ana@correo.es");
  expect(log).not.toContain("tok3n");

  // An id that is not short and plain is replaced by one of ours.
  const forged = await fetch(server.url("/api/v0/public/offers/?page_size=1"), { headers: { "X-Request-Id": "a b\u00e9<script>" } });
  expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
});

test("/metrics: Prometheus text with the request, event-loop and business series; others need METRICS_TOKEN", async () => {
  const token = "metrics-token-0123456789";
  const server = await start({ METRICS_TOKEN: token });
  await server.waitReady();
  await fetch(server.url("/api/v0/public/offers/?page_size=1"));
  await fetch(server.url("/buscar?q=yoga"));
  // A client navigation's data request counts under the route it loads.
  await (await fetch(server.url("/buscar.data?q=yoga"))).text();
  const response = await fetch(server.url("/metrics"));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  const text = await response.text();
  for (const series of [
    'ofertas_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/v0/public/offers/",status_class="2xx"}',
    'route="routes/buscar",status_class="2xx"',
    'route="routes/buscar.data",status_class="2xx"',
    "nodejs_eventloop_lag_seconds",
    'ofertas_sales{status="paid"}',
    'ofertas_sales{status="declined"}',
    'ofertas_sales{status="refund_required"}',
    'ofertas_mail_outbox{status="queued"}',
    'ofertas_mail_outbox{status="failed"}',
    'ofertas_mail_outbox{status="sent"}',
    'ofertas_analytics_outbox{status="queued"}',
    "ofertas_reserved_tickets",
  ])
    expect(text).toContain(series);
  // Never the raw path as a label.
  expect(text).not.toContain("q=yoga");
  // Through a proxy (not this machine's own scraper): only with the token.
  expect((await fetch(server.url("/metrics"), { headers: { "X-Forwarded-For": "203.0.113.9" } })).status).toBe(401);
  const authorized = await fetch(server.url("/metrics"), {
    headers: { "X-Forwarded-For": "203.0.113.9", Authorization: `Bearer ${token}` },
  });
  expect(authorized.status).toBe(200);
});

type Outcome = { ok: number; refused: number; cut: string[]; lateWithoutClose: number; spanningSigterm: number };

/** One keep-alive connection requesting in a loop until `until` or until the server refuses it. */
async function client(server: ServerProcess, until: number, sigtermAt: () => number | null, outcome: Outcome, n: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const paths = [`/buscar?q=yoga${n}`, "/api/v0/public/offers/?page_size=24", "/"];
  for (let i = 0; Date.now() < until; i++) {
    const startedAt = Date.now();
    const result = await new Promise<{ status?: number; close?: boolean; error?: NodeJS.ErrnoException }>((resolve) => {
      const req = http.get(server.url(paths[i % paths.length]), { agent }, (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve({ status: res.statusCode, close: res.headers.connection === "close" }));
        res.on("error", (error) => resolve({ error }));
        res.on("aborted", () => resolve({ error: Object.assign(new Error("aborted"), { code: "ABORTED" }) }));
      });
      req.on("error", (error) => resolve({ error }));
    });
    if (result.error) {
      // After the port closed, a new connection is refused: expected, and this client is done.
      if (result.error.code === "ECONNREFUSED") {
        outcome.refused++;
        break;
      }
      outcome.cut.push(`${result.error.code ?? result.error.message}`);
      break;
    }
    outcome.ok++;
    const sigterm = sigtermAt();
    if (sigterm !== null && startedAt > sigterm + 50 && !result.close) outcome.lateWithoutClose++;
    if (sigterm !== null && startedAt < sigterm) outcome.spanningSigterm++;
  }
  agent.destroy();
}

test("SIGTERM under keep-alive load: readiness 503 at once, nothing in flight cut, exit 0", async () => {
  const server = await start();
  await server.waitReady();
  const outcome: Outcome = { ok: 0, refused: 0, cut: [], lateWithoutClose: 0, spanningSigterm: 0 };
  // Warm: the first page render is much slower than the rest.
  for (const p of ["/buscar?q=yoga", "/api/v0/public/offers/?page_size=24", "/"]) await (await fetch(server.url(p))).text();
  let sigterm: number | null = null;
  const until = Date.now() + 14_000;
  // A connection that stays open, to ask /readyz after the port has closed.
  const prober = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const probe = () =>
    new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      http
        .get(server.url("/readyz"), { agent: prober }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        })
        .on("error", reject);
    });
  expect((await probe()).status).toBe(200);
  const clients = Array.from({ length: 10 }, (_, n) => client(server, until, () => sigterm, outcome, n));
  await new Promise((r) => setTimeout(r, 2_000));
  sigterm = Date.now();
  server.child.kill("SIGTERM");
  await server.waitFor((l) => l.signal === "SIGTERM");
  const during = await probe();
  expect(during).toEqual({ status: 503, connection: "close" });
  await Promise.all(clients);
  prober.destroy();
  expect(await server.exit).toBe(0);
  expect(outcome.cut).toEqual([]);
  expect(outcome.ok).toBeGreaterThan(20);
  // Requests were in flight when the signal came, and they were answered.
  expect(outcome.spanningSigterm).toBeGreaterThan(0);
  expect(outcome.lateWithoutClose).toBe(0);
  expect(server.lines.some((l) => l.msg === "Cierre completo.")).toBe(true);
});

test("an API that hangs: pages answer after API_TIMEOUT_MS (503 and the Spanish page when they need the data)", async () => {
  const sockets = new Set<net.Socket>();
  // Accepts and never answers.
  const hung = net.createServer((socket) => sockets.add(socket)).listen(0, "127.0.0.1");
  await new Promise((r) => hung.once("listening", r));
  const hungPort = (hung.address() as net.AddressInfo).port;
  try {
    const server = await start({ API_URL: `http://127.0.0.1:${hungPort}/api/v0`, API_TIMEOUT_MS: "1500", CATALOGUE_CACHE_SECONDS: "0" });
    await server.waitReady();
    // /buscar's loader passes the browser's signal; the timeout still applies. The search page
    // says its search failed (spec section 8) instead of waiting for the API.
    let started = Date.now();
    const search = await fetch(server.url("/buscar?q=yoga"));
    await search.text();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(search.status).toBeLessThan(500);
    // A page that cannot do without its data: the Spanish 503 page.
    started = Date.now();
    const offer = await fetch(server.url("/ofertas/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/"));
    expect(offer.status).toBe(503);
    expect(offer.headers.get("retry-after")).toBe("30");
    expect(await offer.text()).toContain("Estamos teniendo problemas técnicos…");
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    for (const s of sockets) s.destroy();
    hung.close();
  }
});

test("PostgreSQL unreachable: API and pages 503 with Retry-After, /readyz 503; back to 200 when it returns", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("outage", async (url) => {
    // The server reaches PostgreSQL through this proxy, which the test cuts and restores.
    const proxy = await databaseProxy(url);
    try {
      const server = await start({ DATABASE_URL: proxy.via.toString(), DATABASE_CONNECT_TIMEOUT: "2", CATALOGUE_CACHE_SECONDS: "0" });
      await server.waitReady(120_000);
      expect((await fetch(server.url("/api/v0/public/offers/?page_size=1"))).status).toBe(200);

      proxy.cut();
      const api = await fetch(server.url("/api/v0/public/offers/?page_size=1"));
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("30");
      expect(((await api.json()) as { detail: string }).detail).toContain("Estamos teniendo problemas técnicos");
      const page = await fetch(server.url("/ofertas/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b/"));
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("30");
      expect(await page.text()).toContain("Estamos teniendo problemas técnicos…");
      expect((await fetch(server.url("/readyz"))).status).toBe(503);
      expect((await fetch(server.url("/healthz"))).status).toBe(200);

      proxy.restore();
      await server.waitReady(30_000);
      expect((await fetch(server.url("/api/v0/public/offers/?page_size=1"))).status).toBe(200);
      await server.stop();
    } finally {
      proxy.close();
    }
  });
});

test("WEB_CONCURRENCY=2 on PostgreSQL: /metrics sums both workers' requests, database figures counted once", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("cluster", async (url) => {
    const server = await start({ DATABASE_URL: url.toString(), WEB_CONCURRENCY: "2" });
    await server.waitReady(120_000);
    // Each on a new connection: the primary hands them out to both workers.
    for (let i = 0; i < 8; i++)
      await (await fetch(server.url("/api/v0/public/offers/?page_size=1"), { headers: { Connection: "close" } })).text();
    const text = await (await fetch(server.url("/metrics"))).text();
    expect(text).toContain('ofertas_http_request_duration_seconds_count{method="GET",route="/api/v0/public/offers/",status_class="2xx"} 8');
    // Read from the database by whichever worker answers, and not added up across workers.
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sales WHERE status = 'paid'`);
    await db.end();
    expect(text).toContain(`ofertas_sales{status="paid"} ${rows[0].n}`);
    expect(text).toMatch(/ofertas_db_pool_connections\{state="idle"\} \d+/);
    const workers = new Set(server.lines.filter((l) => l.msg === "Cierre completo." || typeof l.port === "number").map((l) => l.pid));
    expect(workers.size).toBeGreaterThanOrEqual(2);
    expect(await server.stop()).toBe(0);
  });
});

test("WEB_CONCURRENCY=2 on PostgreSQL: a worker that replaces one that died joins once ready; /readyz 503 while a migration is missing", async () => {
  test.skip(!DATABASE_URL, "needs TEST_DATABASE_URL");
  await withDatabase("rejoin", async (url) => {
    const db = new pg.Client({ connectionString: url.toString() });
    try {
      const server = await start({ DATABASE_URL: url.toString(), WEB_CONCURRENCY: "2" });
      await server.waitReady(120_000);
      const serving = () => server.lines.filter((l) => typeof l.port === "number" && String(l.msg).startsWith("ofertas escuchando"));
      await server.waitFor(() => serving().length >= 2, 60_000);
      const victim = serving()[0].pid as number;
      process.kill(victim, "SIGKILL");
      // From the moment the primary knows (a connection handed to the victim before that is lost
      // inside node:cluster and never answered), until the replacement says it serves and a while
      // after, every answer comes from a ready worker.
      await server.waitFor((l) => l.msg === "Proceso terminado; se arranca otro." && l.pid === victim, 30_000);
      const statuses: number[] = [];
      const ask = async () => {
        const res = await fetch(server.url("/api/v0/public/offers/?page_size=1"), {
          headers: { Connection: "close" },
          signal: AbortSignal.timeout(10_000),
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      };
      const before = serving().length;
      const replaced = () => serving().length > before;
      const until = Date.now() + 60_000;
      while (Date.now() < until && !replaced()) await ask();
      expect(replaced()).toBe(true);
      for (let i = 0; i < 20; i++) await ask();
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);

      // A database this build's migrations are not all in (an older backup restored, say) is not ready.
      await db.connect();
      const { rows } = await db.query<{ version: string }>(`SELECT max(version) AS version FROM schema_migrations`);
      await db.query(`DELETE FROM schema_migrations WHERE version = $1`, [rows[0].version]);
      const missing = await fetch(server.url("/readyz"));
      expect(missing.status).toBe(503);
      expect(await missing.text()).toBe("migrations pending");
      await db.query(`INSERT INTO schema_migrations (version) VALUES ($1)`, [rows[0].version]);
      expect((await fetch(server.url("/readyz"))).status).toBe(200);
      expect(await server.stop()).toBe(0);
    } finally {
      await db.end().catch(() => {});
    }
  });
});
