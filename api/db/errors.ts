/** A unique index refused the row (SQLSTATE 23505), as node-postgres and PGlite report it through drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/**
 * The database cannot be reached or is refusing work right now (restart, failover, network, a
 * connection or statement timeout): the request is worth retrying later, and is answered 503 with
 * Retry-After instead of a 500. SQLSTATE classes 08 (connection), 57P (operator intervention),
 * 53 (insufficient resources) and 55000 with a database not accepting connections.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : "";
    if (/^(08|57P|53)/.test(code) || code === "57014" || code === "55000") return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(code)) return true;
    const message = typeof e.message === "string" ? e.message : "";
    if (
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        message,
      )
    )
      return true;
  }
  return false;
}
