import { z } from "zod";
import { MAX_CART_ITEMS, type Cart } from "#rules/cart";
import { CouponStatusSchema } from "#contract/refunds";
import { DISCOUNT_TYPES } from "#rules/prices";
import { REMINDER_KINDS } from "#rules/reminders";
import { MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM, PurchasedItemSchema } from "#contract/sales";
import { pageOf } from "#contract/offers";
import { SessionInfoSchema } from "#contract/accounts";
import { defineRoute } from "#contract/define-route";

/**
 * The customer's cart on the server (GET /customer/cart/, POST /customer/cart/update/): the same
 * shape as the cart cookie once decoded (rules/cart.ts), so one merges into the other as it is.
 */
export const CartSchema: z.ZodType<Cart> = z.object({
  items: z
    .array(
      z.object({
        offerUuid: z.string().uuid(),
        priceOptionUuid: z.string().uuid(),
        ticketsCount: z.number().int().min(1).max(MAX_TICKETS_PER_ITEM),
        savedPrice: z.string().regex(/^\d{1,6}(\.\d{1,2})?$/),
        slotId: z.string().max(64).nullable(),
        gift: z.boolean(),
      }),
    )
    .max(MAX_CART_ITEMS),
  promoCodes: z
    .array(
      z.object({
        promo_code: z.string().max(40),
        discount_type: z.enum(DISCOUNT_TYPES),
        discount_value: z.string().max(20),
        offer_uuid: z.string().uuid().nullable().optional(),
      }),
    )
    .max(MAX_PROMO_CODES),
}) as z.ZodType<Cart>;

export const FavoriteUuids = z.array(z.string().uuid("Identificador de oferta no válido.")).max(200, "Como máximo 200 ofertas.");

/** A coupon in the order history: its code and what can still be done with it (the same states as at the till). */
export const PurchaseCouponSchema = CouponStatusSchema;
export type PurchaseCoupon = z.infer<typeof PurchaseCouponSchema>;
export const PurchaseLineSchema = PurchasedItemSchema.extend({ coupons: z.array(PurchaseCouponSchema) });
export type PurchaseLine = z.infer<typeof PurchaseLineSchema>;

/** GET /customer/purchases/: one sale of the customer. */
export const CustomerPurchaseSchema = z.object({
  sale_id: z.string(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  status: z.string(),
  total: z.string(),
  currency: z.string(),
  email: z.string(),
  items: z.array(PurchaseLineSchema),
});
export type CustomerPurchase = z.infer<typeof CustomerPurchaseSchema>;
export const CustomerPurchasePageSchema = pageOf(CustomerPurchaseSchema);

/** GET /sales/reserve_exists/{offer}/ */
export const ReserveExistsSchema = z.discriminatedUnion("exists", [
  z.object({ exists: z.literal(false) }),
  z.object({
    exists: z.literal(true),
    sale_id: z.string(),
    transaction_id: z.string(),
    redirect_url: z.string().nullable(),
    expires_at: z.string(),
  }),
]);
export type ReserveExists = z.infer<typeof ReserveExistsSchema>;

/** POST /customer/favorites/{offer}/toggle/ */
export const FavoriteToggleSchema = z.object({ uuid: z.string(), is_favorite: z.boolean(), uuids: z.array(z.string()) });
/** POST /customer/favorites/sync-list/ */
export const FavoriteListSchema = z.object({ uuids: z.array(z.string()) });

/** GET /customer/mail-link/: who a mailed link stands for (the storefront never reads a token itself). */
export const MailLinkSchema = z.object({ purpose: z.string(), email: z.string(), offer_uuid: z.string().nullable(), t: z.string() });
export type MailLink = z.infer<typeof MailLinkSchema>;
/** GET /customer/unsubscribe/ */
export const UnsubscribedSchema = z.object({ detail: z.string(), email: z.string() });
/** POST /customer/reminders/stop/ {kind, t}: that address gets no more reminders of that kind. */
export const ReminderStopRequestSchema = z.object({
  kind: z.enum(REMINDER_KINDS, { errorMap: () => ({ message: `kind debe ser ${REMINDER_KINDS.join(" o ")}.` }) }),
  t: z.string({ required_error: "Falta el enlace (t)." }).min(1, "Falta el enlace (t)."),
});
export const ReminderStoppedSchema = z.object({ detail: z.string(), kind: z.enum(REMINDER_KINDS), email: z.string() });
/** GET and POST /customer/subscription/ */
export const SubscriptionSchema = z.object({ subscribed: z.boolean() });

/** /customer/…: what belongs to the person calling (their favourites, cart and purchases: contract/customer-data.ts). */
export const customerRoutes = {
  /** Who is calling: a logged-in account, an anonymous session, or nobody. */
  session: defineRoute({ method: "GET", path: "/customer/session/", answer: SessionInfoSchema }),
};
