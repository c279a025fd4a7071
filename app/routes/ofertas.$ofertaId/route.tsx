import { data, redirect, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, Link, useLoaderData, useRouteError, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { CATEGORY_LABELS, isCategoryId } from "#rules/categories";
import { formatDate, madridDate } from "#rules/dates";
import { saleEndText } from "#rules/sale-end";
import { photoSrcset } from "#rules/images";
import { toCents } from "#rules/prices";
import { isUuid } from "#rules/uuid";
import type { RouteHandle } from "#app/root";
import { OfferGrid } from "#app/components/offer-card";
import { RatingSummary, Stars } from "#app/components/stars";
import { OrganizationRating, TrustBox } from "#app/components/trust";
import { config } from "#app/env.server";
import { paymentMethodsText } from "#rules/payments";
import { refundTerms } from "#rules/offer-terms";
import { ApiError, offersApi } from "#app/api-client/client.server";
import { getCart } from "#app/state/cart.server";
import { toCard } from "#app/components/offer-card-data";
import { originFrom, seo } from "#app/document/seo";
import { requestOrigin } from "#app/document/origin.server";
import { FavoriteButton } from "#app/components/favorite-button";
import { OfferMap } from "#app/components/offer-map";
import { getConsent } from "#app/state/consent.server";
import { offerMap } from "#app/third-party/maps.server";
import { skipAfterFailure } from "#app/forms/fetcher-failure";
import { keptOrLoaded } from "#app/state/offer-prefetch";
import { OfferShelf } from "#app/components/offer-shelf";
import { commitSession, getSession, recentlyViewed, rememberSearch, rememberViewed } from "#app/state/session.server";
import { FROM_PARAM } from "#app/components/offer-link";
import { Suggestions } from "#app/components/suggestions";
import { AddToCart } from "./add-to-cart";
import { fallbackPictureHtml } from "#app/components/card-html";
import { ShareOffer } from "./share-offer";
import { MerchantContactBlock } from "#app/components/merchant-contact";
import type { OfferCardData } from "#app/components/offer-card-data";
import { popularCards } from "#app/catalogue/popular.server";
import { RECENTLY_VIEWED_SHOWN } from "#rules/constants";

/**
 * Loaded again on every navigation that reaches this route, another offer's included: the route
 * stays mounted from one offer to the next. A hover's prefetch is not reloaded by later
 * navigations because its fetcher is let go once its load starts (ClientNavigation).
 */
export const shouldRevalidate = skipAfterFailure;

/** A click after a hover uses the data the hover loaded (app/state/offer-prefetch.ts), once. */
export function clientLoader({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const url = new URL(request.url);
  // Opened from a search: the server records it, so this load goes to the server.
  if (url.searchParams.has(FROM_PARAM)) return serverLoader<typeof loader>();
  return keptOrLoaded(url.pathname, () => serverLoader<typeof loader>());
}

export const handle: RouteHandle = { favorites: true, inlineWithPage: ["cart"] };

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export const meta: MetaFunction<typeof loader> = ({ data: d, matches, error }) => {
  if (!d) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return [
      { title: `${notFound ? "Oferta no encontrada" : "No hemos podido cargar la oferta"} | ofertas` },
      { name: "robots", content: "noindex" },
    ];
  }
  const origin = originFrom(matches);
  return [
    ...seo({ title: d.offer.title, description: d.offer.summary, origin, path: `/ofertas/${d.offer.uuid}/` }),
    ...(d.offer.images[0] && origin ? [{ property: "og:image", content: `${origin}${d.offer.images[0].image_url}` }] : []),
    { "script:ld+json": d.jsonLd },
  ];
};

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = params.ofertaId ?? "";
  if (!isUuid(id)) throw redirect("/");
  let offer;
  try {
    offer = await offersApi.get(id.toLowerCase());
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw data({ message: error.message, popular: await popularCards(request) }, { status: 404 });
    }
    throw error;
  }
  const [nearby, cart, consent] = await Promise.all([
    offersApi
      .nearby(offer.uuid, 4)
      .then((r) => r.results.map(toCard))
      .catch(() => []),
    getCart(request),
    getConsent(request),
  ]);
  const inCart = cart.items.find((i) => i.offerUuid === offer.uuid) ?? null;
  // «Vistas recientemente»: the others this visitor opened, deferred (below the fold, never fails);
  // this one goes first in the session cookie for the next page.
  const session = await getSession(request);
  const viewedIds = recentlyViewed(session)
    .filter((id) => id !== offer.uuid)
    .slice(0, RECENTLY_VIEWED_SHOWN);
  const recent = offersApi
    .selected(viewedIds)
    .then((list) => list.map(toCard))
    .catch(() => []);
  const responseHeaders = new Headers({ "Cache-Control": "no-store" });
  // While a message waits in the cookie the root loader commits it (and shows it): writing the
  // cookie here too would bring the message back. The offer was remembered on the visit before.
  const messageWaiting = session.has("toasts") || session.has("events");
  // Opened from a search (dialog or /buscar): a recent search, newest first (spec section 3).
  const fromSearch = new URL(request.url).searchParams.get(FROM_PARAM) === "search";
  if (fromSearch) rememberSearch(session, { uuid: offer.uuid, title: offer.title.slice(0, 120) });
  const viewedChanged = rememberViewed(session, offer.uuid);
  if (!messageWaiting && (viewedChanged || fromSearch)) responseHeaders.append("Set-Cookie", await commitSession(session));
  const origin = requestOrigin(request);
  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: offer.title,
    description: offer.summary,
    image: offer.images.map((i) => `${origin}${i.image_url}`),
    brand: { "@type": "Organization", name: offer.organization.name },
    ...(offer.rating
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: offer.rating.average,
            reviewCount: offer.rating.count,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    offers: offer.price_options.map((o) => ({
      "@type": "Offer",
      name: o.title,
      price: (toCents(o.actual_price) / 100).toFixed(2),
      priceCurrency: "EUR",
      availability: o.available > 0 ? "https://schema.org/InStock" : "https://schema.org/SoldOut",
      ...(offer.valid_until ? { priceValidUntil: offer.valid_until } : {}),
      url: `${origin}/ofertas/${offer.uuid}/`,
    })),
  };
  return data(
    {
      offer,
      nearby,
      recent,
      inCart,
      jsonLd,
      map: offerMap(offer, consent),
      paymentMethods: paymentMethodsText(config().PAYMENT_PROVIDER, config().paymentMethods),
      refundTerms: refundTerms(offer.conditions),
      reviews: offer.reviews.map((r) => ({ ...r, date: formatDate(r.date) })),
      // Said by the server, on Madrid's calendar: the same words with or without JavaScript.
      saleEnd: offer.sale_until ? saleEndText(offer.sale_until, madridDate(new Date())) : null,
      shareUrl: `${origin}/ofertas/${offer.uuid}/`,
      dates: {
        from: offer.valid_from ? formatDate(offer.valid_from) : null,
        until: offer.valid_until ? formatDate(offer.valid_until) : null,
      },
    },
    { headers: responseHeaders },
  );
}

