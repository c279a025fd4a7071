// The embedded database on its own thread (see PgliteOnWorker in client.ts for why).
// Plain JavaScript: Node starts a worker from a file, and it must run the same from the sources
// (tests, scripts) and from build/node/, where the build copies it.
import { Blob, Buffer } from "node:buffer";
import { readFileSync, writeFileSync } from "node:fs";
import { TextDecoder, TextEncoder } from "node:util";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, parse, protocol } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { intarray } from "@electric-sql/pglite/contrib/intarray";

const { dataDir, from, database, startParams } = workerData;
/** Texts longer than this cross to the server's thread as UTF-8 bytes (see reply()). */
const LONG_TEXT = 4096;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** text, varchar and bpchar, which PGlite's parsers hand on unchanged. */
const TEXT_TYPES = new Set([25, 1043, 1042]);
const wholeText = (value) => (value instanceof LongText ? value.toString() : value);
const settings = {
  // Search needs unaccent and pg_trgm (migration 0006) and intarray (0013).
  extensions: { pg_trgm, unaccent, intarray },
  database,
  startParams: [...PGlite.defaultStartParams, ...startParams],
  // A cluster dumped by the "dump" operation, instead of initdb (client.ts, OpenOptions.from).
  loadDataDir: from ? new Blob([readFileSync(from)]) : undefined,
};
const db = dataDir ? new PGlite(dataDir, settings) : new PGlite(settings);
// Reported through the "ready" message; unheard here, a failed start would end the thread first.
db.waitReady.catch(() => undefined);

/** Open transactions by the id of the message that began them. */
const transactions = new Map();

// A parser cannot cross threads; the caller names the types to leave as the database wrote them.
const asWritten = (value) => value;
const optionsOf = ({ rowMode, rawTypes }) => ({
  rowMode,
  parsers: rawTypes ? Object.fromEntries(rawTypes.map((oid) => [oid, asWritten])) : undefined,
});

// Only what is not a function crosses: PGlite's DatabaseError carries code, constraint, detail….
function plainError(error) {
  const plain = { message: String(error?.message ?? error), name: error?.name, stack: error?.stack };
  for (const [key, value] of Object.entries(error ?? {})) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) plain[key] = value;
    else if (value instanceof LongText) plain[key] = value.toString(); // a long detail, see sendKeepingLongTexts()
  }
  return plain;
}

/** BEGIN; the transaction stays open until its "end" message commits or rolls it back. */
function begin(id) {
  const open = { tx: null, commit: null, rollback: null, finished: null };
  open.finished = db.transaction(
    (tx) =>
      new Promise((commit, rollback) => {
        Object.assign(open, { tx, commit, rollback });
        transactions.set(id, open);
        parentPort.postMessage({ id, ok: true });
      }),
  );
  // A BEGIN that failed never reached the callback: the begin message gets the error.
  open.finished.catch((error) => {
    if (!open.tx) parentPort.postMessage({ id, ok: false, error: plainError(error) });
  });
}

async function run(message) {
  const { op, tx: txId } = message;
  if (op === "end") {
    const open = transactions.get(txId);
    if (!open) throw new Error("La transacción ya terminó.");
    transactions.delete(txId);
    if (message.commit) {
      open.commit();
      await open.finished; // a failed COMMIT (a serialization failure, say) is the caller's error
    } else {
      open.rollback(new Error("rollback"));
      await open.finished.catch(() => undefined);
    }
    return undefined;
  }
  const on = txId === undefined ? db : transactions.get(txId)?.tx;
  if (!on) throw new Error("La transacción ya terminó.");
  switch (op) {
    case "query":
      if (on === db && READ.test(message.sql)) return prepared(message.sql, message.params ?? [], optionsOf(message));
      return on.query(message.sql, message.params, optionsOf(message));
    case "ready":
      return db.waitReady.then(() => undefined);
    case "dump": {
      // Written out in full, so the copy starts without replaying the log.
      await db.exec("CHECKPOINT");
      // Taken while no transaction is open and no statement runs (PGlite's own two locks), so the
      // copy is one moment of the database even while the server goes on selling.
      const tarball = await db._runExclusiveTransaction(() => db._runExclusiveQuery(() => db.dumpDataDir("none")));
      // A new file only, readable by this user alone: a backup holds every customer's data.
      writeFileSync(message.file, Buffer.from(await tarball.arrayBuffer()), { flag: "wx", mode: 0o600 });
      return undefined;
    }
    case "close":
      return db.close();
    default:
      throw new Error(`Operación desconocida: ${op}`);
  }
}

