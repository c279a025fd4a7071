import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OfferGrid } from "#app/components/offer-card";
import { offersApi } from "#app/lib/api.server";
import { toCard } from "#app/lib/offer-card";
import { favorites, getSession } from "#app/lib/session.server";
import { seo } from "#app/lib/seo";
import { skipAfterFailure } from "#app/lib/fetcher-failure";

export const shouldRevalidate = skipAfterFailure;

export const meta: MetaFunction = () => seo({ title: "Favoritos", description: "Las ofertas que has guardado.", noindex: true });

/** Anonymous visitors see the favourites kept in their session (accounts sync them later). */
export async function loader({ request }: LoaderFunctionArgs) {
  const ids = favorites(await getSession(request));
  const offers = await offersApi.selected(ids).then((list) => list.map(toCard)).catch(() => []);
  return { offers };
}

export default function Favorites() {
  const { offers } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Favoritos</h1>
      {offers.length ? (
        <OfferGrid offers={offers} />
      ) : (
        <p className="empty-state">Aún no has guardado ninguna oferta. Cuando una te guste, guárdala para encontrarla aquí.</p>
      )}
    </>
  );
}
