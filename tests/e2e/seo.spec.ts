import { expect, test } from "./fixtures";

test("offer pages carry a canonical link and schema.org JSON-LD", async ({ page }) => {
  const { results } = await (await page.request.get("/api/v0/public/offers/?page_size=1")).json();
  const offer = results[0];
  const response = await page.goto(`/ofertas/${offer.uuid}/`);
  expect(response?.headers()["cache-control"]).toContain("no-store");
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`/ofertas/${offer.uuid}/$`));
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", offer.summary);
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  expect(ld["@type"]).toBe("Product");
  expect(ld.name).toBe(offer.title);
  expect(ld.offers[0]).toMatchObject({ "@type": "Offer", priceCurrency: "EUR" });
});

test("sitemap.xml lists the pages and every offer; robots.txt points to it", async ({ request }) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.headers()["content-type"]).toContain("application/xml");
  const xml = await sitemap.text();
  const { count } = await (await request.get("/api/v0/public/offers/?page_size=1")).json();
  expect(xml.match(/\/ofertas\/[0-9a-f-]{36}\//g)).toHaveLength(count);
  expect(xml).toContain("/ofertas/category/restaurants/");
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap\.xml/);
  expect(robots).toContain("Disallow: /checkout");
});
