/**
 * The contract's offer responses (/api/v0/public/offers/…). The API produces them and the
 * storefront reads them; both import from here so the storefront needs nothing from `api/`.
 * The schemas describe the answers as sent (no defaults, no transforms), so a value that was not
 * parsed has the same type as one that was.
 */
import { z } from "zod";

const nullableText = z.string().nullable();

export const OfferImageSchema = z.object({
  image_url: z.string(),
  cover: z.boolean(),
  logo: z.boolean(),
  width: z.number(),
  height: z.number(),
  alt: z.string(),
  /** The same picture at 400×250 (rules/images.ts), for phones' cards and thumbnails; null when it has no smaller copy (logos). */
  small_url: nullableText,
});
export type OfferImage = z.infer<typeof OfferImageSchema>;

export const PriceOptionSchema = z.object({
  uuid: z.string(),
  title: z.string(),
  actual_price: z.string(),
  regular_price: z.string(),
  available: z.number().int(),
  per_customer: z.number().int().nullable(),
});
export type PriceOption = z.infer<typeof PriceOptionSchema>;

export const OfferRatingSchema = z.object({ average: z.number(), count: z.number().int() });
export type OfferRating = z.infer<typeof OfferRatingSchema>;

/** What every answer about an offer says of it: the public card and the partner's offer alike. */
export const offerFields = {
  uuid: z.string(),
  title: z.string(),
  summary: z.string(),
  category: z.string(),
  region: z.string(),
  address: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  offer_type: z.string(),
  valid_from: nullableText,
  valid_until: nullableText,
  organization: z.object({ uuid: z.string(), name: z.string() }),
};

export const OfferSummarySchema = z.object({
  ...offerFields,
  images: z.array(OfferImageSchema),
  price_options: z.array(PriceOptionSchema),
  /** Verified buyers' stars; null until the offer has MIN_RATINGS_SHOWN of them. */
  rating: OfferRatingSchema.nullable(),
});
export type OfferSummary = z.infer<typeof OfferSummarySchema>;

/** What a verified buyer said of the offer: stars, words and when (no name, no address). */
export const OfferReviewSchema = z.object({ stars: z.number(), comment: z.string(), date: z.string() });
export type OfferReview = z.infer<typeof OfferReviewSchema>;

/** At most this many reviews come with an offer's page: the newest. */
export const OFFER_REVIEWS_SHOWN = 5;

export const OfferDetailSchema = OfferSummarySchema.extend({
  description: z.string(),
  conditions: z.string(),
  organization: z.object({
    uuid: z.string(),
    name: z.string(),
    email: nullableText,
    phone: nullableText,
    website: nullableText,
    /** Verified buyers' stars over all of the partner's offers; null until there are MIN_RATINGS_SHOWN. */
    rating: OfferRatingSchema.nullable(),
  }),
  /** Coupons bought in paid sales, counted by the API (never an estimate). */
  sold_count: z.number().int(),
  /** The newest verified buyers' comments, at most OFFER_REVIEWS_SHOWN. */
  reviews: z.array(OfferReviewSchema),
  /** The last day on sale (Madrid, until 23:59), or null; `on_sale`: the API's word on whether it can be bought now. */
  sale_until: nullableText,
  on_sale: z.boolean(),
});
export type OfferDetail = z.infer<typeof OfferDetailSchema>;

/** Every paginated list of the contract: `next`/`previous` as paths relative to the API's origin (/api/v0/…?page=n), or null. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ count: z.number().int(), next: nullableText, previous: nullableText, results: z.array(item) });
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };

export const OfferPageSchema = pageOf(OfferSummarySchema);

/** A short unpaginated list: nearby offers, popular offers. */
export const OfferListSchema = z.object({ results: z.array(OfferSummarySchema) });
export type OfferList = z.infer<typeof OfferListSchema>;

/** GET /public/offers/selected/ and /customer/favorites/: the cards, in the order asked. */
export const OfferCardsSchema = z.array(OfferSummarySchema);
