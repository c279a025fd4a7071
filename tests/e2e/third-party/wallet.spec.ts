/**
 * The wallet variant (PAYMENT_PROVIDER=paypal on the third-party server): with JavaScript, /order/
 * shows PayPal's JS SDK buttons, loaded on that page only; without JavaScript, or when the SDK
 * cannot load, the «Pagar» form (the redirect flow) stays. PayPal's host is intercepted.
 */
import type { Page } from "@playwright/test";
import { expect, roomyOffer, test, uniqueEmail } from "../support/fixtures";
import { mockVendors, type Vendors } from "./mock-vendors";
import { toOrderPage as toOrderPageOf } from "./order-page";

let vendors: Vendors;
test.beforeEach(async ({ context }) => {
  vendors = await mockVendors(context);
});

async function toOrderPage(page: Page, js: boolean, consent: "Rechazar todo" | "Aceptar todo" = "Rechazar todo") {
  await toOrderPageOf(page, { js, offer: await roomyOffer(page), email: uniqueEmail("wallet"), consent });
}

const sdkRequests = (v: Vendors) => v.requests.filter((r) => r.url().startsWith("https://www.paypal.com/sdk/js"));

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });

  test("/order/ shows PayPal's buttons from its JS SDK, loaded on that page only", async ({ page }) => {
    await toOrderPage(page, true);
    await expect(page.getByRole("button", { name: "Pagar con PayPal" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pagar", exact: true })).toBeHidden();
    const [sdk] = sdkRequests(vendors);
    const url = new URL(sdk.url());
    expect(url.searchParams.get("client-id")).toBe("e2e-paypal-client-id");
    expect(url.searchParams.get("currency")).toBe("EUR");
    expect(url.searchParams.get("locale")).toBe("es_ES");
    // Only /order/ asked for it: every earlier page of the journey made no PayPal request.
    expect(sdkRequests(vendors)).toHaveLength(1);
    expect(vendors.requests.every((r) => new URL(r.url()).hostname === "www.paypal.com")).toBe(true);
  });

  test("with analytics consent, the payment form carries the browser's analytics device id", async ({ page }) => {
    await toOrderPage(page, true, "Aceptar todo");
    // Added by the consented tools' script, so the server's purchase event joins this session.
    const input = page.locator("form input[name=analytics_device_id]");
    await expect(input).toHaveValue(/^[\w.:-]{5,100}$/);
    const stored = await page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([k]) => k.startsWith("AMP_"))
        .map(([, v]) => v)
        .join(" "),
    );
    expect(stored).toContain(await input.inputValue());
  });

  test("when the SDK cannot load, the «Pagar» redirect form stays", async ({ page }) => {
    vendors.paypalDown = true;
    await toOrderPage(page, true);
    await expect.poll(() => sdkRequests(vendors).length).toBe(1);
    await expect(page.getByRole("button", { name: "Pagar", exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pagar con PayPal" })).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("/order/ keeps the «Pagar» form and loads nothing from PayPal", async ({ page }) => {
    await toOrderPage(page, false);
    await expect(page.getByRole("button", { name: "Pagar", exact: true })).toBeVisible();
    expect(vendors.requests).toEqual([]);
  });
});
