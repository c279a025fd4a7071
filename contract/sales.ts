import { z } from "zod";
import "#rules/zod-es";
import { CheckoutDataSchema } from "#contract/checkout";
import { MAX_CART_ITEMS, MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM } from "#rules/cart";
import { DISCOUNT_TYPES } from "#rules/prices";
import { PAYMENT_METHODS } from "#rules/payments";
import { CouponStatusSchema } from "#contract/refunds";
import { defineRoute, notJson } from "#contract/define-route";

// An order is never bigger than a cart can be: the cart's limits (rules/cart.ts) bound it.
export { MAX_CART_ITEMS, MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM };

/** A gift as the API answers it: who it is for, the message, and when its mail went (null: not yet). */
export const GiftOut = z.object({
  recipient_name: z.string(),
  sender_name: z.string().nullable(),
  recipient_email: z.string().nullable(),
  message: z.string(),
  send_on: z.string().nullable(),
  sent_at: z.string().nullable(),
});
export type GiftOut = z.infer<typeof GiftOut>;

export const PromoCodeText = z
  .string()
  .trim()
  .min(1, "Escribe un código promocional.")
  .max(40, "El código promocional es demasiado largo.")
  .transform((v) => v.toUpperCase());

export const OrderItemSchema = z.object({
  offer_price_uuid: z.string().uuid("Opción de precio no válida."),
  quantity: z.number().int().min(1, "La cantidad mínima es 1.").max(MAX_TICKETS_PER_ITEM),
  saved_price: z.string().regex(/^\d+(\.\d{1,2})?$/, "Precio no válido."),
  slot_id: z.string().max(64).nullable().optional(),
  promo_codes: z.array(PromoCodeText).max(MAX_PROMO_CODES).default([]),
});

/**
 * Bounded by the cart's own limits: an order is never bigger than a cart can be, so one call
 * cannot test more promo codes than a buyer could apply (the codes are the cart's, shared by
 * every item).
 */
export const ValidateOrderSchema = z
  .object({
    items: z
      .array(OrderItemSchema)
      .min(1, "El carrito está vacío.")
      .max(MAX_CART_ITEMS, `Como máximo ${MAX_CART_ITEMS} ofertas por pedido.`),
    checkout_data: CheckoutDataSchema,
  })
  .superRefine((order, ctx) => {
    const codes = new Set(order.items.flatMap((i) => i.promo_codes));
    // An item over the limit already has its own message.
    if (codes.size > MAX_PROMO_CODES && order.items.every((i) => i.promo_codes.length <= MAX_PROMO_CODES)) {
      ctx.addIssue({ code: "custom", path: ["items"], message: `Puedes aplicar como máximo ${MAX_PROMO_CODES} códigos promocionales.` });
    }
  });

export const SaleLineSchema = z.object({
  offer_price_uuid: z.string(),
  offer_uuid: z.string(),
  title: z.string(),
  option_title: z.string(),
  quantity: z.number().int(),
  unit_price: z.string(),
  /** The option's price before the deal, so the buyer's saving is the server's figure too. */
  regular_unit_price: z.string(),
  paid_unit_price: z.string(),
  promo_code: z.string().nullable(),
  line_total: z.string(),
  for_present: z.boolean(),
  gift: GiftOut.nullable().optional(),
});
export type SaleLine = z.infer<typeof SaleLineSchema>;

export const SalesDataSchema = z.object({ items: z.array(SaleLineSchema), total: z.string(), currency: z.literal("EUR") });
export type SalesData = z.infer<typeof SalesDataSchema>;

/** POST /sales/validate/: 200 with a session_token, or 400 with the errors in the same shape. */
export const ValidateOrderResponseSchema = z.object({
  sales_data: SalesDataSchema,
  checkout_data: z.object({ session_token: z.string().optional(), email: z.string().optional() }).passthrough(),
  errors: z.array(z.object({ error_text: z.string(), offer_price_uuid: z.string().optional(), field: z.string().optional() })),
});
export type ValidateOrderResponse = z.infer<typeof ValidateOrderResponseSchema>;

/**
 * POST /sales/create/'s body. payment_method: the way of paying the buyer chose at checkout, when
 * the shop's provider offers a choice (Redsys: card, or Bizum); the API refuses one it does not offer.
 */
export const CreateSaleRequestSchema = z.object({
  session_token: z.string().min(10).max(100),
  // Present only when the buyer accepted analytics; device_id when their browser had one.
  analytics: z.object({ device_id: z.string().min(5).max(100).nullable().default(null) }).optional(),
  payment_method: z.enum(PAYMENT_METHODS, { message: "Esa forma de pago no está disponible. Elige otra para pagar." }).optional(),
});

/** POST /sales/create/. provider_ref: the provider's own id of the payment (PayPal's order id, for its JS SDK buttons). */
export const PaymentAnswerSchema = z.object({
  payment: z.object({
    sale_id: z.string(),
    transaction_id: z.string(),
    provider: z.string(),
    flow: z.enum(["hosted", "redirect"]),
    redirect_url: z.string(),
    provider_ref: z.string().nullable(),
  }),
});
export type PaymentAnswer = z.infer<typeof PaymentAnswerSchema>;

