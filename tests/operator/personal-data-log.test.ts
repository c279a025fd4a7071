/**
 * The log of a whole journey holds no login code, token, password or address, nor a buyer's
 * invoice data or a payment's transaction id: a customer logs in by a mailed code (no SMTP_URL,
 * so mail is written to DATA_DIR/mail/), logs in by password, buys with an invoice, a second
 * purchase owes a refund, `npm run staff:create` makes a staff account through the control socket,
 * and that account logs in by its code and reads the sales that owe a refund. Every line the
 * process's logger writes, and the command's output, is searched for each value used.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { simpleParser } from "mailparser";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { logger } from "#platform/logger.server";
import type { Config } from "#platform/config.server";
import { createApi } from "#api/index";
import { registerControlCommand } from "#api/control";
import { DEMO_CUSTOMER } from "#api/db/demo-accounts";
import { deliverAll } from "#api/mail/worker";
import type { PaymentProvider } from "#api/payments/types";
import { captureSale } from "#api/services/sales";
import { staffCommand } from "#api/services/staff-accounts";
import { requestLog } from "#server/request-log";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { listen } from "#tests/support/listen";
import { makeOption, newEmail, sandboxAction, startSale, type Option } from "../api/_helpers";

const ROOT = path.resolve(import.meta.dirname, "../..");
const INVOICE = {
  user_fullname: "Begoña Urquiza Lasa",
  user_tax_number: "87654321X",
  user_address: "Avenida de la Gran Vía 61, 48011 Bilbao",
};

const lines: string[] = [];
/** Every value the journey used that no log line may hold. */
const secrets = new Map<string, string>();
const remember = (what: string, value: string) => secrets.set(value, what);

let api: TestApi;
let shop: TestApi;
let config: Config;
let option: Option;
let site: Awaited<ReturnType<typeof listen>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-journey-"));
const restore: (() => void)[] = [];

beforeAll(async () => {
  // The embedded database of this DATA_DIR, owned as a server owns it: staff:create asks it.
  api = await startTestApi(process.env.TEST_DATABASE_URL ? {} : { dataDir });
  config = { ...api.config, dataDir, SMTP_URL: undefined };
  const streamSym = pino.symbols.streamSym as unknown as keyof typeof logger;
  const [stream, level] = [logger[streamSym], logger.level];
  Object.assign(logger, { [streamSym]: { write: (line: string) => lines.push(line) } });
  logger.level = "info";
  restore.push(() => {
    Object.assign(logger, { [streamSym]: stream });
    logger.level = level;
  });
  registerControlCommand(
    "staff-create",
    staffCommand(api.db, config, () => {}),
  );
  const app = express();
  app.use(requestLog);
  app.use("/api/v0", createApi({ db: api.db, config }));
  site = await listen(app);
  shop = { ...api, url: `${site.origin}/api/v0`, origin: site.origin };
  option = await makeOption(api, { available: 20 });
}, 120_000);

