import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type RouteObject } from "react-router-dom";
import { sql } from "drizzle-orm";
import client, { AggregatorRegistry, Gauge, Histogram, register } from "prom-client";
import { poolOf, query, type Database } from "#api/db/client";
import { logger, routeOf } from "#platform/logger.server";

/**
 * Prometheus metrics (GET /metrics). Each process keeps its own in prom-client's global registry;
 * with WEB_CONCURRENCY > 1 the process that receives the scrape asks the cluster primary, which
 * gathers every worker's registry (AggregatorRegistry) and answers the sum. Business figures are
 * read from the database at scrape time, so they are right whichever process answers and
 * however many there are (aggregated as "first", never summed).
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

function routeLabel(req: Request, res: Parameters<RequestHandler>[1]): string {
  // Remix's data requests pass through the same catch-all as its documents: labelled by the route they load.
  if (req.path.endsWith(".data")) return dataRouteLabel(req.path);
  const route = routeOf(req, res);
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

/** Business gauges read at scrape time from the database this process serves. */
export function registerDatabaseMetrics(db: Database): void {
  let pending: Promise<Figures> | null = null;
  // The several gauges of one scrape share one round of queries.
  const figures = () => (pending ??= readFigures(db).finally(() => setTimeout(() => (pending = null), 1_000).unref()));

  const byStatus = (name: string, help: string, pick: (f: Figures) => { status: string; n: number }[], statuses: string[]) =>
    new Gauge({
      name,
      help,
      labelNames: ["status"] as const,
      aggregator: "first",
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
  byStatus("ofertas_mail_outbox", "Mail outbox messages by status (queued = waiting, sending, sent, failed, skipped).", (f) => f.mail, [
    "queued",
    "sending",
    "sent",
    "failed",
    "skipped",
  ]);
  byStatus("ofertas_analytics_outbox", "Analytics outbox events by status (queued = waiting, sending, sent, failed).", (f) => f.analytics, [
    "queued",
    "sending",
    "sent",
    "failed",
  ]);
  new Gauge({
    name: "ofertas_reserved_tickets",
    help: "Tickets held by unpaid sales whose reservation has not expired.",
    aggregator: "first",
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
  const count = (table: "sales" | "mail_outbox" | "analytics_outbox") =>
    query<{ status: string; n: number }>(db, sql`SELECT status, count(*)::int AS n FROM ${sql.identifier(table)} GROUP BY status`);
  const [sales, mail, analytics, reserved] = await Promise.all([
    count("sales"),
    count("mail_outbox"),
    count("analytics_outbox"),
    query<{ n: number }>(
      db,
      sql`SELECT coalesce(sum(i.quantity), 0)::int AS n FROM sales s JOIN sale_items i ON i.sale_id = s.id
          WHERE s.status = 'pending' AND s.expires_at > now()`,
    ),
  ]);
  return { sales, mail, analytics, reserved: reserved[0]?.n ?? 0 };
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

/**
 * GET /metrics: open to this machine (a local Prometheus or agent); from anywhere else only with
 * "Authorization: Bearer METRICS_TOKEN". The socket's own address decides, not a forwarded one.
 */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  return (req, res) => {
    const local = LOOPBACK.test(req.socket.remoteAddress ?? "") && !req.headers["x-forwarded-for"];
    if (!local && !bearerMatches(req.headers.authorization, token)) {
      res
        .status(token ? 401 : 403)
        .set("Cache-Control", "no-store")
        .type("text/plain")
        .send("No autorizado.");
      return;
    }
    (cluster.isWorker ? clusterText() : register.metrics()).then(
      (text) => res.status(200).set("Cache-Control", "no-store").type(register.contentType).send(text),
      (error: unknown) => {
        logger.error({ err: error }, "Métricas no disponibles.");
        res.status(500).type("text/plain").send("Métricas no disponibles.");
      },
    );
  };
}

function bearerMatches(header: string | undefined, token: string | undefined): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice(7).trim());
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
