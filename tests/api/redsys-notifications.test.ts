/**
 * Redsys's notification against a real database, red-team style: only a message signed with the
 * shop's key, about one of its orders, for the sale's amount in euros marks a sale paid, once.
 * Forged, replayed, mismatched, late, denied and cancelled notifications are each tried here.
 */
import { eq } from "drizzle-orm";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redsysOrders, webhookEvents } from "#api/db/schema";
import { type TestApi } from "#tests/support/api-server";
import { createRedsysStandIn, forged, notificationFor, redsysHandlers, type RedsysStandIn } from "#tests/mocks/redsys";
import { available, capture, couponCount, expectSpanish, makeOption, newEmail, saleStatus, type Payment } from "./_helpers";
import { notify, postToRedsys, purchaseMails, startRedsysApi, startRedsysSale } from "./_redsys";

let api: TestApi;
let redsys: RedsysStandIn;
const mock = setupServer();

beforeAll(async () => {
  ({ api, redsys } = await startRedsysApi());
  mock.use(...redsysHandlers(redsys));
  mock.listen({ onUnhandledRequest: "bypass" });
});
afterAll(async () => {
  mock.close();
  await api.close();
});

async function openSale(quantity = 1, method?: "card" | "bizum", stock = 10) {
  const option = await makeOption(api, { available: stock, price: "24.50" });
  const payment = await startRedsysSale(api, [{ option, quantity }], newEmail("redsys"), method);
  const order = await postToRedsys(redsys, payment);
  return { option, payment, order };
}

const eventRows = (orderNumber: string) =>
  api.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.provider, "redsys"))
    .then((rows) => rows.filter((r) => r.eventId.startsWith(orderNumber)));

describe("an authorised payment", () => {
  it("card: our signed form is accepted by Redsys, its notification marks the sale paid once, coupons and mail follow", async () => {
    const { option, payment, order } = await openSale(2);
    expect(payment).toMatchObject({ provider: "redsys", flow: "redirect" });
    expect(order.params).toMatchObject({ DS_MERCHANT_AMOUNT: "4900", DS_MERCHANT_CURRENCY: "978", DS_MERCHANT_PAYMETHODS: "C" });
    expect(await available(api, option.uuid)).toBe(8);

    const first = await notify(api, notificationFor(redsys, order, "authorised"));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true });
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await couponCount(api, payment.sale_id)).toBe(2);
    expect(await purchaseMails(api, payment.sale_id)).toBe(1);
    expect(await available(api, option.uuid)).toBe(8);

    // The buyer's return captures nothing new: the same purchase and its coupons.
    const back = await capture(api, payment);
    expect(back.status).toBe(200);
    expect(back.body.items[0].coupons).toHaveLength(2);
  });

  it("Bizum: the form asks Redsys for Bizum only (z), and its authorisation pays the sale", async () => {
    const { payment, order } = await openSale(1, "bizum");
    expect(order.params.DS_MERCHANT_PAYMETHODS).toBe("z");
    expect((await notify(api, notificationFor(redsys, order, "authorised"))).status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await couponCount(api, payment.sale_id)).toBe(1);
  });
});

