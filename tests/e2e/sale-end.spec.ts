import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { addDays, madridDate } from "#rules/dates";
import { saleEndText } from "#rules/sale-end";
import { acceptCookies, expect, ready, test } from "./support/fixtures";
import { partnerOffer, proposeChange } from "./support/partner-fixtures";

test.use({ viewport: { width: 375, height: 740 } });

/**
 * A sale end date: the partner sets it in the offer's form, the offer's page says it (the day the
 * partner chose, no countdown), and once it has passed the offer cannot be added to the cart nor
 * found, until its partner sets a later date.
 */
test("a partner's sale end shows on the offer's page, and after it the offer cannot be bought", async ({
  page,
  browser,
  js,
  loginAs,
}, testInfo) => {
  test.setTimeout(90_000);
  const offer = await partnerOffer(page.request, `Paseo en velero ${testInfo.project.name} ${Date.now().toString(36)}`, { active: true });
  const today = madridDate(new Date());
  const until = addDays(today, 3);

  await loginAs(DEMO_PARTNER);
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);
  const form = page.locator("#offer-form");
  await form.getByLabel("A la venta hasta").fill(until);
  await form.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByText("Cambios guardados.").first()).toBeVisible();
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await expect(page.locator("#offer-form").getByLabel("A la venta hasta")).toHaveValue(until);

  const shopper = await browser.newContext({
    javaScriptEnabled: js,
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: 375, height: 740 },
  });
  const shop = await shopper.newPage();
  await shop.goto(`/ofertas/${offer.uuid}/`);
  await ready(shop, js);
  await acceptCookies(shop);
  const line = saleEndText(until, today);
  expect(line).toMatch(/^A la venta hasta el \p{L}+, 23:59$/u);
  await expect(shop.getByText(line)).toBeVisible();
  // Real urgency only: no countdown anywhere on the page.
  await expect(shop.getByText(/quedan \d+ (horas|minutos)|\d{2}:\d{2}:\d{2}/)).toHaveCount(0);

  const searched = async () => {
    await shop.goto(`/buscar?q=${encodeURIComponent(offer.title)}`);
    // The results come with the page (server-rendered), with or without JavaScript.
    await expect(shop.getByRole("heading", { name: "Buscar ofertas", level: 1 })).toBeVisible();
    return shop.locator("main article.card").filter({ hasText: offer.title });
  };
  await expect(await searched()).toHaveCount(1);

  // Yesterday was the last day: the page says so, and the cart refuses it.
  await proposeChange(page.request, offer.uuid, { sale_until: addDays(today, -1) });
  await shop.goto(`/ofertas/${offer.uuid}/`);
  await ready(shop, js);
  await expect(shop.getByText(/^Ya no está a la venta: terminó el/)).toBeVisible();
  await shop.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
  await shop.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(shop.getByText(`La oferta «${offer.title}» ya no está a la venta: terminó su plazo de venta.`).first()).toBeVisible();
  await expect(shop.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveCount(0);
  // Search, like the listings, finds it no more.
  await expect(await searched()).toHaveCount(0);
  await shopper.close();

  // The partner sees why, and a later date puts it back on sale.
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await ready(page, js);
  await expect(page.locator(".status-pill")).toHaveText("Venta terminada");
  await expect(page.getByText(/Su plazo de venta terminó y ya no sale en la tienda/)).toBeVisible();
  await form.getByLabel("A la venta hasta").fill(until);
  await form.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByText("Cambios guardados.").first()).toBeVisible();
  await page.goto(`/socios/ofertas/${offer.uuid}`);
  await expect(page.locator(".status-pill")).toHaveText("Activa");
});
