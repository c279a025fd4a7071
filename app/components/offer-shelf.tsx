import { Await } from "@remix-run/react";
import { Suspense } from "react";
import type { OfferCardData } from "#app/components/offer-card-data";
import { OfferGrid } from "./offer-card";
import type { OfferLinkSource } from "./offer-link";

/**
 * A list below the fold whose data is deferred («Populares ahora», «Vistas recientemente»): the
 * page is sent without waiting for it, and the list streams into the same HTML response when it
 * is ready (so it appears without JavaScript too). Its loader resolves to [] on any failure, and
 * an empty list renders nothing: it never blocks or fails the page.
 */
export function OfferShelf({
  title,
  offers,
  id,
  className = "",
  from,
}: {
  title: string;
  offers: OfferCardData[] | Promise<OfferCardData[]>;
  id: string;
  className?: string;
  from?: OfferLinkSource;
}) {
  const shelf = (list: OfferCardData[]) =>
    list.length ? (
      <section className={`offer-shelf ${className}`.trim()} aria-labelledby={id} data-testid={id}>
        <h2 id={id} className="section-title">
          {title}
        </h2>
        <OfferGrid offers={list} level={3} from={from} />
      </section>
    ) : null;
  // Already there (a cached read, see readyOrDeferred): part of the page, no boundary to stream.
  if (Array.isArray(offers)) return shelf(offers);
  return (
    <Suspense fallback={null}>
      <Await resolve={offers} errorElement={null}>
        {shelf}
      </Await>
    </Suspense>
  );
}
