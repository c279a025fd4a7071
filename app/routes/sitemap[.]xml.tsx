import type { LoaderFunctionArgs } from "@remix-run/node";
import { CATEGORY_IDS } from "#lib/categories";
import { PAGE_SIZE_MAX } from "#lib/constants";
import { offersApi } from "#app/lib/api.server";
import { requestOrigin } from "#app/lib/origin.server";

const STATIC_PATHS = ["/", "/ofertas/", "/contacts", "/agreement", "/marketing-agreement", "/privacy-policy", "/cookie-policy"];

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = requestOrigin(request);
  const paths = [...STATIC_PATHS, ...CATEGORY_IDS.map((id) => `/ofertas/category/${id}/`)];
  for (let page = 1; page <= 50; page++) {
    const result = await offersApi.list({ page, page_size: PAGE_SIZE_MAX });
    paths.push(...result.results.map((o) => `/ofertas/${o.uuid}/`));
    if (!result.next) break;
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${paths
    .map((p) => `  <url><loc>${origin}${p}</loc></url>`)
    .join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
