import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sitemapFileXml, sitemapFiles, sitemapIndexXml, type ListOffers } from "#app/catalogue/sitemap.server";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { listingOf, locs, offerIds } from "#tests/support/sitemap";

/** The storefront's sitemap, built on the real API's listing; sizes small enough that the demo catalogue needs several files. */
const ORIGIN = "https://ofertas.example";
const SMALL = { pages: 2, pageSize: 7 };
const PER_FILE = SMALL.pages * SMALL.pageSize;

describe("the sitemap index over the demo catalogue", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api?.close());

  it("names as many offers' files as the count needs, and between them every offer once", async () => {
    const all: string[] = (await call(api, "/public/offers/?page_size=100")).body.results.map((o: { uuid: string }) => o.uuid);
    expect(all.length).toBeGreaterThan(2 * PER_FILE);
    const index = await sitemapIndexXml(ORIGIN, listingOf(api), SMALL);
    expect(index).toContain("<sitemapindex");
    const files = locs(index);
    expect(files).toEqual(sitemapFiles(all.length, SMALL).map((f) => `${ORIGIN}/sitemaps/${f}`));
    expect(files).toHaveLength(1 + Math.ceil(all.length / PER_FILE));

    const listed: string[] = [];
    for (const url of files.slice(1)) {
      const xml = await sitemapFileXml(ORIGIN, url.split("/").pop()!, listingOf(api), SMALL);
      const ids = offerIds(xml!);
      expect(ids.length).toBeLessThanOrEqual(PER_FILE);
      listed.push(...ids);
    }
    expect(listed).toEqual(all);

    const pages = locs((await sitemapFileXml(ORIGIN, "paginas.xml", listingOf(api), SMALL))!);
    expect(pages).toContain(`${ORIGIN}/`);
    expect(pages).toContain(`${ORIGIN}/ofertas/category/restaurants/`);
  });

  it.each(["ofertas-6.xml", "ofertas-0.xml", "ofertas-01.xml", "ofertas-1.xml.gz", "ofertas-9999999.xml", "..", "paginas.XML", ""])(
    "a name the index does not list (%j) is not a file",
    async (name) => {
      expect(await sitemapFileXml(ORIGIN, name, listingOf(api), SMALL)).toBeNull();
    },
  );

  it("a file past the last page the API answers is not a file, without asking the API", async () => {
    let asked = 0;
    const counting: ListOffers = async (q) => (asked++, listingOf(api)(q));
    expect(await sitemapFileXml(ORIGIN, "ofertas-201.xml", counting)).toBeNull();
    expect(asked).toBe(0);
  });
});

describe("the sitemap of an empty catalogue", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ seed: false });
  });
  afterAll(() => api?.close());

  it("still has its pages and one empty offers' file", async () => {
    expect(locs(await sitemapIndexXml(ORIGIN, listingOf(api)))).toEqual([
      `${ORIGIN}/sitemaps/paginas.xml`,
      `${ORIGIN}/sitemaps/ofertas-1.xml`,
    ]);
    const xml = await sitemapFileXml(ORIGIN, "ofertas-1.xml", listingOf(api));
    expect(xml).toContain("<urlset");
    expect(locs(xml!)).toEqual([]);
  });
});
