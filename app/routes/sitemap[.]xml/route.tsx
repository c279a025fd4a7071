import type { LoaderFunctionArgs } from "@remix-run/node";
import { offersApi } from "#app/api-client/client.server";
import { requestOrigin } from "#app/document/origin.server";
import { SITEMAP_HEADERS, sitemapIndexXml } from "#app/catalogue/sitemap.server";

/** The index robots.txt names: one file of the shop's pages and as many of offers as the catalogue needs. */
export async function loader({ request }: LoaderFunctionArgs) {
  return new Response(await sitemapIndexXml(requestOrigin(request), offersApi.list), { headers: SITEMAP_HEADERS });
}
