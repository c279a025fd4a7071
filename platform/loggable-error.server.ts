/**
 * What an error may say in a log record or an error report: the query builder wraps every
 * database error as «Failed query: <sql> params: <every value>», and the driver's own error adds
 * the row it refused (`detail`: «Failing row contains (…)», «Key (email)=(…)»). A buyer's name,
 * tax number and street address would leave with it. So a database error is told by its SQLSTATE,
 * its constraint and the statement's name (verb and table), never a value; everything else passes
 * as it is. Used once, where records and reports are made (logger.server.ts, error-reporting.server.ts).
 */

type Fields = Record<string, unknown> & { message?: unknown; code?: unknown; cause?: unknown; stack?: unknown };

/** Identifier fields of a PostgreSQL error: names from the schema, never a value. */
const NAME_FIELDS = ["constraint", "table", "column", "schema", "dataType", "routine"] as const;

const FAILED_QUERY = /^Failed query: ([\s\S]*?)\nparams: [\s\S]*$/;

/** An error thrown by drizzle around the driver's: it carries the SQL text and its parameters. */
function isQueryError(error: Fields): boolean {
  return "params" in error || (typeof error.message === "string" && FAILED_QUERY.test(error.message));
}

/** A driver error from PostgreSQL (node-postgres or PGlite): a five-character SQLSTATE. */
function isDriverError(error: Fields): boolean {
  return (
    typeof error.code === "string" && /^[0-9A-Z]{5}$/.test(error.code) && ("severity" in error || "detail" in error || "routine" in error)
  );
}

/**
 * A statement's name for a log: its verb and first table, e.g. «insert into sales», «select from
 * offers». Never the rest of the text: drizzle sends values as parameters, but a hand-written
 * statement might not.
 */
export function statementName(sql: string): string {
  const text = sql.replace(/\s+/g, " ").trim().toLowerCase();
  const table = (pattern: RegExp) => pattern.exec(text)?.[1];
  const insert = table(/\binsert into "?([a-z0-9_]+)"?/);
  if (insert) return `insert into ${insert}`;
  const update = table(/^(?:with .*?\) )?update "?([a-z0-9_]+)"?/);
  if (update) return `update ${update}`;
  const remove = table(/\bdelete from "?([a-z0-9_]+)"?/);
  if (remove) return `delete from ${remove}`;
  const from = table(/\bfrom "?([a-z0-9_]+)"?/);
  const verb = /^[a-z]+/.exec(text)?.[0] ?? "statement";
  return from ? `${verb} from ${from}` : verb;
}

/** The driver's message with every quoted text that is not a name of the schema left out. */
function withoutQuotedValues(message: string, names: Set<string>): string {
  return message.replace(/"([^"]*)"/g, (whole, inner: string) => (names.has(inner) ? whole : '"…"'));
}

/** Errors this module made: passing one again returns it as it is. */
const made = new WeakSet<object>();

/** The chain of causes, the error first (at most 5: a cycle must not hang the logger). */
function chain(error: unknown): Fields[] {
  const errors: Fields[] = [];
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as Fields).cause, depth++) errors.push(e as Fields);
  return errors;
}

/**
 * The error as it may be logged or reported: a database error becomes a new Error «Consulta
 * fallida (insert into sales): SQLSTATE 23505, restricción sales_pkey», with `code`, the names and
 * `statement` as fields and the original stack frames; any other error is returned unchanged.
 */
export function loggableError(error: unknown): unknown {
  if (made.has(error as object)) return error;
  const errors = chain(error);
  const query = errors.find(isQueryError);
  const driver = errors.find(isDriverError) ?? errors.find((e) => typeof e.code === "string" && e !== query);
  if (!query && !(driver && isDriverError(driver))) return error;
  const sql = typeof query?.query === "string" ? query.query : (FAILED_QUERY.exec(String(query?.message ?? ""))?.[1] ?? "");
  const statement = sql ? statementName(sql) : undefined;
  const names: Record<string, string> = {};
  for (const field of NAME_FIELDS) if (typeof driver?.[field] === "string") names[field] = driver[field] as string;
  const code = typeof driver?.code === "string" ? driver.code : undefined;
  const said = typeof driver?.message === "string" ? withoutQuotedValues(driver.message, new Set(Object.values(names))) : undefined;
  const parts = [
    code ? (/^[0-9A-Z]{5}$/.test(code) ? `SQLSTATE ${code}` : code) : null,
    names.constraint ? `restricción ${names.constraint}` : null,
  ];
  const head = `Consulta fallida${statement ? ` (${statement})` : ""}: ${parts.filter(Boolean).join(", ") || "error de la base de datos"}${said ? ` — ${said}` : ""}`;
  const safe = Object.assign(new Error(head), { code, statement, ...names });
  safe.name = "DatabaseError";
  // The frames of where it was thrown, under the new first line: the old one held the values.
  const frames = String((query ?? driver)?.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line));
  safe.stack = [`${safe.name}: ${head}`, ...frames].join("\n");
  made.add(safe);
  return safe;
}

/** A report's exception text: a query error's without its SQL and values (for what was not captured by reportError). */
export function loggableErrorText(text: string): string {
  const match = FAILED_QUERY.exec(text);
  return match ? `Consulta fallida (${statementName(match[1])})` : text;
}
