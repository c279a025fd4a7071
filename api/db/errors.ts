/** A unique index refused the row (SQLSTATE 23505), as node-postgres and PGlite report it through drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
