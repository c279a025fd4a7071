/**
 * «Solicitar devolución» on a phone, with JavaScript on and off: from the purchase mail's link
 * (a guest) and from «Mis pedidos» (an account), the money goes back through the shop's stand-in
 * provider (the sandbox; Redsys's is in redsys-payments.spec.ts) and the coupon reads «Devuelto»
 * on the page, in the mail and on the PDF; a coupon redeemed meanwhile is refused in words.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { pdfText } from "../support/pdf";
import { expect, ready, roomyOffer, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test.use({ viewport: { width: 375, height: 800 } });

type Option = { uuid: string; actual_price: string };
type Bought = { saleId: string; sig: string; codes: string[] };

/** A paid purchase made through the API as another client would (the checkout's journey is tested elsewhere). */
async function buy(request: APIRequestContext, option: Option, email: string, quantity: number, token?: string): Promise<Bought> {
  const headers: Record<string, string> = token ? { Authorization: `JWT ${token}` } : {};
  const validated = await request.post("/api/v0/sales/validate/", {
    data: {
      items: [{ offer_price_uuid: option.uuid, quantity, saved_price: option.actual_price, slot_id: null, promo_codes: [] }],
      checkout_data: { subs_agreement: true, email, need_receipt: false, for_present: [] },
    },
    headers,
  });
  const session = ((await validated.json()) as { checkout_data: { session_token: string } }).checkout_data.session_token;
  const created = await request.post("/api/v0/sales/create/", { data: { session_token: session }, headers });
  expect(created.status(), await created.text()).toBe(201);
  const { payment } = (await created.json()) as { payment: { sale_id: string; transaction_id: string; redirect_url: string } };
  await request.post(payment.redirect_url, { form: { action: "pay" }, maxRedirects: 0 });
  const captured = await request.post(`/api/v0/sales/capture/${payment.sale_id}/`, { data: { transaction_id: payment.transaction_id } });
  expect(captured.status()).toBe(200);
  const body = (await captured.json()) as { coupons_sig: string; items: { coupons: string[] }[] };
  return { saleId: payment.sale_id, sig: body.coupons_sig, codes: body.items[0].coupons };
}

async function tokenOf(request: APIRequestContext, creds: { email: string; password: string }): Promise<string> {
  const login = await request.post("/api/v0/auth/jwt/create/", { data: creds });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { access: string }).access;
}

const euros = (price: string) => `${price.replace(".", ",")}\u00a0€`;
/** A mail's plain text wraps at 78 columns: compared with single spaces. */
const words = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");

/** «Solicitar devolución» under the coupon, then the confirmation's button. */
async function askRefund(page: Page, code: string) {
  const coupon = page.locator(`[id="cupon-${code}"]`);
  await coupon.getByText("Solicitar devolución").click();
  await coupon.getByRole("button", { name: `Confirmar la devolución del cupón ${code}` }).click();
  await page.waitForLoadState("load");
}

test("a guest, from the mail's link: the money goes back and the coupon reads «Devuelto» on the page, in the mail and on the PDF", async ({
  page,
  js,
}) => {
  const option = (await roomyOffer(page)).price_options[0];
  const email = uniqueEmail(`devolucion-${js ? "js" : "nojs"}`);
  const bought = await buy(page.request, option, email, 2);
  const [code, other] = bought.codes;

  const purchaseMail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  expect(words(purchaseMail.text)).toContain("tienes 14 días desde la compra para pedir que te devolvamos el dinero");
  const link = /href="(https?:\/\/[^"]*\/order\/coupons\?[^"]*#devolucion)"[^>]*>\s*Solicitar devolución/.exec(purchaseMail.html as string);
  expect(link, "«Solicitar devolución» in the purchase mail").not.toBeNull();
  const url = new URL(link![1].replace(/&amp;/g, "&"));
  await page.goto(`${url.pathname}${url.search}`);
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();

  await askRefund(page, code);
  const refunded = page.locator(`[id="cupon-${code}"]`);
  await expect(refunded).toContainText("Devuelto");
  await expect(refunded.getByTestId("refund-note")).toContainText(`Te hemos devuelto ${euros(option.actual_price)} del cupón ${code}`);
  await expect(refunded.getByRole("img", { name: `Código QR del cupón ${code}` })).toHaveCount(0);
  await expect(page.getByRole("status").or(page.getByRole("alert")).filter({ hasText: "Te hemos devuelto" }).first()).toBeVisible();
  // The other coupon is untouched and can still be asked for.
  await expect(page.locator(`[id="cupon-${other}"]`).getByText("Solicitar devolución")).toBeVisible();

  const refundMail = await waitForMail(E2E_INBOX, email, { subject: /Te hemos devuelto el dinero/ });
  expect(refundMail.subject).toContain(code);
  expect(words(refundMail.text)).toContain(words(`Te hemos devuelto ${euros(option.actual_price)} del cupón ${code}`));

  const pdf = await page.request.get(`/order/coupon-pdf?${new URLSearchParams({ sale: bought.saleId, sig: bought.sig })}`);
  const text = await pdfText(await pdf.body());
  expect(text).toMatch(new RegExp(`DEVUELTO[\\s\\S]*${code}`));

  // Asking again (a reload of the form, a second tab) changes nothing and says so.
  const again = await page.request.post(`/api/v0/sales/purchase/${bought.saleId}/refund/`, { data: { coupon: code, sig: bought.sig } });
  expect(((await again.json()) as { outcome: string }).outcome).toBe("refunded");
});

