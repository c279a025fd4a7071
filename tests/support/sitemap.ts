import { expect } from "vitest";
import type { ListOffers } from "#app/catalogue/sitemap.server";
import { call, type TestApi } from "./api-server";

/** The sitemap's listing, asked of a test API over HTTP as the storefront asks its own. */
export const listingOf =
  (api: TestApi): ListOffers =>
  async (query) => {
    const res = await call(api, `/public/offers/?page=${query.page}&page_size=${query.page_size}`);
    expect(res.status).toBe(200);
    return res.body;
  };
/** Every `<loc>` of a sitemap or an index, in order. */
export const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
/** The offers a sitemap file names, in its order. */
export const offerIds = (xml: string) => locs(xml).flatMap((url) => /\/ofertas\/([0-9a-f-]{36})\/$/.exec(url)?.[1] ?? []);
