import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { WIDGET_OFFER_COUNT } from "#rules/constants";
import { regionFromValue } from "#rules/regions";
import { OfferCard } from "#app/components/offer-card";
import { offersApi } from "#app/api-client/client.server";
import { toCard } from "#app/components/offer-card-data";
import type { RouteHandle } from "#app/root";

/** Bare layout and no JavaScript at all: the widget is links and pictures. */
export const handle: RouteHandle = { bare: true, noScripts: true };

export const meta: MetaFunction = () => [{ title: "Ofertas" }, { name: "robots", content: "noindex" }];

export const headers: HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const region = regionFromValue(url.searchParams.get("region"));
  const category = url.searchParams.get("category");
  const page = await offersApi
    .mainpage({ region: region.value, category: isCategoryId(category) ? category : undefined, page_size: WIDGET_OFFER_COUNT })
    .catch(() => ({ results: [] }));
  return data(
    {
      offers: page.results.slice(0, WIDGET_OFFER_COUNT).map(toCard),
      region,
      category: isCategoryId(category) ? CATEGORY_LABELS[category] : null,
    },
    // Same for every visitor (no cookies read): shared caches may keep it briefly.
    { headers: { "Cache-Control": "public, max-age=120" } },
  );
}

export default function Widget() {
  const { offers, region, category } = useLoaderData<typeof loader>();
  return (
    // Named by its title: a page showing several widgets (as /iframe/routes does) tells them apart.
    <main className="widget" aria-labelledby="widget-title">
      <h1 className="widget-title" id="widget-title">
        <a href="/" target="_blank" rel="noopener">
          ofertas
        </a>{" "}
        {region.value ? `en ${region.label}` : "en España"}
        {category ? ` · ${category}` : null}
      </h1>
      {offers.length ? (
        <div className="widget-grid">
          {offers.map((offer) => (
            <OfferCard key={offer.uuid} offer={offer} target="_blank" />
          ))}
        </div>
      ) : (
        <p>No hay ofertas disponibles ahora mismo.</p>
      )}
      {/* The one script here: it only tells an embedding widget.js how tall this is (no app bundle). */}
      <script src="/widget-frame.js" defer />
    </main>
  );
}
