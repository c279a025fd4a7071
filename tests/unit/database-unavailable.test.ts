/**
 * What the API answers 503 with Retry-After (a database outage) rather than 500: also a full or
 * read-only disk under the embedded database, as PGlite and PostgreSQL report it through drizzle.
 */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "#api/db/errors";

/** drizzle's wrapper around the driver's error, as a failed query throws it. */
const failedQuery = (cause: { code: string; message: string }) =>
  Object.assign(new Error("Failed query: SELECT 1\nparams: "), { cause: Object.assign(new Error(cause.message), { code: cause.code }) });

describe("a database that cannot serve right now", () => {
  it("a read-only DATA_DIR (PGlite: 42501 on a data file) is unavailable, not a fault of ours", () => {
    expect(isDatabaseUnavailable(failedQuery({ code: "42501", message: 'could not open file "base/1/2650": Permission denied' }))).toBe(
      true,
    );
    expect(
      isDatabaseUnavailable(failedQuery({ code: "42501", message: 'could not create file "base/1/16385_fsm": Permission denied' })),
    ).toBe(true);
    // What the embedded database says when a table's file is read-only and it sizes the relation.
    expect(
      isDatabaseUnavailable(failedQuery({ code: "42501", message: 'could not seek to end of file "base/1/16390": Permission denied' })),
    ).toBe(true);
  });

  it("a full disk (53100) and an I/O error (58030) are too", () => {
    expect(
      isDatabaseUnavailable(failedQuery({ code: "53100", message: 'could not extend file "base/1/16385": No space left on device' })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(failedQuery({ code: "58030", message: 'could not write to file "pg_wal/xlogtemp.1": Input/output error' })),
    ).toBe(true);
  });

  it("a missing grant, a broken query or a unique violation is not", () => {
    expect(isDatabaseUnavailable(failedQuery({ code: "42501", message: "permission denied for table sales" }))).toBe(false);
    expect(isDatabaseUnavailable(failedQuery({ code: "42703", message: 'column "nada" does not exist' }))).toBe(false);
    expect(isDatabaseUnavailable(failedQuery({ code: "23505", message: "duplicate key value violates unique constraint" }))).toBe(false);
  });
});
