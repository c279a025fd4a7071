/**
 * The buyer's side of Redsys: the choice of card or Bizum at «Pagar», our page holding the signed
 * form (JavaScript on or off), and the way back from Redsys (URLOK, URLKO), with or without the
 * signed fields Redsys may append to them.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redsysOrders } from "#api/db/schema";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { notificationFor, type RedsysStandIn } from "#tests/mocks/redsys";
import { available, expectSpanish, makeOption, newEmail, saleStatus, sessionFor } from "./_helpers";
import { comeBack, openPayPage, postToRedsys, redsysEnv, startRedsysApi, startRedsysSale } from "./_redsys";

let api: TestApi;
let redsys: RedsysStandIn;
beforeAll(async () => {
  ({ api, redsys } = await startRedsysApi());
});
afterAll(() => api.close());

const option = () => makeOption(api, { available: 10, price: "15.00" });

describe("«Pagar con tarjeta» / «Pagar con Bizum»", () => {
  it("the buyer's choice reaches Redsys; a way of paying the shop does not offer is refused in Spanish, nothing reserved", async () => {
    const o = await option();
    for (const payment_method of ["paypal", "", 3]) {
      const token = await sessionFor(api, [{ option: o }], newEmail("metodo"));
      const { status, body } = await call(api, "/sales/create/", { body: { session_token: token, payment_method } });
      expect(status, String(payment_method)).toBe(400);
      expectSpanish(body.detail);
    }
    expect(await available(api, o.uuid)).toBe(10);
  });

  it("without Bizum on the terminal, «bizum» is refused before anything is reserved", async () => {
    const cardOnly = await startTestApi({ env: { ...redsysEnv(redsys), REDSYS_BIZUM: "0" } });
    try {
      const o = await makeOption(cardOnly, { available: 3 });
      const token = await sessionFor(cardOnly, [{ option: o }], newEmail("sin-bizum"));
      const { status, body } = await call(cardOnly, "/sales/create/", { body: { session_token: token, payment_method: "bizum" } });
      expect(status).toBe(400);
      expect(body.detail).toBe("Esa forma de pago no está disponible. Elige otra para pagar.");
      expect(await available(cardOnly, o.uuid)).toBe(3);
    } finally {
      await cardOnly.close();
    }
  });

  it("back from Redsys, the buyer picks the other way: a new order number for it, and the first one still counts", async () => {
    const o = await option();
    const token = await sessionFor(api, [{ option: o }], newEmail("cambia"));
    const first = (await call(api, "/sales/create/", { body: { session_token: token, payment_method: "card" } })).body.payment;
    const cardOrder = await postToRedsys(redsys, first);
    const again = await call(api, "/sales/create/", { body: { session_token: token, payment_method: "bizum" } });
    expect(again.status).toBe(201);
    expect(again.body.payment.transaction_id).toBe(first.transaction_id);
    expect(again.body.payment.redirect_url).toBe(`${first.redirect_url}?method=bizum`);
    const bizumOrder = await postToRedsys(redsys, again.body.payment);
    expect(bizumOrder.order).not.toBe(cardOrder.order);
    expect(bizumOrder.params.DS_MERCHANT_PAYMETHODS).toBe("z");
    expect(await available(api, o.uuid)).toBe(9);
    // The card was paid in the other tab after all: that is the sale's payment.
    await call(api, "/redsys/webhook/", {
      body: new URLSearchParams(notificationFor(redsys, cardOrder, "authorised")).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(await saleStatus(api, first.sale_id)).toBe("paid");
  });
});

describe("the page holding the signed form", () => {
  it("works without JavaScript: a visible button posts the three fields to Redsys; with it, one hashed script sends it", async () => {
    const payment = await startRedsysSale(api, [{ option: await option(), quantity: 2 }], newEmail("pagina"), "card");
    const page = await openPayPage(payment.redirect_url);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(Object.keys(page.fields).sort()).toEqual(["Ds_MerchantParameters", "Ds_Signature", "Ds_SignatureVersion"]);
    expect(page.html).toContain('<button class="pay" type="submit">Continuar al pago seguro</button>');
    expect(page.html).toContain("<h1>Pagar con tarjeta</h1>");
    expect(page.html).toContain("30,00");
    expect(page.html).toContain('lang="es"');
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain(`form-action ${redsys.apiBase}`);
    const script = /<script>([\s\S]*?)<\/script>/.exec(page.html)![1];
    expect(csp).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    expect(csp).not.toContain("unsafe-inline'; script");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    // Reloading the page shows the same order, signed the same way.
    expect((await openPayPage(payment.redirect_url)).fields).toEqual(page.fields);
  });

  it("a payment no longer open says so; one already paid sends the buyer to their coupons; a stranger's id is 404", async () => {
    const closed = await startRedsysSale(api, [{ option: await option() }], newEmail("cerrado"));
    await comeBack(`${api.url}/redsys/ko/${closed.transaction_id}/`);
    const page = await openPayPage(closed.redirect_url);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Este pago ya no está abierto");
    expect(page.html).not.toContain("realizarPago");

    const paid = await startRedsysSale(api, [{ option: await option() }], newEmail("pagado"));
    const order = await postToRedsys(redsys, paid);
    const ok = await comeBack(`${api.url}/redsys/ok/${paid.transaction_id}/`, notificationFor(redsys, order, "authorised"));
    expect(ok.location).toMatch(/\/order\/success\?transaction_id=/);
    const again = await fetch(paid.redirect_url, { redirect: "manual" });
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(ok.location);

    for (const id of ["00000000-0000-4000-8000-000000000000", "no-es-un-id"]) {
      const response = await fetch(`${api.url}/redsys/pay/${id}/`);
      expect(response.status).toBe(404);
      expectSpanish((await response.json()).detail);
    }
  });
});

describe("the way back from Redsys", () => {
  it("URLOK: to /order/success; with Redsys's signed fields the payment is taken even before its notification", async () => {
    const payment = await startRedsysSale(api, [{ option: await option() }], newEmail("vuelta"));
    const order = await postToRedsys(redsys, payment);
    const plain = await comeBack(`${api.url}/redsys/ok/${payment.transaction_id}/`);
    expect(plain).toEqual({ status: 303, location: `${api.origin}/order/success?transaction_id=${payment.transaction_id}` });
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    const signed = await comeBack(`${api.url}/redsys/ok/${payment.transaction_id}/`, notificationFor(redsys, order, "authorised"));
    expect(signed.location).toBe(plain.location);
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
  });

  it("URLOK with forged fields: the buyer still goes to /order/success, which waits; nothing is paid", async () => {
    const payment = await startRedsysSale(api, [{ option: await option() }], newEmail("falsa"));
    const order = await postToRedsys(redsys, payment);
    const fake = { ...notificationFor(redsys, order, "authorised"), Ds_Signature: "A".repeat(43) + "=" };
    expect((await comeBack(`${api.url}/redsys/ok/${payment.transaction_id}/`, fake)).status).toBe(303);
    expect(await saleStatus(api, payment.sale_id)).toBe("pending");
    const [row] = await api.db.select().from(redsysOrders).where(eq(redsysOrders.orderNumber, order.order));
    expect(row.responseCode).toBeNull();
  });

  it("URLKO: the tickets go back at once and the buyer returns to the cart, told why when Redsys signed it", async () => {
    const cases = [
      { signed: undefined, reason: "failed", status: "cancelled" },
      { signed: "denied", reason: "declined", status: "declined" },
      { signed: "cancelled", reason: "cancelled", status: "cancelled" },
    ] as const;
    for (const c of cases) {
      const o = await option();
      const payment = await startRedsysSale(api, [{ option: o, quantity: 3 }], newEmail("ko"));
      const order = await postToRedsys(redsys, payment);
      expect(await available(api, o.uuid)).toBe(7);
      const back = await comeBack(
        `${api.url}/redsys/ko/${payment.transaction_id}/`,
        c.signed ? notificationFor(redsys, order, c.signed) : undefined,
      );
      expect(back.location, c.reason).toBe(`${api.origin}/order/cancel?transaction_id=${payment.transaction_id}&reason=${c.reason}`);
      expect(await saleStatus(api, payment.sale_id)).toBe(c.status);
      expect(await available(api, o.uuid)).toBe(10);
    }
  });

  it("URLKO for a payment Redsys authorised (paid in another tab): never released, the buyer goes to the coupons", async () => {
    const o = await option();
    const payment = await startRedsysSale(api, [{ option: o }], newEmail("otra-pestana"));
    const order = await postToRedsys(redsys, payment);
    await comeBack(`${api.url}/redsys/ok/${payment.transaction_id}/`, notificationFor(redsys, order, "authorised"));
    const back = await comeBack(`${api.url}/redsys/ko/${payment.transaction_id}/`);
    expect(back.location).toMatch(/\/order\/success\?/);
    expect(await saleStatus(api, payment.sale_id)).toBe("paid");
    expect(await available(api, o.uuid)).toBe(9);
  });
});
