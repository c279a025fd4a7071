/**
 * The API on Redsys, against the stand-in of tests/mocks/redsys.ts: msw answers its REST endpoint;
 * the buyer's browser is played by reading our payment page and handing its form to the stand-in;
 * Redsys's notifications are posted to /redsys/webhook/ as it posts them (form-encoded).
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { mailOutbox, users } from "#api/db/schema";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { createRedsysStandIn, receivePaymentForm, type RedsysStandIn, type SignedFields, type StandInOrder } from "#tests/mocks/redsys";
import { sessionFor, type Line, type Payment } from "./_helpers";

export const redsysEnv = (state: RedsysStandIn, extra: Record<string, string> = {}) => ({
  PAYMENT_PROVIDER: "redsys",
  REDSYS_MERCHANT_CODE: state.merchantCode,
  REDSYS_TERMINAL: state.terminal,
  REDSYS_SECRET_KEY: state.secretKey,
  REDSYS_ENVIRONMENT: "test",
  REDSYS_API_BASE: state.apiBase,
  REDSYS_BIZUM: "1",
  ...extra,
});

export async function startRedsysApi(extra: Record<string, string> = {}): Promise<{ api: TestApi; redsys: RedsysStandIn }> {
  const redsys = createRedsysStandIn({ apiBase: "https://sis-t.redsys.test" });
  const api = await startTestApi({ env: redsysEnv(redsys, extra) });
  return { api, redsys };
}

/** «Pagar con tarjeta» / «Pagar con Bizum»: the sale and its payment. */
export async function startRedsysSale(api: TestApi, lines: Line[], email: string, method?: "card" | "bizum"): Promise<Payment> {
  const token = await sessionFor(api, lines, email);
  const { status, body } = await call(api, "/sales/create/", {
    body: { session_token: token, ...(method ? { payment_method: method } : {}) },
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.payment;
}

export type PayPage = { status: number; html: string; action: string; fields: Record<string, string>; headers: Headers };

/** Our page holding the signed form (the payment's redirect_url). */
export async function openPayPage(url: string): Promise<PayPage> {
  const response = await fetch(url, { redirect: "manual" });
  const html = await response.text();
  const action = /<form id="pay" method="post" action="([^"]+)"/.exec(html)?.[1] ?? "";
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2].replace(/&#(\d+);/g, (_e, code: string) => String.fromCharCode(Number(code))),
    ]),
  );
  return { status: response.status, html, action, fields, headers: response.headers };
}

/** The buyer's browser posts our form to Redsys: the stand-in checks its signature and opens the order. */
export async function postToRedsys(redsys: RedsysStandIn, payment: Payment): Promise<StandInOrder> {
  const page = await openPayPage(payment.redirect_url);
  expect(page.status, page.html).toBe(200);
  expect(page.action).toBe(`${redsys.apiBase}/sis/realizarPago`);
  const order = receivePaymentForm(redsys, page.fields);
  if ("error" in order) throw new Error(`Redsys refused our form: ${order.error}`);
  return order;
}

/** Redsys's notification arriving at /redsys/webhook/. */
export function notify(api: TestApi, fields: SignedFields | Record<string, string>) {
  return call(api, "/redsys/webhook/", {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
}

/** The buyer's return from Redsys (URLOK or URLKO), with the signed fields Redsys may append. */
export async function comeBack(url: string, signed?: SignedFields): Promise<{ status: number; location: string }> {
  const target = signed ? `${url}?${new URLSearchParams(signed)}` : url;
  const response = await fetch(target, { redirect: "manual" });
  await response.text();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

export async function purchaseMails(api: TestApi, saleId: string): Promise<number> {
  const rows = await api.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, "purchase-confirmation"), eq(mailOutbox.dedupeKey, `purchase:${saleId}`)));
  return rows.length;
}

/** A staff member's (or a customer's) access token, for the staff refund route. */
export async function tokenFor(api: TestApi, role: "staff" | "customer"): Promise<Record<string, string>> {
  const email = `${role}.${randomUUID().slice(0, 8)}@correo.es`;
  await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, role, firstName: role, emailVerifiedAt: new Date() });
  const login = await call(api, "/auth/jwt/create/", { body: { email, password: DEMO_PASSWORD } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { authorization: `JWT ${login.body.access}` };
}
