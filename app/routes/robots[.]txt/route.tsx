import type { LoaderFunctionArgs } from "@remix-run/node";
import { requestOrigin } from "#app/document/origin.server";

export function loader({ request }: LoaderFunctionArgs) {
  const origin = requestOrigin(request);
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /checkout",
    "Disallow: /order",
    "Disallow: /cart",
    "Disallow: /buscar",
    "Disallow: /api/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
