import { repeatedErrors } from "#platform/repeated-errors.server";

/** A unique index refused the row (SQLSTATE 23505), as node-postgres and PGlite report it through drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/**
 * The database cannot be reached or is refusing work right now (restart, failover, network, a
 * connection or statement timeout, a full or read-only disk): the request is worth retrying later,
 * and is answered 503 with Retry-After instead of a 500. SQLSTATE classes 08 (connection), 57P
 * (operator intervention), 53 (insufficient resources: 53100 a full disk), 58 (system errors: I/O)
 * and 55000 with a database not accepting connections; and 42501 when it is a data file the
 * server may not open or create (a read-only or foreign-owned DATA_DIR), not a missing grant.
 */
/**
 * PostgreSQL's words for a data file it may not touch (errcode_for_file_access: EACCES, EPERM,
 * EROFS): every one starts "could not" (open, create, seek to end of, extend…); a missing grant
 * says "permission denied for…" and an ownership rule "must be…".
 */
const FILE_ACCESS = /^could not /i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (/^(08|57P|53|58)/.test(code) || code === "57014" || code === "55000") return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(code)) return true;
    const message = typeof e.message === "string" ? e.message : "";
    if (code === "42501" && FILE_ACCESS.test(message)) return true;
    if (["EROFS", "ENOSPC", "EDQUOT", "EIO"].includes(code)) return true;
    if (
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}

/** What kind of outage an error is, for counting repeats: its SQLSTATE or system code, never its text. */
export function outageKind(error: unknown): string {
  for (let e = error as { code?: unknown; cause?: unknown } | null, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++)
    if (typeof e.code === "string" && e.code) return `base de datos ${e.code}`;
  return "base de datos no disponible";
}

const outages = repeatedErrors();

/**
 * Whether to log this error whole: anything but the repeat of an outage already logged within the
 * interval (the API's requests, the mail worker and the sweeps share the count), which is counted
 * and summed up in one line instead.
 */
export const worthLogging = (error: unknown): boolean => !isDatabaseUnavailable(error) || outages.first(outageKind(error));
