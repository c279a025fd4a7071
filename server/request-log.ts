import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import { acceptableRequestId, loggablePath, logger, runWithRequest } from "#platform/logger.server";

/** Paths polled by machines every few seconds: counted in metrics, not logged one by one. */
const UNLOGGED = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * One record per request when its answer is finished: time, level, reqId, method, path (secret
 * query values redacted), client address (req.ip, which follows the trust-proxy setting), status,
 * responseTime in ms and the user's id when one is known. No headers at all, so no cookie, token
 * or address a browser sent can reach the log.
 */
export const requestLog: RequestHandler = pinoHttp({
  logger,
  quietReqLogger: true,
  wrapSerializers: false,
  genReqId: (req, res) => {
    const sent = req.headers["x-request-id"];
    const id = acceptableRequestId(sent) ? sent : randomUUID();
    res.setHeader("X-Request-Id", id);
    return id;
  },
  autoLogging: { ignore: (req) => UNLOGGED.has((req.url ?? "").split("?")[0]) },
  customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
  // The error itself is logged once, with its stack, where it was caught; this line is the access record.
  customErrorObject: (_req, _res, _error, value: Record<string, unknown>) => ({ ...value, err: undefined }),
  customSuccessMessage: () => "request",
  customErrorMessage: () => "request",
  customProps: (_req, res) => {
    const userId = (res as ServerResponse & { locals?: { userId?: string } }).locals?.userId;
    return userId ? { userId } : {};
  },
  serializers: {
    req: (req: IncomingMessage & { id?: string; ip?: string; originalUrl?: string }) => ({
      method: req.method,
      path: loggablePath(req.originalUrl ?? req.url ?? "/"),
      ip: req.ip ?? req.socket?.remoteAddress,
    }),
    res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
  },
}) as unknown as RequestHandler;

/** The request's id (requestLog set it). */
export const requestId = (req: Request): string => String((req as Request & { id?: unknown }).id ?? "");

/** Runs a handler with the request's id known to code that has no `req` (the storefront's API client). */
export function withRequestContext(handler: RequestHandler): RequestHandler {
  return (req, res, next) => runWithRequest({ id: requestId(req) }, () => handler(req, res, next));
}
