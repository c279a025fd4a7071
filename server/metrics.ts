import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import express, { type Request, type RequestHandler } from "express";
import type { RequestListener } from "node:http";
import type { Config } from "#platform/config.server";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type RouteObject } from "react-router-dom";
import { sql } from "drizzle-orm";
import client, { AggregatorRegistry, Gauge, Histogram, Registry, register } from "prom-client";
import { poolOf, query, type Database } from "#api/db/client";
import { logger, routeOf } from "#platform/logger.server";
import { sameSecret } from "#platform/same-secret.server";
import { routeOf as contractRoute } from "#contract/routes";

/**
 * Prometheus metrics (GET /metrics). Each process keeps its own in prom-client's global registry;
 * with WEB_CONCURRENCY > 1 the process that receives the scrape asks the cluster primary, which
 * gathers every worker's registry (AggregatorRegistry) and answers the sum. Business figures are
 * read from the database at scrape time by the process that answers, so they are right whichever
 * process answers and however many there are (never summed), and a database that does not
 * answer leaves them out (ofertas_database_up 0) instead of failing the whole scrape.
 */
client.collectDefaultMetrics({ register, eventLoopMonitoringPrecision: 20 });

const httpDuration = new Histogram({
  name: "ofertas_http_request_duration_seconds",
  help: "Duration of HTTP requests, by route pattern (Express route or Remix route id) and status class.",
  labelNames: ["method", "route", "status_class"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/** Records each request's duration once its answer is finished. */
export const measureRequests: RequestHandler = (req, res, next) => {
  const end = httpDuration.startTimer();
  res.once("finish", () => end({ method: req.method, route: routeLabel(req, res), status_class: `${Math.floor(res.statusCode / 100)}xx` }));
  next();
};

const API_PATH = /^\/(?:api\/)?v0(\/[^?]*)/;

function routeLabel(req: Request, res: Parameters<RequestHandler>[1]): string {
  // Remix's data requests pass through the same catch-all as its documents: labelled by the route they load.
  if (req.path.endsWith(".data")) return dataRouteLabel(req.path);
  const route = routeOf(req, res);
  // An API request that failed outside its route (the database down in a shared step, or an error
  // carried out of a router) has no Express route of its own left: the contract names it.
  const api = API_PATH.exec(req.originalUrl);
  if (api && (route === "unmatched" || /^\/(api\/)?v0\/?$/.test(route))) {
    const declared = contractRoute(req.method, api[1]);
    if (declared) return `/api/v0${declared.path}`;
  }
  if (route !== "unmatched") return route;
  // Static files: one fixed label, never the raw path.
  if (req.path.startsWith("/assets/")) return "static:/assets";
  return "unmatched";
}

let dataRoutes: RouteObject[] | null = null;

/**
 * The build's route tree, so that a client navigation's data request (`/ofertas/x.data`, which
 * Remix answers without rendering) is labelled with the route it loads, as its document is.
 */
export function labelDataRequestsBy(routes: ServerBuild["routes"]): void {
  const under = (parentId: string | undefined): RouteObject[] =>
    Object.values(routes)
      .filter((r) => r.parentId === parentId)
      .map(
        (r) =>
          ({
            id: r.id,
            path: r.path,
            index: r.index,
            caseSensitive: r.caseSensitive,
            children: r.index ? undefined : under(r.id),
          }) as RouteObject,
      );
  dataRoutes = under(undefined);
}

function dataRouteLabel(path: string): string {
  // Remix asks /_root.data for "/" and drops a trailing slash before adding ".data".
  const pathname = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
  const leaf = dataRoutes ? matchRoutes(dataRoutes, pathname)?.at(-1)?.route.id : undefined;
  return leaf ? `${leaf}.data` : "remix:data";
}

type Figures = {
  sales: { status: string; n: number }[];
  mail: { status: string; n: number }[];
  analytics: { status: string; n: number }[];
  reserved: number;
};

/**
 * The figures read from the database, in a registry of their own: a scrape while the database is
 * down still gets the process and HTTP series, with these left out and ofertas_database_up 0.
 */
const databaseRegistry = new Registry();
const upRegistry = new Registry();
const databaseUp = new Gauge({
  name: "ofertas_database_up",
  help: "1 when this scrape read the database figures (sales, outboxes, reservations), 0 when the database did not answer.",
  registers: [upRegistry],
});
/** How long a scrape waits for the database figures before it answers without them. */
const DATABASE_FIGURES_MS = 3_000;

/** The database figures as Prometheus text, or only ofertas_database_up 0 when they cannot be read. */
async function databaseText(): Promise<string> {
  let figures = "";
  try {
    figures = await withTimeout(databaseRegistry.metrics(), DATABASE_FIGURES_MS);
    databaseUp.set(1);
  } catch {
    databaseUp.set(0);
  }
  return (await upRegistry.metrics()) + figures;
}

/** Business gauges read at scrape time from the database this process serves. */
export function registerDatabaseMetrics(db: Database): void {
  let pending: Promise<Figures> | null = null;
  // The several gauges of one scrape ask at once and share one round of queries; the next scrape
  // reads again, so a database that has just gone down is never reported up from an earlier answer.
  const figures = () =>
    (pending ??= readFigures(db).finally(() => {
      pending = null;
    }));

  const byStatus = (name: string, help: string, pick: (f: Figures) => { status: string; n: number }[], statuses: string[]) =>
    new Gauge({
      name,
      help,
      labelNames: ["status"] as const,
      registers: [databaseRegistry],
      async collect() {
        const rows = pick(await figures());
        for (const status of statuses) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      },
    });
  byStatus("ofertas_sales", "Sales by status (paid, declined = payment failed, refund_required, pending…).", (f) => f.sales, [
    "pending",
    "paid",
    "declined",
    "cancelled",
    "expired",
    "refund_required",
    "refunded",
  ]);
  byStatus(
    "ofertas_mail_outbox",
    "Mail outbox messages by status: queued = due and waiting, scheduled = to be sent later (feedback requests), retrying = failed and waiting for its next attempt, sending, sent, failed, skipped.",
    (f) => f.mail,
    ["queued", "scheduled", "retrying", "sending", "sent", "failed", "skipped"],
  );
  byStatus("ofertas_analytics_outbox", "Analytics outbox events by status (queued = waiting, sending, sent, failed).", (f) => f.analytics, [
    "queued",
    "sending",
    "sent",
    "failed",
  ]);
  new Gauge({
    name: "ofertas_reserved_tickets",
    help: "Tickets held by unpaid sales whose reservation has not expired.",
    registers: [databaseRegistry],
    async collect() {
      this.set(Number((await figures()).reserved));
    },
  });
  const pool = poolOf(db);
  if (pool) {
    new Gauge({
      name: "ofertas_db_pool_connections",
      help: "PostgreSQL pool connections of this process: in_use, idle, and clients waiting for one.",
      labelNames: ["state"] as const,
      collect() {
        this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
        this.set({ state: "idle" }, pool.idleCount);
        this.set({ state: "waiting" }, pool.waitingCount);
      },
    });
  }
}

async function readFigures(db: Database): Promise<Figures> {
  const count = (table: "sales" | "analytics_outbox") =>
    query<{ status: string; n: number }>(db, sql`SELECT status, count(*)::int AS n FROM ${sql.identifier(table)} GROUP BY status`);
  const [sales, mail, analytics, reserved] = await Promise.all([
    count("sales"),
    // Queued mail split by when it goes: a feedback request queued days ahead is not a backlog.
    query<{ status: string; n: number }>(
      db,
      sql`SELECT CASE WHEN status <> 'queued' THEN status WHEN attempts > 0 THEN 'retrying'
                      WHEN send_after > now() THEN 'scheduled' ELSE 'queued' END AS status, count(*)::int AS n
          FROM mail_outbox GROUP BY 1`,
    ),
    count("analytics_outbox"),
    query<{ n: number }>(
      db,
      sql`SELECT coalesce(sum(i.quantity), 0)::int AS n FROM sales s JOIN sale_items i ON i.sale_id = s.id
          WHERE s.status = 'pending' AND s.expires_at > now()`,
    ),
  ]);
  return { sales, mail, analytics, reserved: reserved[0]?.n ?? 0 };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

const ASK = "ofertas:metrics";
const ANSWER = "ofertas:metrics-answer";
type Message = { type?: string; id?: string; text?: string; error?: string };

/** In the cluster primary: answers each worker's request for the whole cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: Message) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text }),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message }),
    );
  });
}

// A worker answers the primary's requests for its registry once an AggregatorRegistry exists in it.
if (cluster.isWorker) new AggregatorRegistry();

function clusterText(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const onMessage = (message: Message) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      process.off("message", onMessage);
      clearTimeout(timer);
      if (message.error) reject(new Error(message.error));
      else resolve(message.text ?? "");
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("el proceso principal no respondió"));
    }, 5_000);
    process.on("message", onMessage);
    process.send!({ type: ASK, id });
  });
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

type MetricsAccess = Pick<Config, "METRICS_TOKEN" | "isDeployment">;

/**
 * GET /metrics on the shop's port. In a deployment only with "Authorization: Bearer
 * METRICS_TOKEN": a proxy on this machine that forwards no X-Forwarded-For makes every request
 * look local. Elsewhere (a try-out) also to this machine itself: the socket's own address, with no
 * forwarded one. METRICS_PORT serves them on a port of their own instead (metricsOnly).
 */
export function metricsEndpoint(access: MetricsAccess, { open = false }: { open?: boolean } = {}): RequestHandler {
  return (req, res) => {
    const local = !access.isDeployment && LOOPBACK.test(req.socket.remoteAddress ?? "") && !req.headers["x-forwarded-for"];
    if (!open && !local && !bearerMatches(req.headers.authorization, access.METRICS_TOKEN)) {
      res
        .status(access.METRICS_TOKEN ? 401 : 403)
        .set("Cache-Control", "no-store")
        .type("text/plain")
        .send("No autorizado.");
      return;
    }
    // The process and HTTP series (every worker's, summed, under a cluster primary), then the
    // database figures read by this process alone, which a database outage leaves out.
    Promise.all([cluster.isWorker ? clusterText() : register.metrics(), databaseText()]).then(
      ([own, database]) =>
        res
          .status(200)
          .set("Cache-Control", "no-store")
          .type(register.contentType)
          .send(own + database),
      (error: unknown) => {
        logger.error({ err: error }, "Métricas no disponibles.");
        res.status(500).type("text/plain").send("Métricas no disponibles.");
      },
    );
  };
}

/** The METRICS_PORT server: /metrics, open to whoever reaches the port; nothing else. */
export function metricsOnly(access: MetricsAccess): RequestListener {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", metricsEndpoint(access, { open: true }));
  app.use((_req, res) => {
    res.status(404).type("text/plain; charset=utf-8").send("Solo /metrics en este puerto.");
  });
  return app;
}

function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  return sameSecret(header.slice(7).trim(), token);
}
