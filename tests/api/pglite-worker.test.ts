import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, query, type DatabaseHandle, type Utf8Text } from "#api/db/client";

// The embedded database runs on its own thread (api/db/pglite-worker.mjs): what crosses between
// the threads must behave as PGlite did on the server's own thread.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ dataDir: "memory://" });
  await handle.db.execute(sql`CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL)`);
  // Checked at COMMIT, so that a failing COMMIT can be provoked.
  await handle.db.execute(sql`CREATE TABLE tags (tag text, CONSTRAINT tags_unique UNIQUE (tag) DEFERRABLE INITIALLY DEFERRED)`);
});
afterAll(() => handle.close());

const count = async () => (await query<{ n: number }>(handle.db, sql`SELECT count(*)::int AS n FROM things`))[0].n;

it("answers rows with the types PGlite gives, and drizzle's raw timestamps", async () => {
  const [row] = await query<Record<string, unknown>>(
    handle.db,
    sql`SELECT 1 AS one, 'ñandú' AS word, '{"a":[1,2]}'::json AS doc, 12.50::numeric AS money, true AS yes, NULL AS nothing,
               '2026-01-02 03:04:05+00'::timestamptz AS at, ${"{x,y}"}::text[] AS list`,
  );
  expect(row).toEqual({
    one: 1,
    word: "ñandú",
    doc: { a: [1, 2] },
    money: "12.50",
    yes: true,
    nothing: null,
    at: "2026-01-02 03:04:05+00",
    list: ["x", "y"],
  });
});

it("gives back long texts whole (they cross as bytes), beside short ones and over several rows", async () => {
  const long = "Cena romántica para dos, con cava y postre 🍰. ".repeat(200); // over 4096 characters
  const [row] = await query<{ long: string; short: string; again: string }>(
    handle.db,
    sql`SELECT ${long}::text AS long, 'ñ' AS short, ${long}::text AS again`,
  );
  expect(row).toEqual({ long, short: "ñ", again: long });
  const rows = await query<{ n: number; text: string }>(
    handle.db,
    sql`SELECT n, repeat('á', 5000 + n) AS text FROM generate_series(1, 3) AS n`,
  );
  expect(rows.map((r) => r.text.length)).toEqual([5001, 5002, 5003]);
  expect(rows.every((r) => /^á+$/.test(r.text))).toBe(true);
});

it("leaves a long text in a column named for bytes as its UTF-8 bytes, and a short one as text", async () => {
  const long = "Cena romántica para dos, con cava y postre 🍰. ".repeat(200);
  const [row] = await query<{ long_utf8: Utf8Text; short_utf8: Utf8Text; long: string }>(
    handle.db,
    sql`SELECT ${long}::text AS long_utf8, 'ñ' AS short_utf8, ${long}::text AS long`,
  );
  expect(Buffer.isBuffer(row.long_utf8)).toBe(true);
  expect((row.long_utf8 as Buffer).equals(Buffer.from(long))).toBe(true);
  expect(row.short_utf8).toBe("ñ");
  expect(row.long).toBe(long);
});

it("passes the database's error fields (SQLSTATE, constraint) to the caller", async () => {
  await handle.db.execute(sql`INSERT INTO things VALUES (1, 'uno')`);
  const error = await handle.db.execute(sql`INSERT INTO things VALUES (1, 'otra vez')`).catch((e: { cause?: unknown }) => e.cause ?? e);
  expect(error).toMatchObject({ code: "23505", constraint: "things_pkey", message: expect.stringContaining("duplicate key") });
  expect(await count()).toBe(1);
});

it("commits a transaction's work, and rolls all of it back when the work throws", async () => {
  await handle.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO things VALUES (2, 'dos')`);
    await tx.execute(sql`INSERT INTO things VALUES (3, 'tres')`);
  });
  expect(await count()).toBe(3);
  await expect(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO things VALUES (4, 'cuatro')`);
      throw new Error("no");
    }),
  ).rejects.toThrow("no");
  await expect(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO things VALUES (5, 'cinco')`);
      await tx.execute(sql`INSERT INTO things VALUES (5, 'repetido')`);
    }),
  ).rejects.toMatchObject({ cause: { code: "23505" } });
  expect(await count()).toBe(3);
});

it("keeps a statement from outside out of an open transaction until it ends", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const didInsert = new Promise<void>((resolve) => (inserted = resolve));
  const transaction = handle.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO things VALUES (6, 'seis')`);
    inserted();
    await held;
  });
  await didInsert;
  let seen: number | undefined;
  const outside = count().then((n) => (seen = n));
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(seen).toBeUndefined(); // it did not run inside the transaction, seeing its row
  release();
  await transaction;
  await outside;
  expect(seen).toBe(4);
});

