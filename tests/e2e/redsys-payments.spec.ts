/**
 * Paying with Redsys, card and Bizum, in a real browser against a stand-in Redsys
 * (tests/support/redsys-stand-in.ts): its payment page has «Autorizar», «Denegar» and «Cancelar»,
 * signs its notifications and sends them to the shop before sending the buyer back, or after
 * (late). The shop is the compiled server in its own process with PAYMENT_PROVIDER=redsys and
 * Bizum on, started once per project by this file (the suite's own two servers stay as they are).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { startServerProcess } from "#tests/support/server-process";
import { startRedsysStandIn, type RedsysServer } from "#tests/support/redsys-stand-in";
import { notificationFor, postNotification, receivePaymentForm } from "#tests/mocks/redsys";
import { addToCart, expect, fillCheckout, openCheckout, ready, roomyOffer, test as base, uniqueEmail } from "./support/fixtures";
import { DEMO_STAFF } from "./support/auth";
import { E2E_INBOX, E2E_SMTP_PORT, waitForMail } from "./support/mail";

type Shop = { url: string; redsys: RedsysServer };

const test = base.extend<object, { shop: Shop }>({
  shop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern: it has none.
    async ({}, use) => {
      const redsys = await startRedsysStandIn();
      const dataDir = mkdtempSync(path.join(tmpdir(), "ofertas-redsys-"));
      const server = await startServerProcess({
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        PAYMENT_PROVIDER: "redsys",
        REDSYS_MERCHANT_CODE: redsys.state.merchantCode,
        REDSYS_TERMINAL: redsys.state.terminal,
        REDSYS_SECRET_KEY: redsys.state.secretKey,
        REDSYS_ENVIRONMENT: "test",
        REDSYS_API_BASE: redsys.url,
        REDSYS_BIZUM: "1",
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        FEEDBACK_DELAY_DAYS: "0",
        CONTRACT_CHECK: "1",
      });
      try {
        // A fresh database is migrated and seeded first: minutes when the machine is busy.
        await server.waitReady(270_000);
        await use({ url: `http://127.0.0.1:${server.port}`, redsys });
      } finally {
        await server.stop();
        await redsys.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: "worker", timeout: 300_000 },
  ],
  baseURL: async ({ shop }, use) => use(shop.url),
});

// One shop per project: the file's tests run one after another in one worker. Each walks the whole
// purchase, a second site and the mail, on a shop that shares the machine with the suite's two.
test.describe.configure({ mode: "default", timeout: 120_000 });
test.beforeEach(({ shop }) => {
  shop.redsys.state.notifyMode = "normal";
});

const euros = (cents: number) => `${(cents / 100).toFixed(2).replace(".", ",")} €`;

/** Offer → cart → checkout → «Revisa y paga», with `tickets` of a roomy offer. */
async function toPayStep(page: Page, js: boolean, tickets: number) {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, tickets);
  await openCheckout(page, js);
  const email = uniqueEmail("redsys");
  await fillCheckout(page, email);
  await expect(page.getByRole("button", { name: "Pagar con tarjeta" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Pagar con Bizum" })).toBeVisible();
  const total = Math.round(Number(offer.price_options[0].actual_price) * 100) * tickets;
  return { offer, email, total };
}

/**
 * The chosen button, then Redsys's page and the buyer's decision there. Without JavaScript our
 * page with the signed form waits for «Continuar al pago seguro»; with it, the form goes by itself.
 */
async function payOnRedsys(
  page: Page,
  js: boolean,
  method: "tarjeta" | "Bizum",
  decision: "Autorizar" | "Denegar" | "Cancelar",
  total: number,
) {
  await page.getByRole("button", { name: `Pagar con ${method}` }).click();
  if (!js) {
    await expect(page.getByRole("heading", { name: `Pagar con ${method}` })).toBeVisible();
    await expect(page.getByText(euros(total))).toBeVisible();
    await page.getByRole("button", { name: "Continuar al pago seguro" }).click();
  }
  await expect(page.getByRole("heading", { name: /Redsys de pruebas/ })).toBeVisible();
  await expect(page.getByTestId("amount")).toHaveText(euros(total));
  await expect(page.getByTestId("method")).toContainText(method === "Bizum" ? "Bizum" : "Tarjeta");
  const order = (await page.getByTestId("order").textContent()) ?? "";
  await page.getByRole("button", { name: decision, exact: true }).click();
  return order;
}

async function expectCouponsArrive(page: Page, js: boolean, email: string, title: string, tickets: number) {
  await expect(page).toHaveURL(/\/order\/success\?transaction_id=[0-9a-f-]{36}$/);
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect(page.getByText(title)).toBeVisible();
  const codes = await page.getByTestId("coupon-code").allTextContents();
  expect(codes).toHaveLength(tickets);
  const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  for (const code of codes) expect(mail.text).toContain(code);
}

test("pays by card on Redsys; the coupons are on the success page and in the mail", async ({ page, js }) => {
  const { offer, email, total } = await toPayStep(page, js, 2);
  await payOnRedsys(page, js, "tarjeta", "Autorizar", total);
  await expectCouponsArrive(page, js, email, offer.title, 2);
});

test("pays with Bizum on Redsys; the coupons are on the success page and in the mail", async ({ page, js }) => {
  const { offer, email, total } = await toPayStep(page, js, 1);
  await payOnRedsys(page, js, "Bizum", "Autorizar", total);
  await expectCouponsArrive(page, js, email, offer.title, 1);
});

test("a notification that arrives after the buyer: «Estamos confirmando tu pago», then the coupons", async ({ page, js, shop }) => {
  shop.redsys.state.notifyMode = "late";
  const { offer, email, total } = await toPayStep(page, js, 1);
  const order = await payOnRedsys(page, js, "tarjeta", "Autorizar", total);
  await expect(page.getByRole("heading", { name: "Estamos confirmando tu pago" })).toBeVisible();
  // This order's own notification: the shop's stand-in also holds the earlier tests' ones.
  await expect.poll(() => shop.redsys.state.sent.some((s) => s.order === order && s.status === 200), { timeout: 10_000 }).toBe(true);
  await page.getByRole("link", { name: "Comprobar el pago de nuevo" }).click();
  await expectCouponsArrive(page, js, email, offer.title, 1);
});

test("denied on Redsys: back at the cart, told so, and the buyer can pay with Bizum instead", async ({ page, js }) => {
  const { offer, email, total } = await toPayStep(page, js, 1);
  await payOnRedsys(page, js, "tarjeta", "Denegar", total);
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByText(/El pago ha sido rechazado/).first()).toBeVisible();
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await payOnRedsys(page, js, "Bizum", "Autorizar", total);
  await expectCouponsArrive(page, js, email, offer.title, 1);
});

test("cancelled on Redsys's page: back at the cart with «Has cancelado el pago», the tickets free again", async ({ page, js }) => {
  const { offer, total } = await toPayStep(page, js, 3);
  const before = await availableOf(page, offer.uuid);
  await payOnRedsys(page, js, "Bizum", "Cancelar", total);
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByText(/Has cancelado el pago/).first()).toBeVisible();
  expect(await availableOf(page, offer.uuid)).toBe(before);
});

