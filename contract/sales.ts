import { z } from "zod";
import "#rules/zod-es";
import { CheckoutDataSchema } from "#contract/checkout";
import { MAX_CART_ITEMS, MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM } from "#rules/cart";

// An order is never bigger than a cart can be: the cart's limits (rules/cart.ts) bound it.
export { MAX_CART_ITEMS, MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM };

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

export type ValidateOrderRequest = z.input<typeof ValidateOrderSchema>;

export type SaleLine = {
  offer_price_uuid: string;
  offer_uuid: string;
  title: string;
  option_title: string;
  quantity: number;
  unit_price: string;
  paid_unit_price: string;
  promo_code: string | null;
  line_total: string;
  for_present: boolean;
};

export type SalesData = { items: SaleLine[]; total: string; currency: "EUR" };

export type ValidateOrderResponse = {
  sales_data: SalesData;
  checkout_data: { session_token?: string; email: string } & Record<string, unknown>;
  errors: { error_text: string; offer_price_uuid?: string; field?: string }[];
};

export type PaymentAnswer = {
  /** provider_ref: the provider's own id of the payment (PayPal's order id, for its JS SDK buttons). */
  payment: {
    sale_id: string;
    transaction_id: string;
    provider: string;
    flow: "hosted" | "redirect";
    redirect_url: string;
    provider_ref: string | null;
  };
};

/** One bought line as every purchase answer gives it (a sale, the customer's history). */
export type PurchasedItem = {
  offer_uuid: string;
  title: string;
  option_title: string;
  quantity: number;
  paid_unit_price: string;
  for_present: boolean;
  valid_until: string | null;
};

export type Purchase = {
  sale_id: string;
  status: string;
  email: string;
  total: string;
  currency: string;
  paid_at: string | null;
  items: (PurchasedItem & {
    coupons: string[];
    /** Who honours the coupons, where and when, as printed on the voucher. */
    merchant: string;
    address: string;
    conditions: string;
    valid_from: string | null;
  })[];
};
