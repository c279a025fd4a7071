import { z } from "zod";
import { EMPTY_CART, MAX_CART_ITEMS, type Cart } from "#rules/cart";
import { DISCOUNT_TYPES } from "#rules/prices";
import { MAX_PROMO_CODES, MAX_TICKETS_PER_ITEM } from "#contract/sales";
import { isStorableText } from "#rules/text";
import { GIFT_MESSAGE_MAX, GIFT_NAME_MAX } from "#rules/gifts";
import { cookies, readCookie } from "./cookies.server";

// Compact on the wire: [offer, option, tickets, slot, gift, price] per item,
// [code, type, value, offer] per promo code.
const Wire = z.object({
  v: z.literal(1),
  i: z
    .array(
      z
        .tuple([
          z.string().uuid(),
          z.string().uuid(),
          z.number().int().min(1).max(MAX_TICKETS_PER_ITEM),
          // A slot id the API could never store (NUL…) is dropped, not the whole item: an old or
          // forged cookie must not block "Continuar" until the buyer guesses which item to remove.
          z
            .string()
            .max(64)
            .nullable()
            .transform((slot) => (slot !== null && isStorableText(slot) ? slot : null)),
          z.union([z.literal(0), z.literal(1)]),
          z.string().regex(/^\d{1,6}(\.\d{1,2})?$/),
        ])
        // Gift details ride as a seventh element: [name, email, message, send day, giver's name].
        .rest(
          z
            .tuple([
              z.string().max(GIFT_NAME_MAX),
              z.string().max(254).nullable(),
              z.string().max(GIFT_MESSAGE_MAX),
              z.string().max(10).nullable(),
            ])
            // A cart saved before «De parte de» existed has four; either reads.
            .rest(z.string().max(GIFT_NAME_MAX).nullable()),
        ),
    )
    .max(MAX_CART_ITEMS),
  p: z
    .array(z.tuple([z.string().max(40), z.enum(DISCOUNT_TYPES), z.string().max(20), z.string().uuid().nullable()]))
    .max(MAX_PROMO_CODES)
    .transform((codes) => codes.filter(([code]) => isStorableText(code))),
});

export function decodeCart(value: unknown): Cart | null {
  const parsed = Wire.safeParse(value);
  if (!parsed.success) return null;
  return {
    items: parsed.data.i.map(([offerUuid, priceOptionUuid, ticketsCount, slotId, gift, savedPrice, giftTo]) => ({
      offerUuid,
      priceOptionUuid,
      ticketsCount,
      slotId,
      gift: gift === 1,
      savedPrice,
      // Only a gift with details carries them: a plain line reads as it always did.
      ...(giftTo
        ? {
            giftTo: {
              recipient_name: giftTo[0],
              recipient_email: giftTo[1],
              message: giftTo[2],
              send_on: giftTo[3],
              sender_name: giftTo[4] ?? null,
            },
          }
        : {}),
    })),
    promoCodes: parsed.data.p.map(([promo_code, discount_type, discount_value, offer_uuid]) => ({
      promo_code,
      discount_type,
      discount_value,
      offer_uuid,
    })),
  };
}

export function encodeCart(cart: Cart): z.input<typeof Wire> {
  return {
    v: 1,
    i: cart.items.map((i) => {
      const base = [i.offerUuid, i.priceOptionUuid, i.ticketsCount, i.slotId, i.gift ? 1 : 0, i.savedPrice] as const;
      const g = i.gift ? i.giftTo : null;
      return g ? [...base, [g.recipient_name, g.recipient_email, g.message, g.send_on, g.sender_name] as const] : [...base];
    }),
    p: cart.promoCodes.map((c) => [c.promo_code, c.discount_type, c.discount_value, c.offer_uuid ?? null]),
  };
}

/** A missing, tampered, stale or malformed cart cookie is an empty cart. */
export async function getCart(request: Request): Promise<Cart> {
  return (await readCookie(cookies().cart, request, decodeCart)) ?? EMPTY_CART;
}

export async function commitCart(cart: Cart): Promise<string> {
  if (cart.items.length === 0 && cart.promoCodes.length === 0) {
    return cookies().cart.serialize("", { maxAge: 0 });
  }
  return cookies().cart.serialize(encodeCart(cart));
}
