/**
 * Giving a sale's money back through Redsys's REST interface (transaction type 3), as the staff
 * refund page does: once, for what Redsys actually charged, with Redsys's refusal or silence told
 * in Spanish and kept on record.
 */
import { eq } from "drizzle-orm";
import { http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { saleRefunds } from "#api/db/schema";
import { call, type TestApi } from "#tests/support/api-server";
import { notificationFor, redsysHandlers, type RedsysStandIn, type StandInOrder } from "#tests/mocks/redsys";
import { expectSpanish, makeOption, newEmail, saleStatus, type Payment } from "./_helpers";
import { notify, postToRedsys, startRedsysApi, startRedsysSale, tokenFor } from "./_redsys";

const mock = setupServer();
let api: TestApi;
let redsys: RedsysStandIn;
let staff: Record<string, string>;

beforeAll(async () => {
  ({ api, redsys } = await startRedsysApi({ PAYMENT_TIMEOUT_MS: "400" }));
  mock.listen({ onUnhandledRequest: "bypass" });
  staff = await tokenFor(api, "staff");
});
afterEach(() => mock.resetHandlers());
afterAll(async () => {
  mock.close();
  await api.close();
});

/** A sale Redsys charged 1,00 € for instead of its 20,00 €: it owes the buyer that euro. */
async function owingSale(): Promise<{ payment: Payment; order: StandInOrder }> {
  const option = await makeOption(api, { available: 5, price: "20.00" });
  const payment = await startRedsysSale(api, [{ option }], newEmail("reembolso"));
  const order = await postToRedsys(redsys, payment);
  order.params.DS_MERCHANT_AMOUNT = "100";
  order.outcome = "authorised";
  await notify(api, notificationFor(redsys, order, "authorised"));
  expect(await saleStatus(api, payment.sale_id)).toBe("refund_required");
  return { payment, order };
}

const refund = (saleId: string, headers = staff) => call(api, `/sales/refund/${saleId}/`, { method: "POST", headers });
const attempts = (saleId: string) => api.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId));

describe("POST /sales/refund/{id}/ through Redsys", () => {
  it("refunds what Redsys charged, once, with a signed type-3 request; the sale reads «refunded»", async () => {
    mock.use(...redsysHandlers(redsys));
    const { payment, order } = await owingSale();
    const listed = await call(api, "/sales/refund_required/?page_size=100", { headers: staff });
    expect(listed.body.results.find((s: { sale_id: string }) => s.sale_id === payment.sale_id)).toMatchObject({
      provider: "redsys",
      can_refund: true,
      last_attempt: null,
    });

    const { status, body } = await refund(payment.sale_id);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ sale_id: payment.sale_id, status: "refunded", refunded: "1.00" });
    expectSpanish(body.detail);
    expect(redsys.restCalls.at(-1)).toEqual({
      params: {
        DS_MERCHANT_AMOUNT: "100",
        DS_MERCHANT_ORDER: order.order,
        DS_MERCHANT_MERCHANTCODE: redsys.merchantCode,
        DS_MERCHANT_CURRENCY: "978",
        DS_MERCHANT_TRANSACTIONTYPE: "3",
        DS_MERCHANT_TERMINAL: redsys.terminal,
      },
      refused: null,
    });
    expect(order.refundedCents).toBe(100);
    expect(await saleStatus(api, payment.sale_id)).toBe("refunded");
    expect(await attempts(payment.sale_id)).toMatchObject([{ status: "refunded", refundedCents: 100, provider: "redsys" }]);

    const again = await refund(payment.sale_id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("Esta venta ya está reembolsada.");
    expect(order.refundedCents).toBe(100);
    const after = await call(api, "/sales/refund_required/?page_size=100", { headers: staff });
    expect(after.body.results.some((s: { sale_id: string }) => s.sale_id === payment.sale_id)).toBe(false);
  });

  it("two clicks at once send one request to Redsys", async () => {
    mock.use(...redsysHandlers(redsys));
    const { payment, order } = await owingSale();
    const calls = redsys.restCalls.length;
    const answers = await Promise.all([refund(payment.sale_id), refund(payment.sale_id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(redsys.restCalls.length - calls).toBe(1);
    expect(order.refundedCents).toBe(100);
  });

  it("Redsys refuses (SIS0057: more than is left): 409 in Spanish, the sale still owes it, the attempt is on the list", async () => {
    mock.use(...redsysHandlers(redsys));
    const { payment, order } = await owingSale();
    order.refundedCents = 100; // given back by hand in Redsys's panel meanwhile
    const { status, body } = await refund(payment.sale_id);
    expect(status).toBe(409);
    expect(body.detail).toContain("SIS0057");
    expect(body.detail).toContain("compruébalo en el panel de Redsys");
    expect(await saleStatus(api, payment.sale_id)).toBe("refund_required");
    const listed = await call(api, "/sales/refund_required/?page_size=100", { headers: staff });
    expect(listed.body.results.find((s: { sale_id: string }) => s.sale_id === payment.sale_id).last_attempt).toMatchObject({
      status: "refused",
    });
  });

  it("Redsys does not answer within PAYMENT_TIMEOUT_MS: 504, recorded as unknown, and the next click may ask again", async () => {
    const { payment } = await owingSale();
    mock.use(http.post(`${redsys.apiBase}/sis/rest/trataPeticionREST`, () => new Promise<never>(() => {})));
    const started = Date.now();
    const { status, body } = await refund(payment.sale_id);
    expect(status).toBe(504);
    expect(Date.now() - started).toBeLessThan(3000);
    expectSpanish(body.detail);
    expect(await attempts(payment.sale_id)).toMatchObject([{ status: "unknown" }]);
    mock.resetHandlers();
    mock.use(...redsysHandlers(redsys));
    expect((await refund(payment.sale_id)).status).toBe(200);
  });

  it("a sale that owes nothing, an unknown or malformed id; customers and strangers are refused", async () => {
    mock.use(...redsysHandlers(redsys));
    const option = await makeOption(api, { available: 5 });
    const paid = await startRedsysSale(api, [{ option }], newEmail("pagada"));
    await notify(api, notificationFor(redsys, await postToRedsys(redsys, paid), "authorised"));
    const owes = await owingSale();
    const cases: [string, Record<string, string>, number][] = [
      [paid.sale_id, staff, 409],
      ["00000000-0000-4000-8000-000000000000", staff, 404],
      ["no-es-un-id", staff, 400],
      [owes.payment.sale_id, await tokenFor(api, "customer"), 403],
      [owes.payment.sale_id, {}, 401],
    ];
    for (const [id, headers, expected] of cases) {
      const { status, body } = await refund(id, headers);
      expect(status, `${id} ${JSON.stringify(headers)}`).toBe(expected);
      expectSpanish(body.detail);
    }
    expect(await saleStatus(api, owes.payment.sale_id)).toBe("refund_required");
    expect(owes.order.refundedCents).toBe(0);
  });
});
