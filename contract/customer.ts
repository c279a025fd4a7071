import { z } from "zod";
import { MAX_CART_ITEMS, type Cart } from "#rules/cart";
import type { CouponState } from "#rules/coupons";
import { DISCOUNT_TYPES } from "#rules/prices";
import { MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM, type PurchasedItem } from "#contract/sales";

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
export type PurchaseCoupon = { uuid: string; code: string; state: CouponState };
export type PurchaseLine = PurchasedItem & { coupons: PurchaseCoupon[] };
/** GET /customer/purchases/: one sale of the customer. */
export type CustomerPurchase = {
  sale_id: string;
  created_at: string;
  paid_at: string | null;
  status: string;
  total: string;
  currency: string;
  email: string;
  items: PurchaseLine[];
};

/** GET /sales/reserve_exists/{offer}/ */
export type ReserveExists =
  { exists: false } | { exists: true; sale_id: string; transaction_id: string; redirect_url: string | null; expires_at: string };
