import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import type { Request, Response } from "express";
import pino, { type LogFn, type Logger } from "pino";
import { withoutAddressText } from "#rules/error-reports";
import { loggableError } from "#platform/loggable-error.server";

/**
 * The process's one logger. Production: one JSON line per record (time, level, msg and fields),
 * for the operator's log store. Development: readable lines through pino-pretty when it is
 * installed. LOG_LEVEL chooses the threshold ("silent" in tests that do not read the log).
 */
function createLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.VITEST ? "silent" : "info");
  const options = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...NOTHING_PERSONAL,
  };
  if (process.env.NODE_ENV !== "production" && process.env.LOG_FORMAT !== "json" && prettyAvailable()) {
    return pino({ ...options, transport: { target: "pino-pretty", options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname" } } });
  }
  return pino(options);
}

function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return true;
  } catch {
    return false;
  }
}

/**
 * Every record, whoever writes it, passes here: an error as loggableError tells it (a database
 * error without its query's values), also where pino takes an error's message for the record's,
 * and no e-mail address anywhere in the line as it is written.
 */
const NOTHING_PERSONAL = {
  serializers: { err: (error: unknown) => pino.stdSerializers.err(loggableError(error) as Error) },
  hooks: {
    logMethod(this: Logger, args: Parameters<LogFn>, method: LogFn) {
      const [first, ...rest] = args as unknown[];
      if (first instanceof Error) return method.apply(this, [loggableError(first), ...rest] as Parameters<LogFn>);
      if (first && typeof first === "object" && "err" in first) {
        const merged = { ...first, err: loggableError((first as { err: unknown }).err) };
        return method.apply(this, [merged, ...rest] as Parameters<LogFn>);
      }
      return method.apply(this, args);
    },
    streamWrite: (line: string) => withoutAddressText(line),
  },
};

export const logger: Logger = createLogger();

/** The request being served, for code far from Express (the storefront's API client, the error hook). */
export type RequestContext = { id: string };
// One store per process: the host (build/node) and the storefront's build (build/server) each
// bundle their own copy of this module.
const STORE = Symbol.for("ofertas.request-context");
const requestContext: AsyncLocalStorage<RequestContext> = ((globalThis as Record<symbol, unknown>)[STORE] ??=
  new AsyncLocalStorage<RequestContext>()) as AsyncLocalStorage<RequestContext>;

export function runWithRequest<T>(context: RequestContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.id;
}

/** A request id from a proxy is kept only when short and plain: it ends up in every log line. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;
export function acceptableRequestId(value: unknown): value is string {
  return typeof value === "string" && REQUEST_ID.test(value);
}

/**
 * Query parameters that carry secrets or addresses in mailed links and webhooks. A payment's
 * transaction_id, with its sale's id, is enough to fetch the buyer's vouchers.
 */
const SECRET_PARAMS = new Set(["token", "t", "sig", "email", "code", "password", "refresh", "access", "transaction_id"]);

/** Paths whose last part is a secret: the sandbox's payment page is named by its transaction. */
const SECRET_PATHS = /^((?:\/api)?\/v0\/sandbox\/checkout\/)[^/?]+/;

/** The path and query for a log line, with the values of secret-bearing parameters and addresses replaced. */
export function loggablePath(url: string): string {
  const q = url.indexOf("?");
  const path = withoutAddressText((q < 0 ? url : url.slice(0, q)).replace(SECRET_PATHS, "$1[redacted]"));
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...new Set(params.keys())]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) params.set(key, "[redacted]");
    else if (params.getAll(key).some((value) => withoutAddressText(value) !== value))
      params.set(key, withoutAddressText(params.getAll(key).join(" ")));
  }
  return `${path}?${params.toString().replaceAll("%5Bredacted%5D", "[redacted]").replaceAll("%5Bemail%5D", "[email]")}`;
}

/** The error's one log record, with the request's id, route and the stack (`err`). */
export function logRequestError(error: unknown, req: Request, res: Response): void {
  const reqId = (req as Request & { id?: unknown }).id;
  logger.error(
    { err: error, reqId, method: req.method, path: loggablePath(req.originalUrl ?? req.url), route: routeOf(req, res) },
    "error",
  );
}

/** The route pattern a request matched: Express's (API) or Remix's route id; never the raw path. */
export function routeOf(req: Request, res: Response): string {
  const remix = (res.locals as { route?: string } | undefined)?.route;
  if (remix) return remix;
  if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`;
  return "unmatched";
}
