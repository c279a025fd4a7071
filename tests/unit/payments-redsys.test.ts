// @vitest-environment node
/**
 * The Redsys adapter's pure parts: the payment's parameters, what a notification says, and the
 * refund's answer. The whole flow, with the database, is tests/api/redsys.test.ts.
 */
import { describe, expect, it } from "vitest";
import { notificationOf, paymentParameters, refundAnswer } from "#api/payments/redsys";
import { signRequest, verifiedParameters } from "#api/payments/redsys-signature";
import { PaymentProviderError } from "#api/payments/types";
import { paymentInput } from "#tests/support/payment-input";
import { createRedsysStandIn, forged, notificationFor, restAnswer, signAsRedsys, TEST_TERMINAL } from "#tests/mocks/redsys";

const WEBHOOK_URL = "https://ofertas.test/api/v0/redsys/webhook/";
const terminal = { merchantCode: TEST_TERMINAL.merchantCode, terminal: TEST_TERMINAL.terminal };

describe("the payment's parameters", () => {
  it("a card payment: cents, euros (978), type 0, our notification and return routes, Spanish, cards only", () => {
    const input = paymentInput(WEBHOOK_URL, { amountCents: 1999, description: "2 × Cena para dos\nen «La Bodega»" });
    const params = paymentParameters(terminal, input, "card");
    expect(params).toEqual({
      DS_MERCHANT_AMOUNT: "1999",
      DS_MERCHANT_CURRENCY: "978",
      DS_MERCHANT_MERCHANTCODE: "999008881",
      DS_MERCHANT_TERMINAL: "1",
      DS_MERCHANT_TRANSACTIONTYPE: "0",
      DS_MERCHANT_MERCHANTURL: WEBHOOK_URL,
      DS_MERCHANT_URLOK: `https://ofertas.test/api/v0/redsys/ok/${input.transactionId}/`,
      DS_MERCHANT_URLKO: `https://ofertas.test/api/v0/redsys/ko/${input.transactionId}/`,
      DS_MERCHANT_CONSUMERLANGUAGE: "1",
      DS_MERCHANT_PRODUCTDESCRIPTION: "2 x Cena para dos en «La Bodega»",
      DS_MERCHANT_MERCHANTDATA: input.transactionId,
      DS_MERCHANT_PAYMETHODS: "C",
      DS_MERCHANT_TITULAR: "Ana García",
    });
  });

  it("Bizum: DS_MERCHANT_PAYMETHODS z; long texts are cut to Redsys's limits; no holder without a name", () => {
    const params = paymentParameters(terminal, paymentInput(WEBHOOK_URL, { description: "x".repeat(300), fullName: "" }), "bizum");
    expect(params.DS_MERCHANT_PAYMETHODS).toBe("z");
    expect(params.DS_MERCHANT_PRODUCTDESCRIPTION).toHaveLength(125);
    expect(params).not.toHaveProperty("DS_MERCHANT_TITULAR");
  });

  it("refuses what Redsys cannot charge: another currency, no amount, a fraction of a cent", () => {
    for (const overrides of [{ currency: "USD" }, { amountCents: 0 }, { amountCents: 12.5 }, { amountCents: -100 }]) {
      expect(() => paymentParameters(terminal, paymentInput(WEBHOOK_URL, overrides), "card"), JSON.stringify(overrides)).toThrow(
        PaymentProviderError,
      );
    }
  });
});

