import sharp from "sharp";
import { DEMO_PARTNER, DEMO_STAFF } from "#api/db/demo-accounts";
import { addToCart, expect, fillCheckout, openCheckout, ready, test, type OfferSummary } from "./support/fixtures";

/**
 * The partner's whole loop: publish an offer with two price options and a picture, staff approve
 * it, it sells, and the partner redeems a coupon at the till (once).
 */
test("partner publishes, staff approve, a customer buys 2, the partner redeems one coupon once, the buyer's history shows it", async ({
  page,
  browser,
  js,
  newCustomer,
  loginAs,
}, testInfo) => {
  test.setTimeout(120_000);
  const title = `Cata de vinos ${testInfo.project.name} ${Date.now().toString(36)}`;
  await loginAs(DEMO_PARTNER);

  // 1. Create the offer with two price options.
  await page.goto("/socios/ofertas/nueva");
  await ready(page, js);
  const form = page.locator("#offer-form");
  await form.getByLabel("Empresa").selectOption({ index: 1 });
  await form.getByLabel("Título").fill(title);
  await form.getByLabel("Categoría").selectOption("restaurants");
  await form.getByLabel("Provincia").selectOption("Madrid");
  await form.getByLabel("Resumen").fill("Seis vinos de la Ribera con tabla de quesos artesanos.");
  await form.getByLabel("Nombre de la opción 1").fill("Cata para 1");
  await form.getByLabel("Precio de oferta 1 (€)").fill("19,90");
  await form.getByLabel("Precio habitual 1 (€)").fill("35");
  await form.getByLabel("Entradas a la venta 1").fill("40");
  await form.getByLabel("Nombre de la opción 2").fill("Cata para 2");
  await form.getByLabel("Precio de oferta 2 (€)").fill("36");
  await form.getByLabel("Precio habitual 2 (€)").fill("70");
  await form.getByLabel("Entradas a la venta 2").fill("20");
  await form.getByRole("button", { name: "Crear oferta" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const offerId = /\/socios\/ofertas\/([0-9a-f-]{36})/.exec(page.url())![1];

  // 2. A picture: any PNG becomes the WebP cover.
  const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 120, g: 20, b: 40 } } })
    .png()
    .toBuffer();
  await page.getByLabel("Imagen (JPEG, PNG o WebP, hasta 5 MB)").setInputFiles({ name: "cata.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Subir imagen" }).click();
  await expect(page.locator(".image-list").getByText("Portada")).toBeVisible();

  // 3. Submit for review.
  await page.goto("/socios/ofertas");
  await page.getByRole("button", { name: `Enviar a revisión: ${title}` }).click();
  await expect(page.getByRole("row", { name: new RegExp(title) }).getByText("Pendiente de revisión")).toBeVisible();

  // 4. Staff approve it.
  const staffContext = await browser.newContext({ javaScriptEnabled: js, baseURL: testInfo.project.use.baseURL });
  const staff = await staffContext.newPage();
  await loginAs(DEMO_STAFF, staff);
  await staff.goto("/admin");
  await staff.getByRole("button", { name: `Aprobar «${title}»` }).click();
  await expect(staff.getByText("Oferta aprobada y publicada.").first()).toBeVisible();
  await staffContext.close();

  // 5. In the shop: its page and the search.
  const shopper = await browser.newContext({ javaScriptEnabled: js, baseURL: testInfo.project.use.baseURL });
  const shop = await shopper.newPage();
  await shop.goto(`/buscar?q=${encodeURIComponent(title)}`);
  await expect(shop.getByRole("region", { name: "Resultados" }).getByText(title)).toBeVisible();
  await shop.goto(`/ofertas/${offerId}/`);
  await expect(shop.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // 6. A customer with an account buys 2 tickets of «Cata para 1» through the shop's checkout.
  const customer = await newCustomer();
  await loginAs(customer, shop);
  const offer = (await (await shop.request.get(`/api/v0/public/offers/${offerId}/`)).json()) as OfferSummary;
  const cheapest = { ...offer, price_options: offer.price_options.filter((o) => o.title === "Cata para 1") };
  await addToCart(shop, js, cheapest, 2);
  await openCheckout(shop, js);
  await fillCheckout(shop, customer.email);
  await shop.getByRole("button", { name: "Pagar" }).click();
  await expect(shop.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
  await shop.getByRole("button", { name: "Pagar" }).click();
  await expect(shop.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  const coupons = await shop.getByTestId("coupon-code").allTextContents();
  expect(coupons).toHaveLength(2);
  const [code] = coupons;

  // 7. At the till: the code without dashes, «Canjear», and a second press on another phone is refused.
  await page.goto("/socios");
  await ready(page, js);
  const other = await page.context().newPage();
  for (const p of [page, other]) {
    await p.goto("/socios");
    await p.getByLabel("Código del cupón").fill(code.replace(/-/g, "").toLowerCase());
    await p.getByRole("button", { name: "Comprobar" }).click();
    await expect(p.getByText("Cupón válido")).toBeVisible();
    // The customer gave no first name: the option is what the waiter checks against the order.
    await expect(p.locator(".coupon-details")).toContainText("Cata para 1");
  }
  await page.getByRole("button", { name: "Canjear" }).click();
  await expect(page.getByText("Cupón canjeado")).toBeVisible();
  await other.getByRole("button", { name: "Canjear" }).click();
  await expect(other.getByText("Cupón ya canjeado")).toBeVisible();
  await expect(other.getByText(/No se ha vuelto a canjear\. Ya se canjeó el \d+ de \w+ de \d{4}.* por Carmen\./)).toBeVisible();

  // 8. The customer's order history: one coupon redeemed, the other still valid.
  await shop.goto("/order/history");
  const list = shop.getByRole("list", { name: `Cupones de ${title}` });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByRole("listitem").filter({ hasText: code })).toContainText("Canjeado");
  await expect(list.getByRole("listitem").filter({ hasNotText: code })).toContainText("Válido");
  await shopper.close();
});

test("the portals send anonymous visitors to log in and answer 404 to the wrong role", { tag: "@js-covers" }, async ({ page, loginAs }) => {
  await page.goto("/socios/ofertas");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsocios%2Fofertas/);
  await loginAs(DEMO_STAFF);
  expect((await page.goto("/socios"))?.status()).toBe(404);
  await loginAs(DEMO_PARTNER);
  expect((await page.goto("/admin"))?.status()).toBe(404);
  // The camera (QR scanning) is allowed on the partner portal only.
  expect((await page.goto("/socios"))?.headers()["permissions-policy"]).toMatch(/^camera=\(self\)/);
  expect((await page.goto("/"))?.headers()["permissions-policy"]).toMatch(/^camera=\(\)/);
});