describe("forged notifications never mark a sale paid", () => {
  it("a changed signature, another key, altered parameters, another version, missing or empty fields → 400, nothing recorded", async () => {
    const { option, payment, order } = await openSale();
    const genuine = notificationFor(redsys, order, "authorised");
    const otherKey = createRedsysStandIn({ secretKey: "Mk9m98IfEblmPfrpsawt7BmxObt98Jev" });
    const params = JSON.parse(Buffer.from(genuine.Ds_MerchantParameters, "base64").toString());
    const attempts: Record<string, string>[] = [
      forged(genuine),
      notificationFor(otherKey, order, "authorised"),
      { ...genuine, Ds_MerchantParameters: Buffer.from(JSON.stringify({ ...params, Ds_Amount: "1" })).toString("base64") },
      { ...genuine, Ds_SignatureVersion: "HMAC_SHA512_V2" },
      { Ds_SignatureVersion: genuine.Ds_SignatureVersion, Ds_MerchantParameters: genuine.Ds_MerchantParameters },
      { Ds_SignatureVersion: "", Ds_MerchantParameters: "", Ds_Signature: "" },
      { ...genuine, Ds_MerchantParameters: "bm8gZXMgSlNPTg==" },
    ];
    for (const fields of attempts) {
      const { status, body } = await notify(api, fields);
      expect(status, JSON.stringify(fields)).toBe(400);
      expectSpanish(body.detail);
    }
    const garbage = await notify(api, { hola: "mundo" });
    expect(garbage.status).toBe(400);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    expect(await couponCount(api, payment.sale_id)).toBe(0);
    expect(await available(api, option.uuid)).toBe(9);
    expect(await eventRows(order.order)).toHaveLength(0);
    const [row] = await api.db.select().from(redsysOrders).where(eq(redsysOrders.orderNumber, order.order));
    expect(row.responseCode).toBeNull();
  });
});

describe("replayed and duplicated notifications are harmless", () => {
  it("the same notification twice: one sale paid, one set of coupons, one mail; the second is a duplicate", async () => {
    const { option, payment, order } = await openSale(3);
    const message = notificationFor(redsys, order, "authorised");
    const [a, b] = await Promise.all([notify(api, message), notify(api, message)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await couponCount(api, payment.sale_id)).toBe(3);
    const again = await notify(api, message);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await couponCount(api, payment.sale_id)).toBe(3);
    expect(await purchaseMails(api, payment.sale_id)).toBe(1);
    expect(await available(api, option.uuid)).toBe(7);
  });

  it("a denial or a cancellation replayed after the authorisation changes nothing", async () => {
    const { option, payment, order } = await openSale();
    await notify(api, notificationFor(redsys, order, "authorised"));
    for (const outcome of ["denied", "cancelled"] as const) {
      expect((await notify(api, notificationFor(redsys, order, outcome))).status).toBe(200);
    }
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await available(api, option.uuid)).toBe(9);
    const [row] = await api.db.select().from(redsysOrders).where(eq(redsysOrders.orderNumber, order.order));
    expect(row.responseCode).toBe(0);
    expect((await capture(api, payment)).status).toBe(200);
  });
});