describe("what a notification says", () => {
  const state = createRedsysStandIn();
  const order = {
    order: "1234ABCD5678",
    params: { DS_MERCHANT_AMOUNT: "2500", DS_MERCHANT_CURRENCY: "978", DS_MERCHANT_MERCHANTDATA: "", DS_MERCHANT_PAYMETHODS: "z" },
    outcome: null,
    refundedCents: 0,
  };
  const read = (fields: ReturnType<typeof signAsRedsys>) => notificationOf(verifiedParameters(state.secretKey, fields)!, terminal);

  it("an authorisation: the order, type 0, the code, the amount in cents, EUR and the authorisation code", () => {
    const said = read(notificationFor(state, order, "authorised", { Ds_AuthorisationCode: "052029" }));
    expect(said).toEqual({
      orderNumber: "1234ABCD5678",
      type: "0",
      code: 0,
      amountCents: 2500,
      currency: "EUR",
      authorisationCode: "052029",
      ours: true,
    });
  });

  it("denied (0190), cancelled (9915), another currency, another terminal or merchant, and a code that is not digits", () => {
    expect(read(notificationFor(state, order, "denied")).code).toBe(190);
    expect(read(notificationFor(state, order, "cancelled")).code).toBe(9915);
    expect(read(notificationFor(state, order, "authorised", { Ds_Currency: "840" })).currency).toBe("840");
    expect(read(notificationFor(state, order, "authorised", { Ds_Terminal: "002" })).ours).toBe(false);
    expect(read(notificationFor(state, order, "authorised", { Ds_MerchantCode: "111111111" })).ours).toBe(false);
    expect(read(notificationFor(state, order, "authorised", { Ds_Terminal: "1e0" })).ours).toBe(false);
    expect(read(notificationFor(state, order, "authorised", { Ds_Response: "OK" })).code).toBeNull();
    expect(read(notificationFor(state, order, "authorised", { Ds_Amount: "25.00" })).amountCents).toBeNull();
  });
});

describe("the refund's answer", () => {
  const state = createRedsysStandIn();
  state.orders.set("5555REFUND01", {
    order: "5555REFUND01",
    params: { DS_MERCHANT_AMOUNT: "3000", DS_MERCHANT_CURRENCY: "978" },
    outcome: "authorised",
    refundedCents: 0,
  });
  // A type-3 request signed as the adapter signs it, answered by the stand-in.
  const ask = (amount: string, order = "5555REFUND01") =>
    restAnswer(
      state,
      signRequest(state.secretKey, {
        DS_MERCHANT_AMOUNT: amount,
        DS_MERCHANT_ORDER: order,
        DS_MERCHANT_MERCHANTCODE: TEST_TERMINAL.merchantCode,
        DS_MERCHANT_CURRENCY: "978",
        DS_MERCHANT_TRANSACTIONTYPE: "3",
        DS_MERCHANT_TERMINAL: TEST_TERMINAL.terminal,
      }),
    );
  const ok = (json: Record<string, unknown>) => ({ status: 200, ok: true, json });

  it("0900 signed by the order's key: refunded, with the amount Redsys gave back", () => {
    expect(refundAnswer(state.secretKey, "5555REFUND01", 1000, ok(ask("1000")))).toEqual({ status: "refunded", amountCents: 1000 });
  });

  it("an error code: refused, naming it; more than is left to give back is one", () => {
    const result = refundAnswer(state.secretKey, "5555REFUND01", 5000, ok(ask("5000")));
    expect(result).toEqual({ status: "refused", reason: "Redsys no ha aceptado la devolución (SIS0057)." });
  });

  it("an answer Redsys would not sign, or about another order: an error, the outcome unknown", () => {
    const answer = ask("500");
    expect(() => refundAnswer(state.secretKey, "5555REFUND01", 500, ok(forged(answer as ReturnType<typeof signAsRedsys>)))).toThrow(
      PaymentProviderError,
    );
    expect(() => refundAnswer(state.secretKey, "5555OTHER001", 500, ok(answer))).toThrow(PaymentProviderError);
    expect(() => refundAnswer(state.secretKey, "5555REFUND01", 500, { status: 502, ok: false, json: null })).toThrow(PaymentProviderError);
  });

  it("a signed answer with another Ds_Response: refused", () => {
    const denied = signAsRedsys(state, { Ds_Order: "5555REFUND01", Ds_Response: "0950", Ds_Amount: "100" });
    expect(refundAnswer(state.secretKey, "5555REFUND01", 100, ok(denied))).toEqual({
      status: "refused",
      reason: "Redsys ha denegado la devolución (Ds_Response 950).",
    });
  });
});
