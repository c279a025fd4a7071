import { Link } from "@remix-run/react";
import type { OfferSummary } from "#api/services/offers";
import { CATEGORY_LABELS, isCategoryId } from "#lib/categories";
import { DiscountBadge, PriceTag } from "./price";

/** The cheapest option on sale is the card's price; a sold-out offer says so. */
export function cardOption(offer: Pick<OfferSummary, "price_options">) {
  const onSale = offer.price_options.filter((o) => o.available > 0);
  const pool = onSale.length ? onSale : offer.price_options;
  return pool.reduce<(typeof pool)[number] | undefined>((best, o) => (!best || Number(o.actual_price) < Number(best.actual_price) ? o : best), undefined);
}

export function OfferCard({ offer, eager = false, target }: { offer: OfferSummary; eager?: boolean; target?: "_blank" }) {
  const cover = offer.images[0];
  const option = cardOption(offer);
  const soldOut = offer.price_options.every((o) => o.available <= 0);
  const href = `/ofertas/${offer.uuid}/`;
  const content = (
    <>
      <div className="card-media">
        {cover ? (
          <img
            src={cover.image_url}
            alt=""
            width={cover.width}
            height={cover.height}
            loading={eager ? "eager" : "lazy"}
            decoding="async"
            {...(eager ? { fetchpriority: "high" } : {})}
          />
        ) : null}
        {option && !soldOut ? <DiscountBadge actual={option.actual_price} regular={option.regular_price} /> : null}
        {soldOut ? <span className="badge-soldout">Agotada</span> : null}
      </div>
      <div className="card-body">
        <h3 className="card-title">{offer.title}</h3>
        <p className="card-meta">
          {offer.region}
          {isCategoryId(offer.category) ? ` · ${CATEGORY_LABELS[offer.category]}` : null}
        </p>
        {option ? <PriceTag actual={option.actual_price} regular={option.regular_price} /> : null}
      </div>
    </>
  );
  return (
    <article className="card">
      {target ? (
        <a href={href} target={target} rel="noopener" className="card-link">
          {content}
        </a>
      ) : (
        <Link to={href} prefetch="intent" className="card-link">
          {content}
        </Link>
      )}
    </article>
  );
}

export function OfferGrid({ offers, eagerCount = 0 }: { offers: OfferSummary[]; eagerCount?: number }) {
  return (
    <div className="grid">
      {offers.map((offer, i) => (
        <OfferCard key={offer.uuid} offer={offer} eager={i < eagerCount} />
      ))}
    </div>
  );
}
