import type { NextFunction, Request, RequestHandler, Response } from "express";
import { z } from "zod";
import "#lib/zod-es";

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

type AsyncHandler = (req: Request, res: Response, next: NextFunction) => Promise<unknown>;

/** Express 4 does not catch rejected promises; this forwards them to the error handler. */
export function handle(fn: AsyncHandler): RequestHandler {
  return (req, res, next) => {
    fn(req, res, next).catch(next);
  };
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

export function errorHandler(log: (error: unknown) => void) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof HttpError) {
      res.set(error.headers);
      res.status(error.status).json({ detail: error.detail, ...error.extra });
      return;
    }
    // body-parser's errors carry a status (malformed JSON, too large).
    const status = (error as { status?: number; type?: string })?.status;
    if (typeof status === "number" && status >= 400 && status < 500) {
      res.status(status).json({ detail: status === 413 ? "La petición es demasiado grande." : "El cuerpo de la petición no es JSON válido." });
      return;
    }
    log(error);
    res.status(500).json({ detail: "Error interno del servidor. Inténtalo de nuevo más tarde." });
  };
}
