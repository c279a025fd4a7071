import type { OfferCardData } from "#app/lib/offer-card";
import { CATEGORY_LABELS, isCategoryId } from "#lib/categories";
import { DiscountBadge, PriceTag } from "./price";
import { FavoriteButton } from "./favorite-button";
import { RatingSummary } from "./stars";
import { CLIENT_LINK } from "./client-navigation";

/** `level`: the card title's heading level, one below the heading the grid sits under. */
export type HeadingLevel = 2 | 3;

export function OfferCard({ offer, eager = false, target, level = 2 }: { offer: OfferCardData; eager?: boolean; target?: "_blank"; level?: HeadingLevel }) {
  const Title = level === 2 ? "h2" : "h3";
  const { cover, price: option, soldOut } = offer;
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
        <Title className="card-title">{offer.title}</Title>
        <p className="card-meta">{isCategoryId(offer.category) ? `${offer.region} · ${CATEGORY_LABELS[offer.category]}` : offer.region}</p>
        {offer.rating ? <RatingSummary rating={offer.rating} className="card-rating" /> : null}
        {option ? <PriceTag actual={option.actual_price} regular={option.regular_price} /> : null}
      </div>
    </>
  );
  return (
    <article className="card">
      {target ? null : <FavoriteButton offerUuid={offer.uuid} title={offer.title} className="card-favorite" />}
      {target ? (
        <a href={href} target={target} rel="noopener" className="card-link">
          {content}
        </a>
      ) : (
        <a href={href} className="card-link" {...CLIENT_LINK}>
          {content}
        </a>
      )}
    </article>
  );
}

export function OfferGrid({ offers, eagerCount = 0, level = 2 }: { offers: OfferCardData[]; eagerCount?: number; level?: HeadingLevel }) {
  return (
    <div className="grid">
      {offers.map((offer, i) => (
        <OfferCard key={offer.uuid} offer={offer} eager={i < eagerCount} level={level} />
      ))}
    </div>
  );
}
