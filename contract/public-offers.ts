/**
 * /public/offers/…: the public catalogue (the listing, the home page's list, «Populares ahora»,
 * the cards of a cart or of favourites, an offer and its neighbours). The answers' schemas live
 * in contract/offers.ts; POST /public/offers/apply-promocode/ is a sale's (contract/sales.ts),
 * and /public/offers/feedback/… a rating's (contract/feedback.ts).
 */
import { z } from "zod";
import { CATEGORY_IDS } from "#rules/categories";
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, POPULAR_COUNT } from "#rules/constants";
import { PROVINCES } from "#rules/regions";
import { PRICE_RANGE_MAX_EUROS, LISTING_MESSAGES, SORTS } from "#rules/listing-order";
import { defineRoute } from "#contract/define-route";
import { OfferCardsSchema, OfferDetailSchema, OfferListSchema, OfferPageSchema } from "#contract/offers";
import { blank, lastOf } from "#contract/page";

/** A bound of the price range: whole euros (rules/listing-order.ts). */
const euros = z.preprocess(
  blank,
  z.coerce
    .number({ invalid_type_error: LISTING_MESSAGES.notWhole })
    .int(LISTING_MESSAGES.notWhole)
    .min(0, LISTING_MESSAGES.outOfRange)
    .max(PRICE_RANGE_MAX_EUROS, LISTING_MESSAGES.outOfRange)
    .optional(),
);

/** The listing's filters, order and page (GET /public/offers/ and /public/offers/mainpage/). */
export const OfferListQuery = z.object({
  search: z.preprocess(
    lastOf,
    z.string({ invalid_type_error: "La búsqueda debe ser un texto." }).max(200, "La búsqueda es demasiado larga.").optional(),
  ),
  category: z.preprocess(blank, z.enum(CATEGORY_IDS, { errorMap: () => ({ message: "Categoría desconocida." }) }).optional()),
  region: z.preprocess(
    (v) => {
      const value = blank(v);
      return value === "España" ? undefined : value;
    },
    z.enum(PROVINCES, { errorMap: () => ({ message: "Región desconocida." }) }).optional(),
  ),
  sort: z.preprocess(blank, z.enum(SORTS, { errorMap: () => ({ message: "Orden desconocido." }) }).default("recommended")),
  price_min: euros,
  price_max: euros,
  lat: z.preprocess(blank, z.coerce.number({ invalid_type_error: "La latitud debe ser un número." }).min(-90).max(90).optional()),
  lng: z.preprocess(blank, z.coerce.number({ invalid_type_error: "La longitud debe ser un número." }).min(-180).max(180).optional()),
  page: z.preprocess(
    blank,
    z.coerce
      .number({ invalid_type_error: "La página debe ser un número entero." })
      .int("La página debe ser un número entero.")
      .min(1, "La página debe ser 1 o mayor.")
      .max(PAGE_MAX, "Página fuera de rango.")
      .default(1),
  ),
  page_size: z.preprocess(
    blank,
    z.coerce
      .number({ invalid_type_error: "page_size debe ser un número entero." })
      .int("page_size debe ser un número entero.")
      .min(1, `page_size debe estar entre 1 y ${PAGE_SIZE_MAX}.`)
      .max(PAGE_SIZE_MAX, `page_size debe estar entre 1 y ${PAGE_SIZE_MAX}.`)
      .default(PAGE_SIZE_DEFAULT),
  ),
});

/** «Populares ahora»: the listing's region and category, and how many (POPULAR_COUNT unless asked). */
const PopularQuery = OfferListQuery.pick({ region: true, category: true }).extend({
  page_size: OfferListQuery.shape.page_size.default(POPULAR_COUNT),
});

/**
 * The offers asked for, as ?uuids=a&uuids=b or ?uuids=a,b (at most 100). The API reads them
 * itself, leniently: a value that is not a text is left out, an id that is not a UUID is its 400.
 */
const SelectedQuery = z.object({ uuids: z.custom<string | string[]>().optional() });

export const publicOffersRoutes = {
  list: defineRoute({ method: "GET", path: "/public/offers/", query: OfferListQuery, answer: OfferPageSchema }),
  /** The home page's list: the same filters, ordered by recommendation rank. */
  mainpage: defineRoute({ method: "GET", path: "/public/offers/mainpage/", query: OfferListQuery, answer: OfferPageSchema }),
  /** The most bought in the last POPULAR_DAYS days, with the listing's filters. */
  popular: defineRoute({ method: "GET", path: "/public/offers/popular/", query: PopularQuery, answer: OfferListSchema }),
  /** The cards, in the order asked (a cart's lines, a visitor's favourites). */
  selected: defineRoute({ method: "GET", path: "/public/offers/selected/", query: SelectedQuery, answer: OfferCardsSchema }),
  nearby: defineRoute({
    method: "GET",
    path: "/public/offers/:id/nearby/",
    query: z.object({ page_size: OfferListQuery.shape.page_size.default(6) }),
    answer: OfferListSchema,
  }),
  /** One offer, never cached: stock and prices must be current. */
  get: defineRoute({ method: "GET", path: "/public/offers/:id/", answer: OfferDetailSchema }),
};