/** "Calle X 24, 28009 Madrid" already names the city: the province is added only when missing. */
export function placeOf(address: string, region: string): string {
  if (!address) return region;
  const fold = (s: string) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  return fold(address).includes(fold(region)) ? address : `${address}, ${region}`;
}

export default function OfferPage() {
  const { offer, inCart, nearby, recent, dates, map, paymentMethods, refundTerms, reviews, saleEnd, shareUrl } =
    useLoaderData<typeof loader>();
  const [cover, ...gallery] = offer.images.filter((i) => !i.logo);
  const logo = offer.images.find((i) => i.logo);
  return (
    <article className="offer">
      <nav className="breadcrumbs" aria-label="Migas de pan">
        <Link to="/">Inicio</Link> ›{" "}
        {isCategoryId(offer.category) ? <Link to={`/ofertas/category/${offer.category}/`}>{CATEGORY_LABELS[offer.category]}</Link> : null}
      </nav>
      <div className="offer-layout">
        <div className="offer-media">
          {cover ? (
            <img src={cover.image_url} alt={cover.alt} width={cover.width} height={cover.height} fetchPriority="high" />
          ) : (
            <div
              className="offer-fallback"
              dangerouslySetInnerHTML={{ __html: fallbackPictureHtml(offer.uuid, offer.organization.name) }}
            />
          )}
          {gallery.length ? (
            <div className="gallery">
              {gallery.map((img) => (
                <img
                  key={img.image_url}
                  src={img.image_url}
                  // Two columns on a phone, ~8rem each on wider screens (.gallery in styles.css).
                  srcSet={photoSrcset(img)}
                  sizes={img.small_url ? "(max-width: 780px) 50vw, 10rem" : undefined}
                  alt={img.alt}
                  width={img.width}
                  height={img.height}
                  loading="lazy"
                />
              ))}
            </div>
          ) : null}
        </div>
        <div className="offer-aside">
          <div className="offer-org">
            {logo ? <img src={logo.image_url} alt="" width={40} height={40} /> : null}
            <div>
              <p>{offer.organization.name}</p>
              {offer.organization.rating ? <OrganizationRating rating={offer.organization.rating} /> : null}
            </div>
          </div>
          <div className="offer-title-row">
            <h1>{offer.title}</h1>
            <FavoriteButton offerUuid={offer.uuid} title={offer.title} />
          </div>
          <ShareOffer url={shareUrl} title={offer.title} />
          {offer.rating ? <RatingSummary rating={offer.rating} /> : null}
          <p className="offer-summary">{offer.summary}</p>
          <p className="muted">{placeOf(offer.address, offer.region)}</p>
          {/* On wide screens this part stays in view while the page scrolls (offer.css). */}
          {saleEnd ? <p className="sale-end">{saleEnd}</p> : null}
          <div className="offer-buy">
            {/* Drawn anew for another offer: no option or count chosen on the first is carried over. */}
            <AddToCart key={offer.uuid} offer={offer} inCart={inCart} />
            <TrustBox paymentMethods={paymentMethods} refundTerms={refundTerms} sold={offer.sold_count} />
            {dates.until ? (
              <p className="validity">
                Válido {dates.from ? `del ${dates.from} ` : ""}hasta el {dates.until}
              </p>
            ) : null}
          </div>
        </div>
      </div>
      <section className="offer-section">
        <h2>Descripción</h2>
        {offer.description.split(/\n{2,}/).map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      </section>
      {offer.conditions ? (
        <section className="offer-section">
          <h2>Condiciones</h2>
          <ul>
            {offer.conditions
              .split("\n")
              .filter(Boolean)
              .map((c, i) => (
                <li key={i}>{c}</li>
              ))}
          </ul>
        </section>
      ) : null}
      <MerchantContactBlock
        className="offer-section"
        merchant={offer.organization.name}
        contact={offer.organization}
        conditions={offer.conditions}
      />
      {reviews.length ? (
        <section className="offer-section" aria-labelledby="opiniones">
          <h2 id="opiniones">Opiniones</h2>
          <ul className="reviews">
            {reviews.map((r, i) => (
              <li key={i} className="review">
                <p className="review-head">
                  <Stars value={r.stars} label={`${r.stars} de 5 estrellas`} />
                  <span className="review-verified">Compra verificada</span>
                  <span className="muted">{r.date}</span>
                </p>
                <p>{r.comment}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {map ? <OfferMap map={map} address={[offer.address, offer.region].filter(Boolean).join(", ")} /> : null}
      {nearby.length ? (
        <section className="offer-section offer-section-wide">
          <h2>Cerca de aquí</h2>
          <OfferGrid offers={nearby} level={3} />
        </section>
      ) : null}
      <OfferShelf id="vistas-recientemente" title="Vistas recientemente" offers={recent} className="offer-section offer-section-wide" />
    </article>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const popular: OfferCardData[] = notFound ? ((error.data as { popular?: OfferCardData[] } | null)?.popular ?? []) : [];
  return (
    <>
      <div className="error-page">
        <h1>{notFound ? "Esta oferta no existe o ya no está disponible" : "No hemos podido cargar la oferta"}</h1>
        <p>{notFound ? "Puede que haya terminado. Echa un vistazo a otras ofertas." : "Inténtalo de nuevo en unos minutos."}</p>
        <p>
          <Link to="/ofertas/" className="btn">
            Ver ofertas
          </Link>
        </p>
      </div>
      {notFound ? <Suggestions popular={popular} /> : null}
    </>
  );
}
