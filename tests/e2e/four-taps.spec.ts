/**
 * From an offer page to the payment provider's page on a 375 px phone, the cart empty: at most
 * four taps and one typed email (a logged-in buyer types nothing). Every interaction goes through
 * `tap` or `type` below, so the counts are what a buyer does; scrolling is free, as with a thumb.
 */
import type { Locator, Page } from "@playwright/test";
import { acceptCookies, expect, ready, roomyOffer, test, uniqueEmail } from "./support/fixtures";

test.use({ viewport: { width: 375, height: 740 }, hasTouch: true });

function counter(page: Page) {
  const taps: string[] = [];
  const typed: string[] = [];
  return {
    taps,
    typed,
    tap: async (what: Locator, name: string) => {
      taps.push(name);
      await what.tap();
    },
    type: async (what: Locator, name: string, text: string) => {
      typed.push(name);
      await what.fill(text);
    },
    page,
  };
}

async function offerToProvider(page: Page, js: boolean, email: string | null) {
  const offer = await roomyOffer(page);
  const c = counter(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  // The cookie choice is the site's, made once on a first visit, not the purchase's (the issue's
  // count of 5 leaves it out too): answered before the count starts.
  await acceptCookies(page);
  await c.tap(page.locator("#buy").getByRole("button", { name: "Ir a pagar" }), "Ir a pagar");
  // Counted, not timed: a busy machine may take its time.
  await expect(page).toHaveURL(/\/checkout\/$/, { timeout: 20_000 });
  await ready(page, js);
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();
  const field = page.getByLabel("Correo electrónico");
  if (email) await c.type(field, "Correo electrónico", email);
  else await expect(field).not.toHaveValue("");
  await c.tap(page.getByLabel(/He leído y acepto/), "Acepto");
  // The phone's bar: the total beside the button, in view without scrolling.
  const bar = page.locator(".checkout-bar");
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText(/Total\s*\d+,\d{2}\s€/);
  await c.tap(bar.getByRole("button", { name: "Continuar" }), "Continuar");
  await expect(page).toHaveURL(/\/order\/$/);
  await ready(page, js);
  await c.tap(page.getByRole("button", { name: "Pagar", exact: true }), "Pagar");
  await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
  return c;
}

test("a guest: from the offer to the provider's page in 4 taps and one typed email", async ({ page, js }) => {
  const { taps, typed } = await offerToProvider(page, js, uniqueEmail("cuatro"));
  expect(taps.length, taps.join(" → ")).toBeLessThanOrEqual(4);
  expect(typed).toEqual(["Correo electrónico"]);
});

test("a logged-in buyer: 4 taps and nothing typed", async ({ page, js, newCustomer, loginAs }) => {
  await loginAs(await newCustomer());
  const { taps, typed } = await offerToProvider(page, js, null);
  expect(taps.length, taps.join(" → ")).toBeLessThanOrEqual(4);
  expect(typed).toEqual([]);
});