describe("mismatched notifications", () => {
  it("another amount or another currency, signed by Redsys: never paid; the money is owed back and the tickets are free", async () => {
    for (const changes of [{ Ds_Amount: "100" }, { Ds_Currency: "840" }] as Record<string, string>[]) {
      const { option, payment, order } = await openSale(2);
      const { status, body } = await notify(api, notificationFor(redsys, order, "authorised", changes));
      expect(status).toBe(200);
      expectSpanish(body.detail);
      expect(await saleStatus(api, payment.sale_id), JSON.stringify(changes)).toBe("refund_required");
      expect(await couponCount(api, payment.sale_id)).toBe(0);
      expect(await purchaseMails(api, payment.sale_id)).toBe(0);
      expect(await available(api, option.uuid)).toBe(10);
      expect((await capture(api, payment)).status).toBe(409);
    }
  });

  it("an order we never made, another terminal or merchant, a refund's notification: acknowledged, nothing changes", async () => {
    const { payment, order } = await openSale();
    const stranger = { ...order, order: "9999ZZZZ0000" };
    const answers = await Promise.all([
      notify(api, notificationFor(redsys, stranger, "authorised")),
      notify(api, notificationFor(redsys, order, "authorised", { Ds_Terminal: "002" })),
      notify(api, notificationFor(redsys, order, "authorised", { Ds_MerchantCode: "111111111" })),
      notify(api, notificationFor(redsys, order, "authorised", { Ds_TransactionType: "3" })),
    ]);
    for (const a of answers) expect(a.status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    // Another order's signature on this order's notification is a forgery, not a mismatch.
    const borrowed = {
      ...notificationFor(redsys, order, "authorised"),
      Ds_Signature: notificationFor(redsys, stranger, "authorised").Ds_Signature,
    };
    expect((await notify(api, borrowed)).status).toBe(400);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
  });
});

describe("denied and cancelled", () => {
  it("denied (0190): the sale is declined and its tickets are back at once; the buyer's return says so", async () => {
    const { option, payment, order } = await openSale(2);
    expect((await notify(api, notificationFor(redsys, order, "denied"))).status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("declined");
    expect(await available(api, option.uuid)).toBe(10);
    const back = await capture(api, payment);
    expect(back.status).toBe(402);
    expectSpanish(back.body.detail);
  });

  it("cancelled by the buyer (9915): the sale is cancelled and its tickets are back", async () => {
    const { option, payment, order } = await openSale(2);
    expect((await notify(api, notificationFor(redsys, order, "cancelled"))).status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("cancelled");
    expect(await available(api, option.uuid)).toBe(10);
  });
});

describe("late notifications", () => {
  it("an authorisation after the reservation lapsed: the sale is taken with its tickets when they are left", async () => {
    const { option, payment, order } = await openSale(2);
    await expireNow(payment);
    expect(await available(api, option.uuid)).toBe(10);
    expect((await notify(api, notificationFor(redsys, order, "authorised"))).status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await available(api, option.uuid)).toBe(8);
  });

  it("an authorisation after the buyer's «Cancelar» released the sale: paid if the tickets are left, else owed back", async () => {
    const kept = await openSale(1, "card", 5);
    await cancelOnReturn(kept.payment);
    expect(await notify(api, notificationFor(redsys, kept.order, "authorised"))).toMatchObject({ status: 200 });
    expect(await saleStatus(api, kept.payment.sale_id)).toBe("paid");
    expect(await available(api, kept.option.uuid)).toBe(4);

    const gone = await openSale(2, "card", 3);
    await cancelOnReturn(gone.payment);
    // Others buy the last tickets meanwhile (no one may hold more than half of them unpaid).
    for (const [who, quantity] of [
      ["otro", 2],
      ["otra", 1],
    ] as const) {
      const other = await startRedsysSale(api, [{ option: gone.option, quantity }], newEmail(who));
      await notify(api, notificationFor(redsys, await postToRedsys(redsys, other), "authorised"));
    }
    expect(await available(api, gone.option.uuid)).toBe(0);
    const late = await notify(api, notificationFor(redsys, gone.order, "authorised"));
    expect(late.status).toBe(200);
    expect(await saleStatus(api, gone.payment.sale_id)).toBe("refund_required");
    expect(await couponCount(api, gone.payment.sale_id)).toBe(0);
    expect(await available(api, gone.option.uuid)).toBe(0);
  });

  it("a denial after the sale was released changes nothing", async () => {
    const { option, payment, order } = await openSale();
    await cancelOnReturn(payment);
    expect((await notify(api, notificationFor(redsys, order, "denied"))).status).toBe(200);
    expect(await saleStatus(api, payment.sale_id)).toBe("cancelled");
    expect(await available(api, option.uuid)).toBe(10);
  });
});

async function expireNow(payment: Payment) {
  const { sweepExpiredReservations } = await import("#api/services/sales");
  const { sales } = await import("#api/db/schema");
  await api.db
    .update(sales)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(sales.id, payment.sale_id));
  await sweepExpiredReservations(api.db);
  expect(await saleStatus(api, payment.sale_id)).toBe("expired");
}

/** The buyer's «Cancelar» on Redsys's page, with no signed fields on the way back (URLKO). */
async function cancelOnReturn(payment: Payment) {
  const response = await fetch(`${api.url}/redsys/ko/${payment.transaction_id}/`, { redirect: "manual" });
  await response.text();
  expect(response.status).toBe(303);
  expect(response.headers.get("location")).toMatch(/\/order\/cancel\?transaction_id=[0-9a-f-]+&reason=failed$/);
  expect(await saleStatus(api, payment.sale_id)).toBe("cancelled");
}
