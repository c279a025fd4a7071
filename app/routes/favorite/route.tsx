import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, type Session } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ANONYMOUS_FAVORITES_MAX } from "#rules/accounts";
import { favoriteToggleSchema } from "./schema";
import type { RouteHandle } from "#app/root";
import { OfferGrid } from "#app/components/offer-card";
import { customerApi, offersApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { syncLocalFavorites, toggleFavorite } from "#app/state/favorites.server";
import { readForm } from "#app/forms/form.server";
import { backTo } from "#app/forms/redirect";
import { finish } from "#app/forms/respond.server";
import { commitSession, favorites, flash, getSession, recentlyViewed } from "#app/state/session.server";
import { toCard, type OfferCardData } from "#app/components/offer-card-data";
import { OfferShelf } from "#app/components/offer-shelf";
import { RECENTLY_VIEWED_SHOWN } from "#rules/constants";
import { seo } from "#app/document/seo";
import { skipAfterFailure, toastOnFailure } from "#app/forms/fetcher-failure";

/** Hearts show on the saved offers or, with none, on the recently viewed ones. */
export const handle: RouteHandle = { favorites: (d) => (d as { hearts?: boolean } | undefined)?.hearts === true };

export const shouldRevalidate = skipAfterFailure;
/** With JS a heart whose post fails is a toast (and goes back as it was), never an error page. */
export const clientAction = toastOnFailure;

export const meta: MetaFunction = () => seo({ title: "Favoritos", description: "Las ofertas que has guardado.", noindex: true });

/**
 * spec section 2: logged in, the favourites kept on this device are first synced to the account
 * (sync-list adds, never drops), then the account's list is shown. Anonymous: the local ones.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (viewer(session)) {
    if (favorites(session).length) {
      await syncLocalFavorites(request, session);
      headers.append("Set-Cookie", await commitSession(session));
    }
    const offers = (await customerApi.favorites(request)).map(toCard);
    return data({ offers, loggedIn: true, recent: recentWhenEmpty(session, offers), hearts: showsHearts(session, offers) }, { headers });
  }
  const offers = await offersApi
    .selected(favorites(session))
    .then((list) => list.map(toCard))
    .catch(() => []);
  return data({ offers, loggedIn: false, recent: recentWhenEmpty(session, offers), hearts: showsHearts(session, offers) }, { headers });
}

function showsHearts(session: Session, offers: OfferCardData[]): boolean {
  return offers.length > 0 || recentlyViewed(session).length > 0;
}

/** An empty list shows «Vistas recientemente» instead: deferred, and [] on any failure. */
function recentWhenEmpty(session: Session, offers: OfferCardData[]): Promise<OfferCardData[]> {
  const ids = offers.length ? [] : recentlyViewed(session).slice(0, RECENTLY_VIEWED_SHOWN);
  return offersApi
    .selected(ids)
    .then((list) => list.map(toCard))
    .catch(() => []);
}

/** The heart of every card and offer page posts here. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const to = backTo(request, formData, "/favorite");
  const parsed = favoriteToggleSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    return finish(request, formData, {
      to,
      toast: { type: "error", text: parsed.error.issues[0]?.message ?? "No hemos entendido la petición." },
    });
  }
  const session = await getSession(request);
  const outcome = await toggleFavorite(request, session, parsed.data.offerUuid.toLowerCase());
  const toast = outcome.error
    ? ({ type: "error", text: outcome.error } as const)
    : ({ type: "success", text: outcome.isFavorite ? "Guardada en favoritos." : "Quitada de favoritos." } as const);
  // The toast travels in the same session cookie as the anonymous favourites: commit them together.
  flash(session, toast);
  return finish(request, formData, { to, headers: { "Set-Cookie": await commitSession(session) } });
}

export default function Favorites() {
  const { offers, loggedIn, recent } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Favoritos</h1>
      {offers.length ? (
        <OfferGrid offers={offers} />
      ) : (
        <div className="empty-state">
          <p>Aún no has guardado ninguna oferta. Pulsa el corazón de una oferta para encontrarla aquí.</p>
          <p>
            <Link to="/ofertas/" className="btn">
              Ver ofertas
            </Link>
          </p>
        </div>
      )}
      {!loggedIn ? (
        <p className="muted">
          Sin cuenta guardamos hasta {ANONYMOUS_FAVORITES_MAX} favoritos en este navegador.{" "}
          <Link to="/login?redirectTo=%2Ffavorite">Entra</Link> para tenerlos en todos tus dispositivos.
        </p>
      ) : null}
      {offers.length ? null : <OfferShelf id="vistas-recientemente" title="Vistas recientemente" offers={recent} />}
    </>
  );
}
