import { expect, test as base, type Page } from "@playwright/test";

export type OfferSummary = {
  uuid: string;
  title: string;
  region: string;
  price_options: {
    uuid: string;
    title: string;
    actual_price: string;
    regular_price: string;
    available: number;
    per_customer: number | null;
  }[];
  rating?: { average: number; count: number } | null;
};

export const test = base.extend<{ js: boolean }>({
  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },
});
export { expect };

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.es`;
}

/** An offer whose first option has plenty of stock and no tight per-customer limit. */
export async function roomyOffer(page: Page, search?: string): Promise<OfferSummary> {
  const response = await page.request.get(`/api/v0/public/offers/?page_size=100${search ? `&search=${encodeURIComponent(search)}` : ""}`);
  const { results } = (await response.json()) as { results: OfferSummary[] };
  const offer = results.find((o) => o.price_options[0].available >= 100 && (o.price_options[0].per_customer ?? 99) >= 3);
  if (!offer) throw new Error("no roomy offer in the demo catalogue");
  return offer;
}

/** The page has loaded; with JS, React has hydrated too (the layout then marks <html class="js">). */
export async function ready(page: Page, js: boolean) {
  // The stylesheet first: until it has loaded, parts the CSS hides (the phones' buy bar) count as
  // visible, and a form post's new page can be read before it has.
  await page.waitForLoadState("load");
  if (js) await expect(page.locator("html.js")).toHaveCount(1);
}

/**
 * Consent first, so the banner never covers what a test clicks. A choice reloads the page (the
 * consented tools start only from a fresh document): wait for the new document to load, then with
 * JS for its hydration. Waiting only for the banner to go passed on the old page, and the next click
 * landed there and was lost to the reload (seen in CI: «Entrar» clicked, the offer page reloaded).
 */
export async function chooseCookies(page: Page, choice: "Aceptar todo" | "Rechazar todo") {
  const banner = page.getByRole("region", { name: "Tu privacidad" });
  if (await banner.isVisible()) {
    const js = (await page.locator("html.js").count()) > 0;
    const reloaded = page.waitForEvent("load");
    await banner.getByRole("button", { name: choice }).click();
    await reloaded;
    await expect(banner).toBeHidden();
    await ready(page, js);
  }
}

export const acceptCookies = (page: Page) => chooseCookies(page, "Aceptar todo");

/**
 * With JS the cart opens a dropdown with «Ir a pagar» (already open right after an add); without JS
 * the cart is a link to /checkout. Either way the page's title is Spanish.
 */
export async function openCheckout(page: Page, js: boolean) {
  const cart = page.getByRole("link", { name: /^Carrito/ });
  if (!js || !(await page.locator("#cart-panel").isVisible())) await cart.click();
  if (js) {
    await expect(page.getByRole("heading", { name: "Tu carrito" })).toBeVisible();
    await page.locator("#cart-panel").getByRole("link", { name: "Ir a pagar" }).click();
  }
  await expect(page).toHaveURL(/\/checkout\/?$/);
  await expect(page).toHaveTitle("Tu carrito | ofertas");
  await ready(page, js);
}

/** The offer's page, ready (hydrated with JS) and with the cookie choice made. */
export async function openOffer(page: Page, js: boolean, offer: OfferSummary) {
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
}

/** A roomy offer's page (roomyOffer), opened as openOffer does; answers the offer. */
export async function openRoomyOffer(page: Page, js: boolean): Promise<OfferSummary> {
  const offer = await roomyOffer(page);
  await openOffer(page, js, offer);
  return offer;
}

/** Adds tickets of the offer's first option from its page, with JS or without. */
export async function addToCart(page: Page, js: boolean, offer: OfferSummary, tickets: number) {
  await openOffer(page, js, offer);
  await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill(String(tickets));
  // On a phone the sticky bar repeats the button: the box's comes first.
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByText("Añadido al carrito.")).toBeVisible();
  // With JS the cart panel opens, «Ir a pagar» focused; without JS the page comes back at the box.
  if (js) await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/$`));
  if (js) await expect(page.locator("#cart-panel").getByRole("link", { name: "Ir a pagar" })).toBeFocused();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText(String(tickets));
}

/** Email, agreement, "Continuar": lands on the payment step. */
export async function fillCheckout(page: Page, email: string) {
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/order\/$/);
  await expect(page.getByRole("heading", { name: "Revisa y paga" })).toBeVisible();
  await expect(page).toHaveTitle("Revisa y paga | ofertas");
}
