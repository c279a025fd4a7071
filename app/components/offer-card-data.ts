import { cheapestOption } from "#rules/prices";
import type { OfferRating, OfferSummary } from "#contract/offers";

/** What a card shows, and nothing more: listings send this to the browser, not whole offers. */
export type OfferCardData = {
  uuid: string;
  title: string;
  region: string;
  category: string;
  /** The partner's name: the drawn picture of an offer without a photo shows it. */
  merchant: string;
  cover: { image_url: string; small_url: string | null; width: number; height: number } | null;
  /** The cheapest option on sale (or the cheapest at all when everything is sold out). */
  price: { actual_price: string; regular_price: string } | null;
  soldOut: boolean;
  rating: OfferRating | null;
};

/**
 * Cards of the offers the catalogue cache holds are worked out once, not on every page that shows
 * them (the cache hands out the same objects for a minute). Nothing changes a card once made.
 */
const cards = new WeakMap<OfferSummary, OfferCardData>();

export function toCard(offer: OfferSummary): OfferCardData {
  let card = cards.get(offer);
  if (!card) cards.set(offer, (card = cardOf(offer)));
  return card;
}

function cardOf(offer: OfferSummary): OfferCardData {
  const onSale = offer.price_options.filter((o) => o.available > 0);
  const pool = onSale.length ? onSale : offer.price_options;
  const cheapest = cheapestOption(pool);
  const cover = offer.images[0];
  return {
    uuid: offer.uuid,
    title: offer.title,
    region: offer.region,
    category: offer.category,
    merchant: offer.organization.name,
    cover: cover ? { image_url: cover.image_url, small_url: cover.small_url, width: cover.width, height: cover.height } : null,
    price: cheapest ? { actual_price: cheapest.actual_price, regular_price: cheapest.regular_price } : null,
    soldOut: onSale.length === 0,
    rating: offer.rating ?? null,
  };
}
