import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CATEGORY_MENU } from "#lib/categories";
import { OfferListing } from "#app/components/offer-listing";
import { loadListing } from "#app/lib/listing.server";
import { originFrom, seo } from "#app/lib/seo";
import { skipAfterFailure } from "#app/lib/fetcher-failure";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { publicCache: true };
export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  seo({
    title: "ofertas",
    description: `Descuentos en restaurantes, spas, ocio y viajes${data?.region.value ? ` en ${data.region.label}` : " en toda España"}. Compra tu cupón en línea y disfrútalo.`,
    origin: originFrom(matches),
    path: "/",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  return loadListing(request, {}, "mainpage");
}

export default function Home() {
  const { region, listing, notice } = useLoaderData<typeof loader>();
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
    </>
  );
}
