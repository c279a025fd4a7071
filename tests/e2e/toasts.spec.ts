/**
 * Messages are said once, where they belong. A refused promo code is said under its field: without
 * JS the page comes back at that field (#descuentos), not at its top; with JS no toast repeats it.
 * The offer's «Añadido» bar that comes with a page is not repeated by a toast when the app starts.
 */
import type { Page } from "@playwright/test";
import { addToCart, expect, openCheckout, roomyOffer, acceptCookies, test } from "./support/fixtures";
import { holdScripts, openHeld } from "./support/held-scripts";

test.use({ viewport: { width: 375, height: 740 } });

const toasts = (page: Page) => page.locator("[data-toast-region] [role=status]");

/** The toaster has loaded (it does once the browser is idle after the app starts), so a toast would show by now. */
async function toasterLoaded(page: Page) {
  await expect(page.locator("[data-toast-region] > div")).toHaveCount(1);
  await page.waitForTimeout(500);
}

test("a refused promo code: without JS the page comes back at the field; with JS it is said there and in no toast", async ({
  page,
  js,
}) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  // Toasts pause while the window has no focus: what shows stays until this test has read it.
  if (js) await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  const field = page.getByLabel("Código promocional");
  await field.fill("NOEXISTE");
  await page.getByRole("button", { name: "Aplicar" }).click();
  const message = "El código promocional «NOEXISTE» no existe.";
  await expect(page.locator("#promo_code-error")).toHaveText(message);
  await expect(field).toHaveValue(/^noexiste$/i);
  if (!js) {
    await expect(page).toHaveURL(/\/checkout\/#descuentos$/);
    await expect(field).toBeInViewport();
    // Not the top of the page: the cart's lines are above the field on a phone.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    return;
  }
  await expect(page).toHaveURL(/\/checkout\/$/);
  // A code that applies brings its toast: the refused one's is not beside it.
  await field.fill("BIENVENIDA10");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(toasts(page)).toHaveText(["Código «BIENVENIDA10» aplicado."]);
});

test("the offer's «Añadido» bar that comes with the page is not repeated by a toast as the app starts", async ({ page, js }) => {
  test.skip(!js, "without JavaScript there are no toasts");
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await acceptCookies(page);
  const gap = await holdScripts(page);
  await openHeld(page, `/ofertas/${offer.uuid}/`);
  // A plain form post before the app starts: the answer is a page with the bar.
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.locator(".added-bar")).toContainText("Añadido al carrito.");
  await gap.release();
  await toasterLoaded(page);
  await expect(page.locator(".added-bar")).toContainText("Añadido al carrito.");
  await expect(toasts(page)).toHaveCount(0);
});

test("a toast never covers a form's errors: «Continuar» refused, the toasts leave for «Revisa estos datos»", async ({ page, js }) => {
  test.skip(!js, "without JavaScript there are no toasts");
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  await page.evaluate(() => window.dispatchEvent(new Event("blur")));
  await page.getByLabel("Código promocional").fill("BIENVENIDA10");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(toasts(page)).toHaveText(["Código «BIENVENIDA10» aplicado."]);
  // Nothing filled in: the form's errors, summarised and focused.
  await page.locator(".checkout-bar").getByRole("button", { name: "Continuar" }).click();
  await expect(page.locator("#checkout-errors")).toBeFocused();
  await expect(toasts(page)).toHaveCount(0);
});
