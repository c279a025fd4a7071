import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { findUnstorableText, isStorableText, UNSTORABLE_TEXT_MESSAGE } from "#rules/text";
import { z } from "zod";
import "#rules/zod-es";
import { isDatabaseUnavailable, worthLogging } from "#api/db/errors";
import { RETRY_AFTER_SECONDS, SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_DETAIL } from "#rules/service";
import { gzipWanted, keptGzip, utf8 } from "#platform/gzip.server";
import { reportError } from "#platform/error-reporting.server";
import { routeOf } from "#platform/logger.server";

/** An error the API answers with as {"detail": "…"} and its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers that go with it (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail = "No encontrado.") => new HttpError(404, detail);
export const badRequest = (detail: string, extra?: Record<string, unknown>) => new HttpError(400, detail, extra);

/** A 400 about one field: its message as the detail and, as every field error, under `errors`. */
export const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: { [field]: [message] } });

type AsyncHandler = (req: Request, res: Response, next: NextFunction) => Promise<unknown>;

/** Express 4 does not catch rejected promises; this forwards them to the error handler. */
export function handle(fn: AsyncHandler): RequestHandler {
  return (req, res, next) => {
    fn(req, res, next).catch(next);
  };
}

/**
 * The `next` and `previous` of a page of a list, the same on every list of the API: this
 * request's own path with another page, relative (behind its proxy the API need not know its
 * origin, and a client resolves them against the URL it asked). Past the end, `previous` is the
 * last page.
 */
export function pageLinks(req: Request, page: number, pageSize: number, count: number): { next: string | null; previous: string | null } {
  const link = (p: number) => {
    const url = new URL(req.originalUrl, "http://api.invalid");
    url.searchParams.set("page", String(p));
    return url.pathname + url.search;
  };
  const lastPage = Math.max(1, Math.ceil(count / pageSize));
  return { next: page < lastPage ? link(page + 1) : null, previous: page > 1 ? link(Math.min(page - 1, lastPage)) : null };
}

/** A page of a list as the contract answers it: {count, next, previous, results}. */
export function pageAnswer<T>(req: Request, page: number, pageSize: number, count: number, results: T[]) {
  return { count, ...pageLinks(req, page, pageSize, count), results };
}

/** Parses input with a zod schema; the first problem becomes a Spanish 400. */
export function parseInput<T extends z.ZodTypeAny>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join(".") || "non_field_errors";
    (fields[key] ??= []).push(issue.message);
  }
  const first = result.error.issues[0];
  const where = first.path.length ? `${first.path.join(".")}: ` : "";
  throw new HttpError(400, `${where}${first.message}`, { errors: fields });
}

export function errorHandler(log: (error: unknown, req: Request, res: Response) => void) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (isDatabaseUnavailable(error)) {
      // An outage fails every request: logged whole once, then counted (api/db/errors.ts).
      if (worthLogging(error)) log(error, req, res);
      res.set({ "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" });
      res.status(503).json({ detail: `${SERVICE_UNAVAILABLE} ${SERVICE_UNAVAILABLE_DETAIL}`, code: "service_unavailable" });
      return;
    }
    if (error instanceof HttpError) {
      res.set(error.headers);
      res.status(error.status).json({ detail: error.detail, ...error.extra });
      return;
    }
    // body-parser's errors carry a status (malformed JSON, too large).
    const status = (error as { status?: number; type?: string })?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res
        .status(status)
        .json({ detail: status === 413 ? "La petición es demasiado grande." : "El cuerpo de la petición no es JSON válido." });
      return;
    }
    log(error, req, res);
    reportError(error, {
      source: "api",
      reqId: String((req as Request & { id?: unknown }).id ?? "") || undefined,
      route: routeOf(req, res),
    });
    res.status(500).json({ detail: "Error interno del servidor. Inténtalo de nuevo más tarde." });
  };
}

const WEBHOOK_PATH = /\/webhook\/?$/;
/** POST /offers/images/ takes pictures up to 5 MB, and reads them only once it knows who is calling. */
const UPLOAD_PATH = /^\/offers\/images\/?$/;

/** Routes that read their own bodies: webhooks (the exact bytes that were signed) and uploads. */
function readsOwnBody(url = ""): boolean {
  const path = url.split("?")[0];
  return WEBHOOK_PATH.test(path) || UPLOAD_PATH.test(path);
}

/**
 * The API's one JSON body parser, in front of every route: JSON bodies up to 100 KB (webhooks
 * and uploads excepted: readsOwnBody). Routers that still call express.json() find the body
 * already parsed and leave it.
 */
export const parseJsonBody: RequestHandler = express.json({
  limit: "100kb",
  type: (req) => /^application\/(.+\+)?json\b/i.test(String(req.headers["content-type"] ?? "")) && !readsOwnBody(req.url),
});

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates) anywhere in the query or the JSON body is a
 * 400 here, once for every route, instead of a database error (a 500) in whichever query meets it.
 */
export const rejectUnstorableText: RequestHandler = (req, _res, next) => {
  if (findUnstorableText(req.query) !== null || findUnstorableText(req.body) !== null || !isStorableText(safeDecode(req.path))) {
    return next(new HttpError(400, UNSTORABLE_TEXT_MESSAGE));
  }
  next();
};

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return "\u0000"; // a path that does not decode is as unusable as a NUL
  }
}

/**
 * Sends JSON that is already whole (a listing page: its head, and the cards as the database wrote
 * them), as one UTF-8 body, gzipped in one call, whose gzip is kept by the request's URL (keptGzip)
 * with the ETag Express made for it, rather than hashing the gzip again for every request.
 */
export function sendJsonText(req: Request, res: Response, parts: readonly (string | Uint8Array)[]) {
  res.type("application/json");
  const body = utf8(parts);
  if (!gzipWanted(req.headers["accept-encoding"], body)) return res.send(body);
  const kept = keptGzip(req.originalUrl, body);
  res.vary("Accept-Encoding").set("Content-Encoding", "gzip");
  if (kept.etag) res.set("ETag", kept.etag);
  res.send(kept.gzip);
  kept.etag ??= res.get("ETag");
}
