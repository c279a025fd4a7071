import type { RequestListener, Server, ServerResponse } from "node:http";
import net from "node:net";
import { PendingMigrationsError } from "#api/db/migrate";
import { logger } from "#platform/logger.server";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_DETAIL } from "#rules/service";

export type Phase = "starting" | "ready" | "stopping";

/** A readiness check's "not now", with the words /readyz answers ("mail outbox unavailable"). */
export class NotReady extends Error {}

/** The Spanish page for a server that cannot serve right now (starting, or its database is down). */
export const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SERVICE_UNAVAILABLE} · ofertas</title></head>
<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<h1>${SERVICE_UNAVAILABLE}</h1>
<p>${SERVICE_UNAVAILABLE_DETAIL}</p>
</body></html>`;

export function sendUnavailable(res: ServerResponse, json: boolean): void {
  res.statusCode = 503;
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  if (json) {
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ detail: `${SERVICE_UNAVAILABLE} ${SERVICE_UNAVAILABLE_DETAIL}`, code: "service_unavailable" }));
  } else {
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.end(UNAVAILABLE_PAGE);
  }
}

export const isApiPath = (url = "") => url.startsWith("/api/") || url.startsWith("/v0/");

/**
 * The process from listening to exit. The port opens before the database is ready, so probes get
 * an answer from the first moment: /healthz 200 while the process runs, /readyz 200 only while
 * `ready`, the database answers and has every migration of this build, and every other request a 503 until the site is mounted.
 * After a shutdown begins every response says `Connection: close`, so keep-alive clients leave
 * after their answer instead of being cut.
 */
export function createLifecycle() {
  let phase: Phase = "starting";
  let site: RequestListener | null = null;
  let ping: () => Promise<void> = async () => {};
  // SIGTERM with SHUTDOWN_DELAY_MS: /readyz says 503 while the site still serves, so a balancer
  // takes this process out before its port closes.
  let leaving = false;
  const open = new Set<ServerResponse>();

  const probe = async (res: ServerResponse, path: string) => {
    let answer = "ok";
    if (path === "/readyz") {
      if (phase !== "ready") answer = phase;
      else if (leaving) answer = "stopping";
      else
        answer = await withTimeout(ping(), 2_000).then(
          () => (phase === "ready" ? "ok" : phase),
          (error: unknown) =>
            error instanceof PendingMigrationsError
              ? "migrations pending"
              : error instanceof NotReady
                ? error.message
                : "database unavailable",
        );
    }
    res.statusCode = answer === "ok" ? 200 : 503;
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.end(answer);
  };

  const listener: RequestListener = (req, res) => {
    if (phase === "stopping") res.setHeader("Connection", "close");
    open.add(res);
    res.once("close", () => open.delete(res));
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz" || path === "/readyz") return void probe(res, path);
    if (!site) return sendUnavailable(res, isApiPath(req.url));
    site(req, res);
  };

  return {
    listener,
    get phase() {
      return phase;
    },
    /** The site is mounted and its database answers `check`. */
    ready(handler: RequestListener, check: () => Promise<void>) {
      site = handler;
      ping = check;
      if (phase === "starting") phase = "ready";
    },
    /** /readyz answers 503 `stopping` from now on; everything else is served as before. */
    announceStop() {
      leaving = true;
    },
    /**
     * Stops accepting connections and resolves once every open one has ended. Answers still being
     * prepared get `Connection: close`; connections idle at that moment are closed a second later,
     * once any keep-alive client that was about to send its next request has done so (and been
     * answered with `Connection: close`), never in the middle of a request.
     */
    drain(server: Server): Promise<void> {
      phase = "stopping";
      for (const res of open) if (!res.headersSent) res.setHeader("Connection", "close");
      return new Promise((resolve) => {
        // Not server.close(): it closes idle keep-alive connections at once, racing a request the
        // client may already have sent on one.
        net.Server.prototype.close.call(server, () => resolve());
        const sweep = setInterval(() => server.closeIdleConnections(), 1_000);
        sweep.unref();
      });
    },
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** Exits once `work` is done, or with 1 after `timeoutMs` (SHUTDOWN_TIMEOUT) whatever is left. */
export function exitAfter(work: Promise<unknown>, timeoutMs: number): void {
  const force = setTimeout(() => {
    logger.error({ timeoutMs }, "Cierre: SHUTDOWN_TIMEOUT agotado; se corta lo que quedaba.");
    process.exit(1);
  }, timeoutMs);
  force.unref();
  work.then(
    () => {
      logger.info("Cierre completo.");
      process.exit(0);
    },
    (error: unknown) => {
      logger.error({ err: error }, "Cierre con error.");
      process.exit(1);
    },
  );
}

/** Closes a server that serves nothing long-lived (the metrics port), its idle connections too. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
