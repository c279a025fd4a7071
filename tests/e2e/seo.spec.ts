import { expect, test } from "./support/fixtures";

test("offer pages carry a canonical link and schema.org JSON-LD", { tag: "@js-covers" }, async ({ page }) => {
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

test(
  "sitemap.xml is an index whose files list the pages and every offer; robots.txt points to it",
  { tag: "@js-covers" },
  async ({ request }) => {
    const index = await request.get("/sitemap.xml");
    expect(index.headers()["content-type"]).toContain("application/xml");
    const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    const files = locs(await index.text());
    expect(files).toEqual(["/sitemaps/paginas.xml", "/sitemaps/ofertas-1.xml"]);
    const [pages, offers] = await Promise.all(files.map(async (path) => (await request.get(path)).text()));
    expect(locs(pages)).toContain("/ofertas/category/restaurants/");
    const { count } = await (await request.get("/api/v0/public/offers/?page_size=1")).json();
    expect(new Set(offers.match(/\/ofertas\/[0-9a-f-]{36}\//g)).size).toBe(count);
    expect((await request.get("/sitemaps/ofertas-2.xml")).status()).toBe(404);
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap\.xml/);
    expect(robots).toContain("Disallow: /checkout");
  },
);
