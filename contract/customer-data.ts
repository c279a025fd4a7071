/**
 * What belongs to whoever is calling, a logged-in customer or an anonymous session: favourites,
 * the server's cart, purchases, a coupon's PDF and an open reservation. The answers' schemas
 * live in contract/customer.ts, contract/offers.ts and contract/accounts.ts.
 */
import { z } from "zod";
import { AnonymousSessionSchema } from "#contract/accounts";
import {
  CartSchema,
  CustomerPurchasePageSchema,
  FavoriteListSchema,
  FavoriteToggleSchema,
  FavoriteUuids,
  ReserveExistsSchema,
} from "#contract/customer";
import { defineRoute, notJson } from "#contract/define-route";
import { OfferCardsSchema } from "#contract/offers";

/** GET /customer/purchases/: a page of the order history. */
export const PurchasesQuery = z.object({
  page: z.coerce.number({ invalid_type_error: "page debe ser un número." }).int().min(1).max(10_000).default(1),
  page_size: z.coerce.number({ invalid_type_error: "page_size debe ser un número." }).int().min(1).max(50).default(10),
});

/** POST /sales/download_coupon/: one of the customer's coupons. */
export const CouponDownloadSchema = z.object({ coupon: z.string().uuid("Identificador de cupón no válido.") });

export const customerDataRoutes = {
  favorites: defineRoute({ method: "GET", path: "/customer/favorites/", answer: OfferCardsSchema }),
  toggleFavorite: defineRoute({ method: "POST", path: "/customer/favorites/:id/toggle/", answer: FavoriteToggleSchema }),
  /** Adds a device's favourites to the account's (at login); the answer is all of them. */
  syncFavorites: defineRoute({
    method: "POST",
    path: "/customer/favorites/sync-list/",
    body: z.object({ uuids: FavoriteUuids }),
    answer: FavoriteListSchema,
  }),
  cart: defineRoute({ method: "GET", path: "/customer/cart/", answer: CartSchema }),
  saveCart: defineRoute({ method: "POST", path: "/customer/cart/update/", body: CartSchema, answer: CartSchema }),
  purchases: defineRoute({ method: "GET", path: "/customer/purchases/", query: PurchasesQuery, answer: CustomerPurchasePageSchema }),
  /** A cookie-less client's anonymous session, which can hold favourites and a cart. */
  anonymousSession: defineRoute({ method: "POST", path: "/session/anonymous/", answer: AnonymousSessionSchema }),
  downloadCoupon: defineRoute({ method: "POST", path: "/sales/download_coupon/", body: CouponDownloadSchema, answer: notJson("pdf") }),
  /** The customer's open reservation of an offer, if any, to resume its payment. */
  reserveExists: defineRoute({ method: "GET", path: "/sales/reserve_exists/:id/", answer: ReserveExistsSchema }),
};
