import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CATEGORY_MENU } from "#rules/categories";
import { POPULAR_COUNT } from "#rules/constants";
import { OfferListing } from "#app/components/offer-listing";
import { OfferShelf } from "#app/components/offer-shelf";
import { offersApi } from "#app/api-client/client.server";
import { toCard } from "#app/components/offer-card-data";
import { loadListing } from "#app/catalogue/listing.server";
import { readyOrDeferred } from "#app/document/ready-or-deferred.server";
import { originFrom, seo } from "#app/document/seo";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { publicCache: true, favorites: true };
export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo({
    title: "ofertas",
    description: `Descuentos en restaurantes, spas, ocio y viajes${data?.region.value ? ` en ${data.region.label}` : " en toda España"}. Compra tu cupón en línea y disfrútalo.`,
    origin: originFrom(matches),
    path: "/",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await loadListing(request, {}, "mainpage");
  // «Populares ahora» never waits for the API: from memory it is part of the page, otherwise it
  // streams in below the list; a failure is an empty list.
  const popular = await readyOrDeferred(
    offersApi
      .popular({ region: page.region.value, page_size: POPULAR_COUNT })
      .then((r) => r.results.map(toCard))
      .catch(() => []),
  );
  return { ...page, popular };
}

export default function Home() {
  const { region, listing, notice, popular } = useLoaderData<typeof loader>();
  return (
    <>
      <section className="hero">
        <h1>Ofertas irresistibles {region.value ? `en ${region.label}` : "en toda España"}</h1>
        <p>Restaurantes, spas, escapadas y planes con descuento. Compra el cupón y disfrútalo cuando quieras.</p>
      </section>
      <h2 className="section-title">{CATEGORY_MENU[0].label}</h2>
      <OfferListing
        level={3}
        listing={listing}
        empty={notice ?? `Todavía no hay ofertas en ${region.label}. Prueba con otra región o con toda España.`}
      />
      <OfferShelf id="populares-ahora" title="Populares ahora" offers={popular} />
    </>
  );
}
