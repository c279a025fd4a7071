import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { query, type Database } from "./client";

const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));
// Any constant works; it only has to be the same for every process of this app.
const MIGRATION_LOCK_KEY = 7_262_001;

/**
 * A migration's statements: each ends with a `;` at the end of a line, except inside a
 * dollar-quoted body ($name$ … $name$), where a function's own statements end lines too.
 */
export function sqlStatements(text: string): string[] {
  const statements: string[] = [];
  let lines: string[] = [];
  let body: string | null = null;
  for (const line of text.split("\n")) {
    lines.push(line);
    for (const [tag] of line.matchAll(/\$[A-Za-z_]*\$/g)) body = body === null ? tag : body === tag ? null : body;
    if (body === null && /;\s*$/.test(line)) {
      statements.push(lines.join("\n").replace(/;\s*$/, "").trim());
      lines = [];
    }
  }
  statements.push(lines.join("\n").trim());
  return statements.filter(Boolean);
}

/**
 * Applies the SQL files in order, each once. The advisory lock makes two processes that start at
 * the same moment against one PostgreSQL take turns instead of both applying a file.
 */
export async function migrate(db: Database): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith(".sql")).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await tx.execute(
      sql`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await query<{ version: string }>(tx, sql`SELECT version FROM schema_migrations`);
    const known = new Set(done.map((r) => r.version));
    for (const file of files) {
      if (known.has(file)) continue;
      const text = await readFile(MIGRATIONS_DIR + file, "utf8");
      // One statement per call: PGlite's extended protocol refuses several in one query.
      for (const statement of sqlStatements(text)) {
        await tx.execute(sql.raw(statement));
      }
      await tx.execute(sql`INSERT INTO schema_migrations (version) VALUES (${file})`);
      applied.push(file);
    }
  });
  return applied;
}
