/**
 * A payment provider that does not answer (the third-party server's PayPal stand-in hangs for
 * buyers whose address says so; PAYMENT_TIMEOUT_MS is 2 s there): «Pagar» brings the buyer back to
 * /checkout with the reason and the cart as it was, and the tickets are on sale again at once.
 */
import type { Page } from "@playwright/test";
import { PAYPAL_HANGS_FOR } from "#tests/mocks/paypal";
import { expect, test, uniqueEmail, type OfferSummary } from "../support/fixtures";
import { mockVendors } from "./mock-vendors";
import { toOrderPage } from "./order-page";

const NOT_ANSWERING = "El proveedor de pago no responde. No se te ha cobrado nada. Inténtalo de nuevo.";

// The stock is compared before and after: one journey at a time, on an offer the other journeys
// of this server do not pick (they take the first roomy one).
test.describe.configure({ mode: "serial" });

test.beforeEach(async ({ context }) => {
  await mockVendors(context);
});

async function listing(page: Page): Promise<OfferSummary[]> {
  const response = await page.request.get("/api/v0/public/offers/?page_size=100");
  return ((await response.json()) as { results: OfferSummary[] }).results;
}

async function lastRoomyOffer(page: Page): Promise<OfferSummary> {
  const roomy = (await listing(page)).filter((o) => o.price_options[0].available >= 100 && (o.price_options[0].per_customer ?? 99) >= 3);
  expect(roomy.length).toBeGreaterThan(1);
  return roomy[roomy.length - 1];
}

async function toOrderPageHanging(page: Page, js: boolean): Promise<OfferSummary> {
  const offer = await lastRoomyOffer(page);
  await toOrderPage(page, { js, offer, email: uniqueEmail(PAYPAL_HANGS_FOR) });
  return offer;
}

async function stock(page: Page, offer: OfferSummary): Promise<number> {
  return (await listing(page)).find((o) => o.uuid === offer.uuid)!.price_options[0].available;
}

/** Back on /checkout: the reason, the cart kept, and no ticket held. */
async function expectBackOnCheckout(page: Page, offer: OfferSummary, before: number) {
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByText(NOT_ANSWERING)).toBeVisible();
  await expect(page.getByText(offer.title).first()).toBeVisible();
  expect(await stock(page, offer)).toBe(before);
}

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("PayPal's button with PayPal not answering: back on /checkout with a toast, the cart kept", async ({ page }) => {
    const offer = await toOrderPageHanging(page, true);
    const before = await stock(page, offer);
    await page.getByRole("button", { name: "Pagar con PayPal" }).click();
    await expectBackOnCheckout(page, offer, before);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("«Pagar» with PayPal not answering: back on /checkout with the message in the page, the cart kept", async ({ page }) => {
    const offer = await toOrderPageHanging(page, false);
    const before = await stock(page, offer);
    await page.getByRole("button", { name: "Pagar", exact: true }).click();
    await expectBackOnCheckout(page, offer, before);
  });
});