it("rejects the transaction when its COMMIT fails, and leaves nothing of it", async () => {
  await expect(
    handle.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO tags VALUES ('spa'), ('spa')`); // deferred: accepted until COMMIT
    }),
  ).rejects.toMatchObject({ code: "23505", constraint: "tags_unique" });
  expect(await query(handle.db, sql`SELECT * FROM tags`)).toEqual([]);
  expect(await count()).toBe(4); // and the connection is usable again
});

describe("reads kept as prepared statements", () => {
  it("answers each run with its own values, before and after PostgreSQL keeps a plan", async () => {
    const nameOf = async (id: number) => (await query<{ name: string }>(handle.db, sql`SELECT name FROM things WHERE id = ${id}`))[0]?.name;
    for (let round = 0; round < 4; round++) {
      expect([await nameOf(1), await nameOf(2), await nameOf(3), await nameOf(99)]).toEqual(["uno", "dos", "tres", undefined]);
    }
  });

  it("passes a bad value's error, and the next statement still runs", async () => {
    const bad = await handle.db
      .execute(sql`SELECT name FROM things WHERE id = ${"uno"}::int`)
      .catch((e: { cause?: unknown }) => e.cause ?? e);
    expect(bad).toMatchObject({ code: "22P02" });
    expect(await count()).toBeGreaterThan(0);
  });

  it("passes an error that only running the statement finds, each time, and the next statement still runs", async () => {
    for (let round = 0; round < 3; round++) {
      const failed = await handle.db
        .execute(sql`SELECT 10 / (id - ${1}::int) AS q FROM things WHERE id = 1`)
        .catch((e: { cause?: unknown }) => e.cause ?? e);
      expect(failed).toMatchObject({ code: "22012" });
      expect(await count()).toBeGreaterThan(0);
    }
  });

  it("still answers when the table changes shape under a kept statement", async () => {
    const all = () => query<Record<string, unknown>>(handle.db, sql`SELECT * FROM things ORDER BY id LIMIT 1`);
    expect(await all()).toEqual([{ id: 1, name: "uno" }]);
    expect(await all()).toEqual([{ id: 1, name: "uno" }]);
    await handle.db.execute(sql`ALTER TABLE things ADD COLUMN note text NOT NULL DEFAULT 'nota'`);
    expect(await all()).toEqual([{ id: 1, name: "uno", note: "nota" }]);
    await handle.db.execute(sql`ALTER TABLE things DROP COLUMN note`);
    expect(await all()).toEqual([{ id: 1, name: "uno" }]);
  });

  it("parses long values of other types as before, and passes a long error message as text", async () => {
    // A kept read leaves long values as bytes on the worker; only the text types may stay so.
    const items = Array.from({ length: 400 }, (_, n) => ({ n, title: `Menú degustación ${n}` }));
    const long = "ñ".repeat(3000);
    for (let round = 0; round < 2; round++) {
      const [row] = await query<{ doc: unknown; list: string[]; raw: Uint8Array; name: string; padded: string }>(
        handle.db,
        sql`SELECT ${JSON.stringify(items)}::json AS doc, ARRAY[${long}::text, 'b'] AS list, decode(repeat('ff00', 3000), 'hex') AS raw,
                   ${long}::varchar AS name, ${long}::char(3001) AS padded`,
      );
      expect(row.doc).toEqual(items);
      expect(row.list).toEqual([long, "b"]);
      expect(row.raw).toBeInstanceOf(Uint8Array); // bytes that are not UTF-8, not a text
      expect(Buffer.from(row.raw).equals(Buffer.from("ff00".repeat(3000), "hex"))).toBe(true);
      expect(row.name).toBe(long);
      expect(row.padded).toBe(`${long} `);
    }
    const failed = await handle.db.execute(sql`SELECT ${"x".repeat(6000)}::int AS n`).catch((e: { cause?: unknown }) => e.cause ?? e);
    expect(failed).toMatchObject({ code: "22P02", message: expect.stringContaining(`"${"x".repeat(6000)}"`) });
  });

  it("keeps answering when more statements than it keeps come and go", async () => {
    const numbered = (n: number) => query<{ n: number }>(handle.db, sql.raw(`SELECT ${n} AS n, count(*)::int AS c FROM things`));
    for (let n = 0; n < 150; n++) expect((await numbered(n))[0].n).toBe(n);
    for (let n = 0; n < 150; n += 7) expect((await numbered(n))[0].n).toBe(n);
  });
});

it("refuses statements once closed, without hanging", async () => {
  const other = await openDatabase({ dataDir: "memory://" });
  await other.close();
  await expect(other.db.execute(sql`SELECT 1`)).rejects.toThrow();
});

it("starts a new database from a dump of another: the same rows, and from then on its own", async () => {
  await handle.db.execute(sql`INSERT INTO things VALUES (900, 'copiada') ON CONFLICT DO NOTHING`);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "ofertas-dump-")), "dump.tar");
  try {
    await handle.dump!(file);
    const copy = await openDatabase({ dataDir: "memory://", from: file });
    try {
      const names = async (db: DatabaseHandle["db"]) =>
        (await query<{ name: string }>(db, sql`SELECT name FROM things WHERE id >= 900 ORDER BY id`)).map((r) => r.name);
      expect(await names(copy.db)).toEqual(["copiada"]);
      await copy.db.execute(sql`INSERT INTO things VALUES (901, 'solo en la copia')`);
      expect(await names(copy.db)).toEqual(["copiada", "solo en la copia"]);
      expect(await names(handle.db)).toEqual(["copiada"]);
    } finally {
      await copy.close();
    }
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
});