afterAll(async () => {
  for (const undo of restore) undo();
  await site?.close();
  await api?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const readMail = new Set<string>();

/** Sends what the outbox holds (as .eml files, the way a shop without SMTP_URL does) and returns the code in a new mail to this address. */
async function mailedCode(email: string): Promise<string> {
  await deliverAll(api.db, config);
  const dir = path.join(dataDir, "mail");
  for (const name of readdirSync(dir)) {
    if (readMail.has(name)) continue;
    const mail = await simpleParser(readFileSync(path.join(dir, name)));
    const to = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    if (to?.value[0]?.address !== email) continue;
    const code = /\b(\d{6})\b/.exec(mail.text ?? "")?.[1];
    if (code && /código/.test(mail.subject ?? "")) {
      readMail.add(name);
      return code;
    }
  }
  throw new Error(`no code mailed to ${email}`);
}

async function logInByCode(email: string) {
  expect((await call(shop, "/verification/send-code/", { body: { email } })).status).toBe(200);
  const code = await mailedCode(email);
  remember("login code", code);
  const login = await call(shop, "/verification/otp-login/", { body: { email, code } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  remember("access token", login.body.access);
  remember("refresh token", login.body.refresh);
  return login.body as { access: string; refresh: string };
}

/** The provider saying it took another amount than the order's: the sale owes the buyer a refund. */
const wrongAmount = new Map<string, PaymentProvider>([
  [
    "sandbox",
    {
      name: "sandbox",
      flow: "hosted",
      createPayment: () => Promise.reject(new Error("not used")),
      capturePayment: async (p) => ({ status: "captured", amountCents: 1, currency: "EUR", providerRef: p.providerRef }),
      verifyWebhook: async () => null,
    },
  ],
]);

it("login by code, purchase, refund, staff:create: no code, token, password or address in the log", async () => {
  // A customer logs in by code, and the demo customer by password.
  const buyer = newEmail("diario");
  remember("customer's address", buyer);
  const tokens = await logInByCode(buyer);
  const refreshed = await call(shop, "/auth/jwt/refresh/", { body: { refresh: tokens.refresh } });
  expect(refreshed.status).toBe(200);
  remember("access token", refreshed.body.access);
  if (refreshed.body.refresh) remember("refresh token", refreshed.body.refresh);
  remember("demo customer's address", DEMO_CUSTOMER.email);
  remember("password", DEMO_CUSTOMER.password);
  const byPassword = await call(shop, "/auth/jwt/create/", { body: { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password } });
  expect(byPassword.status).toBe(200);
  remember("access token", byPassword.body.access);

  // A purchase with an invoice, paid on the sandbox's page and captured; its page reached by its id.
  const auth = { Authorization: `JWT ${refreshed.body.access}` };
  for (const [what, value] of Object.entries(INVOICE)) remember(what, value);
  const validated = await call(shop, "/sales/validate/", {
    headers: auth,
    body: {
      items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email: buyer, need_receipt: true, for_present: [], ...INVOICE },
    },
  });
  expect(validated.status, JSON.stringify(validated.body)).toBe(200);
  remember("checkout session", validated.body.checkout_data.session_token);
  const created = await call(shop, "/sales/create/", {
    headers: auth,
    body: { session_token: validated.body.checkout_data.session_token },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const payment = created.body.payment;
  remember("transaction id", payment.transaction_id);
  expect((await fetch(payment.redirect_url)).status).toBe(200);
  expect((await sandboxAction(payment, "pay")).status).toBe(303);
  const captured = await call(shop, `/sales/capture/${payment.sale_id}/`, {
    headers: auth,
    body: { transaction_id: payment.transaction_id },
  });
  expect(captured.status, JSON.stringify(captured.body)).toBe(200);
  await fetch(`${shop.url}/sales/cancel/${payment.sale_id}/?transaction_id=${payment.transaction_id}`, { method: "POST" });

  // Another buyer's purchase that the provider took the wrong amount for: it owes a refund.
  const owed = newEmail("reembolso");
  remember("refunded buyer's address", owed);
  const second = await startSale(shop, [{ option }], owed);
  remember("transaction id", second.transaction_id);
  await expect(captureSale(api.db, wrongAmount, second.sale_id, second.transaction_id)).rejects.toMatchObject({ status: 409 });

  // The first staff account, by the command an operator runs; it logs in by its code and reads what is owed.
  const staff = newEmail("jefa");
  remember("staff address", staff);
  const command = await new Promise<{ code: number | null; output: string }>((resolve) => {
    // Its log too (without vitest's variables, which silence the logger).
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: "info",
      DATA_DIR: dataDir,
      DATABASE_URL: api.databaseUrl ?? "",
      SMTP_URL: "",
      PUBLIC_URL: "",
      SESSION_SECRET: api.config.sessionSecrets[0],
    };
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/staff-create.ts", "--email", staff], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
  expect(command.code, command.output).toBe(0);
  remember("staff:create's code", await mailedCode(staff));
  const staffTokens = await logInByCode(staff);
  const owing = await call(shop, "/sales/refund_required/", { headers: { Authorization: `JWT ${staffTokens.access}` } });
  expect(owing.status).toBe(200);
  expect(owing.body.results.map((s: { sale_id: string }) => s.sale_id)).toContain(second.sale_id);

  // The log was written (the journey's requests, the mail, the refund), and holds none of it.
  const log = lines.join("");
  expect(log).toMatch(/"msg":"request"/);
  expect(log).toMatch(/Correo guardado en/);
  expect(log).toMatch(/Reembolso pendiente/);
  const leaks = [...secrets].filter(([value]) => log.includes(value) || command.output.includes(value)).map(([, what]) => what);
  expect(leaks).toEqual([]);
}, 240_000);
