/**
 * The contract's offer responses (/api/v0/public/offers/…). The API produces them and the
 * storefront reads them; both import from here so the storefront needs nothing from `api/`.
 */

export type OfferImage = {
  image_url: string;
  cover: boolean;
  logo: boolean;
  width: number;
  height: number;
  alt: string;
  /** The same picture at 400×250 (rules/images.ts), for phones' cards and thumbnails; null when it has no smaller copy (logos). */
  small_url: string | null;
};

export type PriceOption = {
  uuid: string;
  title: string;
  actual_price: string;
  regular_price: string;
  available: number;
  per_customer: number | null;
};

export type OfferSummary = {
  uuid: string;
  title: string;
  summary: string;
  category: string;
  region: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  offer_type: string;
  valid_from: string | null;
  valid_until: string | null;
  organization: { uuid: string; name: string };
  images: OfferImage[];
  price_options: PriceOption[];
  /** Verified buyers' stars; null until the offer has MIN_RATINGS_SHOWN of them. */
  rating: OfferRating | null;
};

export type OfferRating = { average: number; count: number };

/** What a verified buyer said of the offer: stars, words and when (no name, no address). */
export type OfferReview = { stars: number; comment: string; date: string };

/** At most this many reviews come with an offer's page: the newest. */
export const OFFER_REVIEWS_SHOWN = 5;

export type OfferDetail = OfferSummary & {
  description: string;
  conditions: string;
  organization: {
    uuid: string;
    name: string;
    email: string | null;
    phone: string | null;
    website: string | null;
    /** Verified buyers' stars over all of the partner's offers; null until there are MIN_RATINGS_SHOWN. */
    rating: OfferRating | null;
  };
  /** Coupons bought in paid sales, counted by the API (never an estimate). */
  sold_count: number;
  /** The newest verified buyers' comments, at most OFFER_REVIEWS_SHOWN. */
  reviews: OfferReview[];
};

/** Every paginated list of the contract: `next`/`previous` as paths relative to the API's origin (/api/v0/…?page=n), or null. */
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

/** A short unpaginated list: nearby offers, popular offers. */
export type OfferList = { results: OfferSummary[] };