test("a coupon redeemed at the till after the page opened is refused with a clear message", async ({ page, js, browser, loginAs }) => {
  // Two browsers (the buyer's and the till's) and a login: more than one page's time on a busy machine.
  test.setTimeout(90_000);
  const partner = await tokenOf(page.request, DEMO_PARTNER);
  const mine = await page.request.get("/api/v0/offers/?page_size=100", { headers: { Authorization: `JWT ${partner}` } });
  const offers = (
    (await mine.json()) as { results: { status: string; sale_until: string | null; price_options: (Option & { available: number })[] }[] }
  ).results;
  const option = offers
    // Not one whose sale has an end (another spec ends one in the past).
    .filter((o) => o.status === "active" && !o.sale_until)
    .flatMap((o) => o.price_options)
    .find((p) => p.available >= 10);
  expect(option, "an active offer of the demo partner with stock").toBeTruthy();
  const bought = await buy(page.request, option!, uniqueEmail(`canjeado-${js ? "js" : "nojs"}`), 1);
  const code = bought.codes[0];
  await page.goto(`/order/coupons?${new URLSearchParams({ sale: bought.saleId, sig: bought.sig })}`);
  await ready(page, js);
  await expect(page.locator(`[id="cupon-${code}"]`).getByText("Solicitar devolución")).toBeVisible();

  // The partner redeems it at the till, in a browser of their own.
  const tillContext = await browser.newContext();
  const till = await tillContext.newPage();
  await loginAs(DEMO_PARTNER, till);
  await till.goto("/socios");
  await till.getByLabel("Código del cupón").fill(code);
  await till.getByRole("button", { name: "Comprobar" }).click();
  await expect(till.getByText("Cupón válido")).toBeVisible();
  await till.getByRole("button", { name: "Canjear" }).click();
  await expect(till.getByText("Cupón canjeado")).toBeVisible();
  await tillContext.close();

  await askRefund(page, code);
  await expect(page.getByText("Este cupón ya se ha canjeado: no se puede devolver.").first()).toBeVisible();
  const coupon = page.locator(`[id="cupon-${code}"]`);
  await expect(coupon).toContainText("Canjeado");
  await expect(coupon).not.toContainText("Devuelto");
});

test("a buyer with an account, on «Mis pedidos»: the coupon reads «Devuelto»", async ({ page, js, newCustomer, loginAs }) => {
  const creds = await newCustomer();
  const token = await tokenOf(page.request, creds);
  const option = (await roomyOffer(page)).price_options[0];
  const bought = await buy(page.request, option, creds.email, 1, token);
  const code = bought.codes[0];
  await loginAs(creds);
  await page.goto("/order/history");
  await ready(page, js);
  await askRefund(page, code);
  await expect(page).toHaveURL(/\/order\/history/);
  const row = page.locator(`[id="cupon-${code}"]`);
  await expect(row).toContainText("Devuelto");
  await expect(row.getByTestId("refund-note")).toContainText(`Te hemos devuelto ${euros(option.actual_price)}`);
  await expect(row.getByText("Solicitar devolución")).toHaveCount(0);
  await waitForMail(E2E_INBOX, creds.email, { subject: /Te hemos devuelto el dinero/ });
});
