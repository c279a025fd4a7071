import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { OfferListing } from "#app/components/offer-listing";
import { ListingControls } from "#app/components/listing-controls";
import { countOf } from "#rules/plurals";
import { loadListing } from "#app/catalogue/listing.server";
import { originFrom, seo } from "#app/document/seo";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { publicCache: true, favorites: true };
export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  data
    ? seo({
        title: `${data.label}${data.region.value ? ` en ${data.region.label}` : ""}`,
        description: `Ofertas de ${data.label.toLowerCase()} con descuento${data.region.value ? ` en ${data.region.label}` : " en toda España"}.`,
        origin: originFrom(matches),
        path: `/ofertas/category/${data.categoryId}/`,
      })
    : [{ title: "Categoría no encontrada | ofertas" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const categoryId = params.categoryId;
  if (!isCategoryId(categoryId)) {
    throw new Response("Categoría no encontrada", { status: 404 });
  }
  const listing = await loadListing(request, { category: categoryId });
  const search = new URL(request.url).searchParams;
  return { ...listing, order: listing.order!, regionParam: search.get("region") ?? "", categoryId, label: CATEGORY_LABELS[categoryId] };
}

export default function Category() {
  const { listing, region, label, notice, order, regionParam } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>
        {label}
        {region.value ? ` en ${region.label}` : ""}
      </h1>
      <ListingControls order={order} keep={{ region: regionParam }} />
      <p className="muted listing-count" aria-live="polite">
        {countOf(listing.count, "oferta", "ofertas")}
      </p>
      <OfferListing listing={listing} empty={notice ?? `No hay ofertas de ${label.toLowerCase()} en ${region.label} ahora mismo.`} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="error-page">
      <h1>{notFound ? "Esta categoría no existe" : "No hemos podido cargar esta categoría"}</h1>
      <p>{notFound ? "Revisa la dirección o elige una de nuestras categorías." : "Inténtalo de nuevo en unos minutos."}</p>
      <p>
        <Link to="/ofertas/" className="btn">
          Ver todas las ofertas
        </Link>
      </p>
    </div>
  );
}