/**
 * Reads outside a transaction run as named prepared statements, kept by their text (the 64 most
 * recently used). PGlite's query() parses, describes and plans every statement anew, six calls
 * into the WASM; a kept one is bound and executed, three, and after five runs PostgreSQL may keep
 * its plan: listings served markedly more requests per second (ADR 016). Writes, and everything inside
 * a transaction, go through query() as before.
 */
const READ = /^\s*(select|with)\b/i;
const KEPT = 64;
const kept = new Map(); // statement text → { name, paramTypes, rowDescription }
let lastName = 0;
const { serialize } = protocol;
const send = (bytes) => db.execProtocolStream(bytes, { syncToFs: false });

async function prepared(sql, params, options) {
  try {
    return await runKept(sql, params, options);
  } catch (error) {
    // A kept statement whose tables changed shape no longer fits its description (0A000, "cached
    // plan must not change result type"): it has been dropped, and this run goes the plain way.
    if (error?.code !== "0A000") throw error;
    return db.query(sql, params, options);
  }
}

function runKept(sql, params, options) {
  // The same locks, in the same order, as PGlite's own query().
  return db._runExclusiveTransaction(() =>
    db._runExclusiveQuery(async () => {
      let statement = kept.get(sql);
      let stale = false;
      let synced = false;
      const messages = [];
      try {
        if (statement) {
          kept.delete(sql); // back to the end: the least recently used is dropped first
        } else {
          const name = `kept_${++lastName}`;
          await send(serialize.parse({ name, text: sql }));
          const described = await send(serialize.describe({ type: "S", name }));
          statement = {
            name,
            paramTypes: parse.parseDescribeStatementResults(described),
            rowDescription: described.find((m) => m.name === "rowDescription"),
          };
          if (kept.size >= KEPT) {
            const [oldest, { name: dropped }] = kept.entries().next().value;
            kept.delete(oldest);
            await send(serialize.close({ type: "S", name: dropped }));
          }
        }
        kept.set(sql, statement);
        const values = params.map((value, k) => {
          if (value === null || value === undefined) return null;
          const serializer = db.serializers[statement.paramTypes[k]];
          return serializer ? serializer(value) : value.toString();
        });
        if (statement.rowDescription) messages.push(statement.rowDescription);
        // Bind, execute and sync in one call into the WASM, which runs every message it is given:
        // a bind that fails makes PostgreSQL skip the execute up to the sync, and the call throws
        // after the sync has run.
        const run = Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]);
        synced = true;
        messages.push(...(await sendKeepingLongTexts(run)));
      } catch (error) {
        stale = error?.code === "0A000";
        throw Object.assign(error, { query: sql, params });
      } finally {
        if (!synced) await send(serialize.sync());
        if (stale) {
          kept.delete(sql);
          await send(serialize.close({ type: "S", name: statement.name }));
          await send(serialize.sync());
        }
      }
      await db.syncToFs();
      return resultOf(messages, options);
    }),
  );
}

/**
 * The result of one kept statement, as PGlite's parse.parseResults() gives it. That copies all of
 * PGlite's type parsers (hundreds of them) into a new object for every statement: on a listing
 * page, more than the count of the offers. Here the parsers are merged once for each set of types
 * a caller keeps as written.
 */
const mergedParsers = new Map();
function parsersFor(options) {
  const key = options.parsers ? Object.keys(options.parsers).join() : "";
  let parsers = mergedParsers.get(key);
  if (!parsers) mergedParsers.set(key, (parsers = { ...db.parsers, ...options.parsers }));
  return parsers;
}

