import { CATEGORY_IDS } from "#rules/categories";
import { PAGE_MAX, PAGE_SIZE_MAX } from "#rules/constants";
import type { OfferSummary, Page } from "#contract/offers";
import { escapeHtml } from "#rules/text";

/*
 * The sitemap is an index of files, so that every offer is in one at any catalogue size: the
 * protocol caps a file at 50,000 URLs, and one file of every offer took one API call per 100
 * offers in a single request. Each offers' file is a fixed run of the catalogue's listing order,
 * 50 API pages of 100, so any one file costs the same at 60 offers as at 100,000.
 */
const PAGES_PER_SITEMAP = 50;
export const OFFERS_PER_SITEMAP = PAGES_PER_SITEMAP * PAGE_SIZE_MAX;

const STATIC_PATHS = ["/", "/ofertas/", "/contacts", "/agreement", "/marketing-agreement", "/privacy-policy", "/cookie-policy"];

export type ListOffers = (query: { page: number; page_size: number }) => Promise<Page<OfferSummary>>;
/** A file of offers is this many pages of the API's listing, of this size. */
export type SitemapSizes = { pages: number; pageSize: number };
const SIZES: SitemapSizes = { pages: PAGES_PER_SITEMAP, pageSize: PAGE_SIZE_MAX };

export const SITEMAP_HEADERS = { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" };

/** The file names the index lists: the shop's own pages, then `ofertas-1.xml`… as the count needs. */
export function sitemapFiles(offerCount: number, sizes: SitemapSizes = SIZES): string[] {
  const offerFiles = Math.max(1, Math.ceil(offerCount / (sizes.pages * sizes.pageSize)));
  return ["paginas.xml", ...Array.from({ length: offerFiles }, (_, i) => `ofertas-${i + 1}.xml`)];
}

const urlset = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => `  <url><loc>${escapeHtml(origin + p)}</loc></url>`)
    .join("\n")}\n</urlset>\n`;

export async function sitemapIndexXml(origin: string, list: ListOffers, sizes: SitemapSizes = SIZES): Promise<string> {
  const { count } = await list({ page: 1, page_size: 1 });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemapFiles(
    count,
    sizes,
  )
    .map((file) => `  <sitemap><loc>${escapeHtml(`${origin}/sitemaps/${file}`)}</loc></sitemap>`)
    .join("\n")}\n</sitemapindex>\n`;
}

/** One file of the index, or null for a name it does not list (the route answers 404). */
export async function sitemapFileXml(origin: string, file: string, list: ListOffers, sizes: SitemapSizes = SIZES): Promise<string | null> {
  if (file === "paginas.xml") return urlset(origin, [...STATIC_PATHS, ...CATEGORY_IDS.map((id) => `/ofertas/category/${id}/`)]);
  const n = /^ofertas-([1-9]\d{0,5})\.xml$/.exec(file)?.[1];
  if (!n) return null;
  const firstPage = (Number(n) - 1) * sizes.pages + 1;
  if (firstPage > PAGE_MAX) return null;
  const paths: string[] = [];
  for (let page = firstPage; page < firstPage + sizes.pages && page <= PAGE_MAX; page++) {
    const result = await list({ page, page_size: sizes.pageSize });
    paths.push(...result.results.map((o) => `/ofertas/${o.uuid}/`));
    if (!result.next) break;
  }
  // The first file exists even for an empty catalogue; a later one only if it has offers.
  if (paths.length === 0 && n !== "1") return null;
  return urlset(origin, paths);
}
