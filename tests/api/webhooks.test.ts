import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEvents } from "#api/db/schema";
import { sandboxSecret } from "#api/payments/registry";
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from "#api/payments/sandbox";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import {
  approveWithoutWebhook,
  available,
  capture,
  couponCount,
  expectSpanish,
  makeOption,
  newEmail,
  saleStatus,
  startSale,
  type Payment,
} from "./_helpers";

let api: TestApi;
let secret: string;
beforeAll(async () => {
  api = await startTestApi();
  secret = sandboxSecret(api.config);
});
afterAll(() => api.close());

let eventSeq = 0;
function event(
  payment: Pick<Payment, "transaction_id">,
  type = "payment.completed",
  id = `evt_test_${++eventSeq}_${payment.transaction_id}`,
) {
  return JSON.stringify({ id, type, transaction_id: payment.transaction_id });
}

function deliver(body: string, signature?: string | null, provider = "sandbox") {
  const headers: Record<string, string> = {};
  if (signature !== null) headers[SANDBOX_SIGNATURE_HEADER] = signature ?? signSandboxPayload(secret, body);
  return call(api, `/${provider}/webhook/`, { method: "POST", body, headers });
}

async function approvedSale(quantity = 1) {
  const option = await makeOption(api, { available: 10 });
  const payment = await startSale(api, [{ option, quantity }], newEmail("webhook"));
  await approveWithoutWebhook(api, payment.transaction_id);
  return { option, payment };
}

describe("POST /sandbox/webhook/", () => {
  it("a signed payment.completed for an approved payment marks the sale paid", async () => {
    const { option, payment } = await approvedSale(2);
    const body = event(payment);
    const first = await deliver(body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true });
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await couponCount(api, payment.sale_id)).toBe(2);
    expect(await available(api, option.uuid)).toBe(8);

    // The same event again: acknowledged as a duplicate, nothing changes.
    const again = await deliver(body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await couponCount(api, payment.sale_id)).toBe(2);
    expect(await available(api, option.uuid)).toBe(8);

    // A different event for the same, already paid payment is harmless too.
    expect((await deliver(event(payment))).status).toBe(200);
    expect(await couponCount(api, payment.sale_id)).toBe(2);

    const purchase = await capture(api, payment);
    expect(purchase.status).toBe(200);
    expect(purchase.body.items[0].coupons).toHaveLength(2);
  });

  it("a signed payment.failed declines the sale and gives the stock back", async () => {
    const option = await makeOption(api, { available: 10 });
    const payment = await startSale(api, [{ option, quantity: 3 }], newEmail("rechazo"));
    expect(await available(api, option.uuid)).toBe(7);
    const { status } = await deliver(event(payment, "payment.failed"));
    expect(status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("declined");
    expect(await available(api, option.uuid)).toBe(10);
  });

  it("payment.completed before the buyer approved is not recorded, so the provider's retry can succeed", async () => {
    const option = await makeOption(api, { available: 10 });
    const payment = await startSale(api, [{ option }], newEmail("pronto"));
    const body = event(payment);
    const early = await deliver(body);
    expect(early.status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    expect(
      await api.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.eventId, JSON.parse(body).id)),
    ).toHaveLength(0);

    await approveWithoutWebhook(api, payment.transaction_id);
    const retry = await deliver(body);
    expect(retry.body).toEqual({ received: true });
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
  });

  it("an event about an unknown transaction or of another type is acknowledged and ignored", async () => {
    const unknown = await deliver(
      JSON.stringify({ id: "evt_unknown_tx", type: "payment.completed", transaction_id: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(unknown.status).toBe(200);
    // Another shop on the same provider account: its reference is not one of our uuids.
    for (const reference of ["pedido-1234", "", 42]) {
      const foreign = await deliver(
        JSON.stringify({ id: `evt_foreign_${String(reference)}`, type: "payment.completed", transaction_id: reference }),
      );
      expect(foreign.status, String(reference)).toBe(200);
    }
    const { payment } = await approvedSale();
    const other = await deliver(event(payment, "payment.refunded"));
    expect(other.status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
  });

  it("a bad signature → 400 and nothing changes", async () => {
    const { option, payment } = await approvedSale();
    const body = event(payment);
    const answers = await Promise.all([
      deliver(body, signSandboxPayload("not-the-secret", body)),
      deliver(body, signSandboxPayload(secret, body.replace("payment.completed", "payment.failed"))),
      deliver(
        body,
        signSandboxPayload(secret, body).replace(/v1=([0-9a-f])/, (_m, c) => `v1=${c === "0" ? "1" : "0"}`),
      ),
      deliver(body, "t=1,v1=zz"),
      deliver(body, "garbage"),
      deliver(body, ""),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(400);
      expectSpanish(a.body.detail);
    }
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    expect(await couponCount(api, payment.sale_id)).toBe(0);
    expect(await available(api, option.uuid)).toBe(9);
    expect(
      await api.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.eventId, JSON.parse(body).id)),
    ).toHaveLength(0);
  });

  it("a missing signature header → 400", async () => {
    const { payment } = await approvedSale();
    const { status, body } = await deliver(event(payment), null);
    expect(status).toBe(400);
    expectSpanish(body.detail);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
  });

  it("a correctly signed but old event → 400 (replay)", async () => {
    const { payment } = await approvedSale();
    const body = event(payment);
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const old = await deliver(body, signSandboxPayload(secret, body, tenMinutesAgo));
    expect(old.status).toBe(400);
    const future = await deliver(body, signSandboxPayload(secret, body, tenMinutesAgo + 1200));
    expect(future.status).toBe(400);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
  });

  it("a signed body that is not JSON or has no event id → 400", async () => {
    for (const body of ["not json", JSON.stringify({ type: "payment.completed" }), ""]) {
      const { status } = await deliver(body);
      expect(status, body).toBe(400);
    }
  });
});

describe("other webhook paths", () => {
  it("an unknown provider → 404", async () => {
    for (const provider of ["stripe", "SANDBOX", "public"]) {
      const { status, body } = await deliver("{}", undefined, provider);
      expect(status, provider).toBe(404);
      expectSpanish(body.detail);
    }
  });

  it("paypal, rapyd and allpay are 404 until their keys are configured", async () => {
    for (const provider of ["paypal", "rapyd", "allpay"]) {
      const { status, body } = await deliver(JSON.stringify({ id: "evt_1", event_type: "PAYMENT.CAPTURE.COMPLETED" }), undefined, provider);
      expect(status, provider).toBe(404);
      expectSpanish(body.detail);
    }
  });

  it("webhooks take POST only", async () => {
    const { status } = await call(api, "/sandbox/webhook/");
    expect(status).toBe(404);
  });
});