/** One bought line as every purchase answer gives it (a sale, the customer's history). */
export const PurchasedItemSchema = z.object({
  offer_uuid: z.string(),
  title: z.string(),
  option_title: z.string(),
  quantity: z.number().int(),
  paid_unit_price: z.string(),
  for_present: z.boolean(),
  gift: GiftOut.nullable().optional(),
  valid_until: z.string().nullable(),
});
export type PurchasedItem = z.infer<typeof PurchasedItemSchema>;

/** POST /sales/capture/{id}/ and GET /sales/purchase/{id}/. */
export const PurchaseSchema = z.object({
  sale_id: z.string(),
  status: z.string(),
  email: z.string(),
  total: z.string(),
  currency: z.string(),
  paid_at: z.string().nullable(),
  items: z.array(
    PurchasedItemSchema.extend({
      coupons: z.array(z.string()),
      /** The same coupons with their state and «Solicitar devolución» (contract/refunds.ts). */
      coupon_status: z.array(CouponStatusSchema).default([]),
      /** Who honours the coupons, where and when, as printed on the voucher. */
      merchant: z.string(),
      /** How to reach the merchant to book (rules/merchant-contact.ts); null when the partner gave none. */
      merchant_phone: z.string().nullable(),
      merchant_email: z.string().nullable(),
      merchant_website: z.string().nullable(),
      address: z.string(),
      conditions: z.string(),
      valid_from: z.string().nullable(),
    }),
  ),
  /** One gift as its recipient sees it (no prices, no buyer's address). */
  gift_view: z.boolean().optional(),
});
export type Purchase = z.infer<typeof PurchaseSchema>;

/**
 * POST /sales/capture/{id}/: the purchase and the signature its confirmation mail's «Ver mis cupones»
 * link carries, so the success page can offer the same signed PDF and page, for a guest too.
 */
export const CapturedPurchaseSchema = PurchaseSchema.extend({ coupons_sig: z.string() });
export type CapturedPurchase = z.infer<typeof CapturedPurchaseSchema>;

/** POST /public/offers/apply-promocode/: the code as the cart keeps it. */
export const AppliedPromoCodeSchema = z.object({
  promo_code: z.string(),
  discount_type: z.enum(DISCOUNT_TYPES),
  discount_value: z.string(),
  offer_uuid: z.string().nullable(),
});
export type AppliedPromoCode = z.infer<typeof AppliedPromoCodeSchema>;

/** POST /sales/cancel/{id}/ */
export const CancelAnswerSchema = z.object({ released: z.boolean() });

/** POST /{provider}/webhook/: an acknowledgement for the provider. */
export const WebhookAnswerSchema = z.object({
  received: z.literal(true),
  duplicate: z.boolean().optional(),
  detail: z.string().optional(),
});

/** POST /public/offers/apply-promocode/'s body: the code, and the buyer's email when the cart knows it. */
export const ApplyPromoCodeSchema = z.object({ promo_code: PromoCodeText, email: z.string().trim().optional() });

/** POST /sales/capture/{id}/ and /sales/cancel/{id}/: the payment of the sale the buyer came back from. */
export const CaptureSaleSchema = z.object({ transaction_id: z.string().uuid("transaction_id no válido.") });
export const CancelSaleSchema = z.object({ transaction_id: z.string().uuid() });

/**
 * A purchase opened from its mail's signed link: the signature, and ?gift=<offer> for one gift.
 * The API checks them itself (a link that is not valid is a 404): never refused before, and a
 * repeated one reads as absent.
 */
const linkText = z.string().optional().catch(undefined);
const SignedPurchaseQuery = z.object({ sig: linkText, gift: linkText });

export const salesRoutes = {
  applyPromoCode: defineRoute({
    method: "POST",
    path: "/public/offers/apply-promocode/",
    body: ApplyPromoCodeSchema,
    answer: AppliedPromoCodeSchema,
  }),
  /** A body that does not fit answers 400 in the answer's own shape, with each error_text. */
  validate: defineRoute({ method: "POST", path: "/sales/validate/", body: ValidateOrderSchema, answer: ValidateOrderResponseSchema }),
  create: defineRoute({ method: "POST", path: "/sales/create/", body: CreateSaleRequestSchema, answer: PaymentAnswerSchema }),
  capture: defineRoute({ method: "POST", path: "/sales/capture/:id/", body: CaptureSaleSchema, answer: CapturedPurchaseSchema }),
  purchase: defineRoute({ method: "GET", path: "/sales/purchase/:id/", query: SignedPurchaseQuery, answer: PurchaseSchema }),
  vouchers: defineRoute({ method: "GET", path: "/sales/purchase/:id/vouchers.pdf", query: SignedPurchaseQuery, answer: notJson("pdf") }),
  cancel: defineRoute({ method: "POST", path: "/sales/cancel/:id/", body: CancelSaleSchema, answer: CancelAnswerSchema }),
  /** A payment provider's notification: its raw body, because the signature covers the exact bytes. */
  webhook: defineRoute({ method: "POST", path: "/:provider/webhook/", answer: WebhookAnswerSchema }),
};
