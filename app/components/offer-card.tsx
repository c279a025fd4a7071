import type { OfferCardData } from "#app/components/offer-card-data";
import { cardInnerHtmlOnce } from "#app/components/card-html";
import { FavoriteButton } from "./favorite-button";
import { CLIENT_LINK } from "./client-navigation";
import { offerHref, type OfferLinkSource } from "./offer-link";

/** `level`: the card title's heading level, one below the heading the grid sits under. */
export type HeadingLevel = 2 | 3;

/**
 * An offer in a grid: the heart (a React component, it changes) beside a link whose content is
 * one HTML string (it never changes; see card-html.ts).
 */
export function OfferCard({
  offer,
  eager = false,
  target,
  level = 2,
  from,
}: {
  offer: OfferCardData;
  eager?: boolean;
  target?: "_blank";
  level?: HeadingLevel;
  from?: OfferLinkSource;
}) {
  const href = offerHref(offer.uuid, from);
  const content = { __html: cardInnerHtmlOnce(offer, eager, level) };
  return (
    <article className={offer.soldOut ? "card is-sold-out" : "card"}>
      {target ? null : <FavoriteButton offerUuid={offer.uuid} title={offer.title} className="card-favorite" />}
      {target ? (
        <a href={href} target={target} rel="noopener" className="card-link" dangerouslySetInnerHTML={content} />
      ) : (
        <a href={href} className="card-link" {...CLIENT_LINK} dangerouslySetInnerHTML={content} />
      )}
    </article>
  );
}

export function OfferGrid({
  offers,
  eagerCount = 0,
  level = 2,
  from,
}: {
  offers: OfferCardData[];
  eagerCount?: number;
  level?: HeadingLevel;
  from?: OfferLinkSource;
}) {
  return (
    <div className="grid">
      {offers.map((offer, i) => (
        <OfferCard key={offer.uuid} offer={offer} eager={i < eagerCount} level={level} from={from} />
      ))}
    </div>
  );
}
