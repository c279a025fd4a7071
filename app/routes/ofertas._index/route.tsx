import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ListingControls } from "#app/components/listing-controls";
import { CATEGORY_IDS, CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { OfferListing } from "#app/components/offer-listing";
import { loadListing } from "#app/catalogue/listing.server";
import { originFrom, seo } from "#app/document/seo";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import type { RouteHandle } from "#app/root";
import { countOf } from "#rules/plurals";

export const handle: RouteHandle = { publicCache: true, favorites: true };
export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  seo({
    title: "Ofertas",
    description: "Todas las ofertas con descuento: restaurantes, belleza, ocio, viajes y más. Filtra por categoría y región.",
    origin: originFrom(matches),
    path: "/ofertas/",
    noindex: Boolean(data?.search),
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const param = url.searchParams.get("category");
  const category = isCategoryId(param) ? param : "";
  const listing = await loadListing(request);
  return { ...listing, order: listing.order!, category, regionParam: url.searchParams.get("region") ?? "" };
}

export default function Offers() {
  const { listing, region, search, category, notice, order, regionParam } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Ofertas{region.value ? ` en ${region.label}` : ""}</h1>
      <ListingControls order={order} keep={{ region: regionParam }}>
        <div className="field">
          <label htmlFor="filter-search">Buscar</label>
          <input id="filter-search" name="search" type="search" defaultValue={search} placeholder="Spa, paella, escape room…" />
        </div>
        <div className="field">
          <label htmlFor="filter-category">Categoría</label>
          <select id="filter-category" name="category" defaultValue={category}>
            <option value="">Todas</option>
            {CATEGORY_IDS.map((id) => (
              <option key={id} value={id}>
                {CATEGORY_LABELS[id]}
              </option>
            ))}
          </select>
        </div>
      </ListingControls>
      <p className="muted" aria-live="polite">
        {countOf(listing.count, "oferta", "ofertas")}
      </p>
      <OfferListing listing={listing} empty={notice ?? "No hay ofertas con estos filtros. Prueba con otra búsqueda o región."} />
    </>
  );
}