test("staff give back, from /admin/reembolsos, a payment Redsys took for the wrong amount", async ({ page, js, shop, loginAs }) => {
  const { email, orderNumber } = await saleOwingARefund(page, shop);
  await loginAs(DEMO_STAFF);
  await page.goto("/admin/reembolsos");
  await ready(page, js);
  await page.getByRole("link", { name: `Devolver el dinero a ${email}` }).click();
  await expect(page.getByRole("heading", { name: `¿Devolver a ${email} lo que pagó?` })).toBeVisible();
  await page.getByRole("button", { name: "Sí, devolver el dinero" }).click();
  await expect(page.getByText("Devueltos 1,00 € al comprador con redsys.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: `Devolver el dinero a ${email}` })).toHaveCount(0);
  expect(shop.redsys.state.orders.get(orderNumber)?.refundedCents).toBe(100);
});

test("a buyer's «Solicitar devolución» from the mail's link: Redsys gives that coupon's price back and it reads «Devuelto»", async ({
  page,
  js,
  shop,
}) => {
  const { email, orderNumber, price } = await saleOwingARefund(page, shop, { tickets: 2, paid: true });
  const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  const link = /href="(https?:\/\/[^"]*\/order\/coupons\?[^"]*#devolucion)"/.exec(mail.html as string);
  expect(link, "«Solicitar devolución» in the purchase mail").not.toBeNull();
  const url = new URL(link![1].replace(/&amp;/g, "&"));
  await page.goto(`${url.pathname}${url.search}`);
  await ready(page, js);
  const [code, other] = await page.getByTestId("coupon-code").allTextContents();
  const coupon = page.locator(`[id="cupon-${code}"]`);
  await coupon.getByText("Solicitar devolución").click();
  await coupon.getByRole("button", { name: `Confirmar la devolución del cupón ${code}` }).click();
  await expect(page.locator(`[id="cupon-${code}"]`)).toContainText("Devuelto");
  await expect(page.locator(`[id="cupon-${other}"]`)).not.toContainText("Devuelto");
  // One coupon's price, not the whole order's, went back through Redsys's REST refund.
  expect(shop.redsys.state.orders.get(orderNumber)?.refundedCents).toBe(price);
  const told = await waitForMail(E2E_INBOX, email, { subject: /Te hemos devuelto el dinero/ });
  expect((told.text ?? "").replace(/\s+/g, " ")).toContain(`Te hemos devuelto ${euros(price)} del cupón ${code}`);
});

async function availableOf(page: Page, offerId: string): Promise<number> {
  const response = await page.request.get(`/api/v0/public/offers/${offerId}/`);
  return ((await response.json()) as { price_options: { available: number }[] }).price_options[0].available;
}

/**
 * A sale whose payment Redsys authorised for 1,00 € instead of its price, made through the API;
 * with `paid`, for its price: a paid sale of `tickets` coupons.
 */
async function saleOwingARefund(page: Page, shop: Shop, { tickets = 1, paid = false } = {}) {
  const offer = await roomyOffer(page);
  const option = offer.price_options[0];
  const email = uniqueEmail(paid ? "devolucion" : "importe");
  const validated = await page.request.post("/api/v0/sales/validate/", {
    data: {
      items: [{ offer_price_uuid: option.uuid, quantity: tickets, saved_price: option.actual_price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email, need_receipt: false, for_present: [] },
    },
  });
  const token = ((await validated.json()) as { checkout_data: { session_token: string } }).checkout_data.session_token;
  const created = await page.request.post("/api/v0/sales/create/", { data: { session_token: token, payment_method: "card" } });
  const { payment } = (await created.json()) as { payment: { redirect_url: string } };
  const html = await (await page.request.get(payment.redirect_url)).text();
  const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]));
  const order = receivePaymentForm(shop.redsys.state, fields);
  if ("error" in order) throw new Error(order.error);
  if (!paid) order.params.DS_MERCHANT_AMOUNT = "100";
  order.outcome = "authorised";
  expect(await postNotification(shop.redsys.state, order, notificationFor(shop.redsys.state, order, "authorised"))).toBe(200);
  return { email, orderNumber: order.order, price: Math.round(Number(option.actual_price) * 100) };
}