/**
 * Runs `bytes` with the long values of its rows left as PGlite's parser copied them, UTF-8 in a
 * buffer of their own, instead of decoded. Such a value (a page of cards) crosses to the server's
 * thread as bytes anyway (see reply()), so decoding a page of cards here only to encode them
 * again cost the database's thread a seventh of a listing's time, and made a large two-byte string
 * for its young generation each time.
 *
 * PGlite's parser decodes each value with a TextDecoder of its own, inside the synchronous part of
 * the call into the WASM, and offers no way to ask for bytes: for that moment only, a decode of
 * more than LONG_TEXT bytes hands its input back. Should a later PGlite decode otherwise, values
 * come as text again and reply() encodes them as before.
 */
const decode = TextDecoder.prototype.decode;
let keepLongTexts = false;
TextDecoder.prototype.decode = function (input, options) {
  if (keepLongTexts && input instanceof Uint8Array && input.byteLength > LONG_TEXT && !options?.stream) {
    return new LongText(input.buffer, input.byteOffset, input.byteLength);
  }
  return decode.call(this, input, options);
};

/** Such bytes, read as text wherever PGlite makes a string of them (a long error message). */
class LongText extends Uint8Array {
  toString() {
    return decode.call(decoder, this);
  }
}

function sendKeepingLongTexts(bytes) {
  keepLongTexts = true;
  try {
    return send(bytes);
  } finally {
    keepLongTexts = false;
  }
}

function resultOf(messages, options) {
  const parsers = parsersFor(options);
  let fields = [];
  const rows = [];
  let affectedRows = 0;
  for (const message of messages) {
    if (message.name === "rowDescription") {
      fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
    } else if (message.name === "dataRow") {
      const values = message.fields.map((value, k) => {
        if (value === null) return null;
        const type = fields[k].dataTypeID;
        const parser = parsers[type];
        // Long bytes stay bytes only where the value is the text itself.
        if (value instanceof LongText && (TEXT_TYPES.has(type) || parser === asWritten || !parser)) return value;
        return parser ? parser(wholeText(value), type) : value;
      });
      rows.push(options.rowMode === "array" ? values : Object.fromEntries(fields.map(({ name }, k) => [name, values[k]])));
    } else if (message.name === "commandComplete") {
      const [command, a, b] = message.text.split(" ");
      affectedRows += command === "INSERT" ? Number(b) : ["UPDATE", "DELETE", "COPY", "MERGE"].includes(command) ? Number(a) : 0;
    }
  }
  return { rows, fields, affectedRows };
}

/**
 * Long text values (a page of cards as JSON) cross as UTF-8 bytes in a transferred buffer, and
 * the other side decodes them. V8 reads a message of more than 100 kB straight into its old
 * generation, which only a full collection empties; a text with one accent takes two bytes a
 * character there. The API's default page of 24 cards stays under that, a page of 100 does not;
 * as bytes, a long text leaves a tenth as much in the old generation.
 */
function reply(id, result) {
  const texts = [];
  const buffers = [];
  result?.rows?.forEach((row, r) => {
    for (const key of Object.keys(row)) {
      const value = row[key];
      if (value instanceof LongText) {
        // As PGlite's parser copied it: a buffer of its own, handed over whole.
        row[key] = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? new Uint8Array(value.buffer) : value.slice();
      } else if (typeof value === "string" && value.length > LONG_TEXT) {
        row[key] = encoder.encode(value);
      } else continue;
      texts.push([r, key]);
      buffers.push(row[key].buffer);
    }
  });
  parentPort.postMessage({ id, ok: true, result, texts: texts.length ? texts : undefined }, buffers);
}

parentPort.on("message", (message) => {
  if (message.op === "begin") return begin(message.id);
  run(message).then(
    (result) => reply(message.id, result),
    (error) => parentPort.postMessage({ id: message.id, ok: false, error: plainError(error) }),
  );
});
