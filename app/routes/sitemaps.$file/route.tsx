import type { LoaderFunctionArgs } from "@remix-run/node";
import { offersApi } from "#app/api-client/client.server";
import { requestOrigin } from "#app/document/origin.server";
import { SITEMAP_HEADERS, sitemapFileXml } from "#app/catalogue/sitemap.server";

/** A file of the sitemap index: `paginas.xml` or `ofertas-N.xml`; any other name is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const xml = await sitemapFileXml(requestOrigin(request), params.file ?? "", offersApi.list);
  if (xml === null) return new Response("No encontrado", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(xml, { headers: SITEMAP_HEADERS });
}
