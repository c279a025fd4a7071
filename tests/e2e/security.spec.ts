import { expect, test } from "./fixtures";

test("a tampered or unreadable cookie reads as an empty cart, never a 500", async ({ browser, baseURL }) => {
  const context = await browser.newContext();
  const host = new URL(baseURL!).hostname;
  await context.addCookies([
    { name: "__cart", value: "eyJ2IjoxLCJpIjpbXX0%3D.forged-signature", domain: host, path: "/" },
    { name: "__session", value: "%%%not-base64%%%", domain: host, path: "/" },
    { name: "__checkout", value: "garbage", domain: host, path: "/" },
  ]);
  const page = await context.newPage();
  const response = await page.goto("/checkout/");
  expect(response?.status()).toBe(200);
  await expect(page.getByText("Tu carrito de compras está vacío")).toBeVisible();
  expect((await page.goto("/order/"))?.url()).toMatch(/\/checkout\/$/);
  await context.close();
});

test("forms posted from another site are refused before any action runs", async ({ request }) => {
  const foreign = await request.post("/cart", {
    form: { intent: "clear" },
    headers: { "Sec-Fetch-Site": "cross-site" },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  const badOrigin = await request.post("/region", { form: { region: "Madrid" }, headers: { Origin: "http://evil.example" }, maxRedirects: 0 });
  expect(badOrigin.status()).toBe(403);
  const ours = await request.post("/region", { form: { region: "Madrid" }, headers: { "Sec-Fetch-Site": "same-origin" }, maxRedirects: 0 });
  expect(ours.status()).toBe(303);
});
