/**
 * A database write that fails while a buyer checks out with invoice data: the error report (a
 * stand-in Sentry) and the log name the SQLSTATE and the statement, never the buyer's name, tax
 * number, street address or email, whether the request ends in a 500 or, with the database
 * refusing work, in a 503.
 */
import express from "express";
import pino from "pino";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logger } from "#platform/logger.server";
import { loadConfig } from "#platform/config.server";
import { flushErrorReports, startErrorReporting } from "#platform/error-reporting.server";
import { createApi } from "#api/index";
import { requestLog } from "#server/request-log";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { listen } from "#tests/support/listen";
import { startSentryStandIn, type SentryStandIn } from "#tests/support/sentry";
import { makeOption, newEmail, type Option } from "./_helpers";

const BUYER = {
  user_fullname: "Lucía Fernández Ocaña",
  user_tax_number: "12345678Z",
  user_address: "Calle del Pez 27, 3º B, 28004 Madrid",
};

let api: TestApi;
let sentry: SentryStandIn;
let site: Awaited<ReturnType<typeof listen>>;
let shop: TestApi;
let option: Option;
const lines: string[] = [];
const restore: (() => void)[] = [];

beforeAll(async () => {
  api = await startTestApi();
  sentry = await startSentryStandIn();
  await startErrorReporting(
    loadConfig({
      NODE_ENV: "test",
      SESSION_SECRET: api.config.sessionSecrets[0],
      DATA_DIR: "/tmp/ofertas-test-unused",
      SENTRY_DSN: sentry.dsn,
    }),
  );
  // The process's own logger, its lines kept here as they would be written.
  const streamSym = pino.symbols.streamSym as unknown as keyof typeof logger;
  const [stream, level] = [logger[streamSym], logger.level];
  Object.assign(logger, { [streamSym]: { write: (line: string) => lines.push(line) } });
  logger.level = "info";
  restore.push(() => {
    Object.assign(logger, { [streamSym]: stream });
    logger.level = level;
  });
  // As server.ts mounts it, with the API's own error log (logRequestError).
  const app = express();
  app.use(requestLog);
  app.use("/api/v0", createApi({ db: api.db, config: api.config }));
  site = await listen(app);
  shop = { ...api, url: `${site.origin}/api/v0`, origin: site.origin };
  option = await makeOption(api, { available: 50 });
});
afterAll(async () => {
  for (const undo of restore) undo();
  await site?.close();
  await sentry?.close();
  await api?.close();
});

/** validate (fine), then create, whose INSERT INTO sales the database refuses. */
async function failingCreate(email: string) {
  const { status, body } = await call(shop, "/sales/validate/", {
    body: {
      items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email, need_receipt: true, for_present: [], ...BUYER },
    },
  });
  expect(status, JSON.stringify(body)).toBe(200);
  return call(shop, "/sales/create/", { body: { session_token: body.checkout_data.session_token } });
}

function expectNothingPersonal(text: string, email: string) {
  for (const value of [BUYER.user_fullname, "Fernández", BUYER.user_tax_number, "Calle del Pez", "28004", email]) {
    expect(text, value).not.toContain(value);
  }
  expect(text).not.toContain("params:");
}

describe("a failed write during checkout", () => {
  it("a constraint failure (500): the report and the log say SQLSTATE and statement, no invoice data", async () => {
    await api.db.execute(sql`ALTER TABLE sales ADD CONSTRAINT sales_refused_by_test CHECK (false) NOT VALID`);
    try {
      const email = newEmail("factura");
      const answer = await failingCreate(email);
      expect(answer.status).toBe(500);
      await flushErrorReports(5_000);
      const [event] = await sentry.waitForEvents(1);
      const raw = sentry.envelopes.map((e) => e.raw).join("\n");
      expectNothingPersonal(raw, email);
      expect(event.exception?.values?.at(-1)?.value).toMatch(
        /Consulta fallida \(insert into sales\): SQLSTATE 23514, restricción sales_refused_by_test/,
      );

      // The error's one record (the request's own line carries no error).
      const records = lines.filter((line) => line.includes('"level":50') && line.includes('"err"'));
      expect(records).toHaveLength(1);
      expectNothingPersonal(lines.join("\n"), email);
      const record = JSON.parse(records[0]) as { err: { message: string; stack: string; code: string; statement: string } };
      expect(record.err).toMatchObject({ code: "23514", statement: "insert into sales", constraint: "sales_refused_by_test" });
      expect(record.err.stack).toMatch(/^DatabaseError: Consulta fallida/);
      expect(record.err.stack).toMatch(/\n\s+at /);
    } finally {
      await api.db.execute(sql`ALTER TABLE sales DROP CONSTRAINT sales_refused_by_test`);
    }
  });

  it("the database refusing work (503): the log record holds no invoice data either", async () => {
    // A statement cancelled as a timeout cancels it (57014), with the row in its detail as PostgreSQL gives it.
    await api.db.execute(
      sql.raw(`CREATE FUNCTION refuse_sale() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = '57014', DETAIL = NEW::text; END $$`),
    );
    await api.db.execute(sql`CREATE TRIGGER refuse_sale BEFORE INSERT ON sales FOR EACH ROW EXECUTE FUNCTION refuse_sale()`);
    try {
      const before = lines.length;
      const email = newEmail("caida");
      const answer = await failingCreate(email);
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBeTruthy();
      const written = lines.slice(before).join("\n");
      expectNothingPersonal(written, email);
      expect(written).toMatch(/SQLSTATE 57014/);
    } finally {
      await api.db.execute(sql`DROP TRIGGER refuse_sale ON sales`);
      await api.db.execute(sql`DROP FUNCTION refuse_sale()`);
    }
  });
});
