import type { PromoCode } from "#rules/prices";
import type { GiftDetails } from "#rules/gifts";

// Enough for any real basket and keeps the signed cookie far below the browser's 4 KB. The
// contract bounds an order by the same numbers (contract/sales.ts).
/** Offers in one cart, and so in one order. */
export const MAX_CART_ITEMS = 10;
export const MAX_TICKETS_PER_ITEM = 100;
export const MAX_PROMO_CODES = 5;

export type CartItem = {
  offerUuid: string;
  priceOptionUuid: string;
  ticketsCount: number;
  /** The unit price when it was added, to tell the buyer if it changed since. */
  savedPrice: string;
  slotId: string | null;
  /** for_present: the offer is bought as a gift. */
  gift: boolean;
  /** Who the gift is for, once the buyer said so. */
  giftTo?: GiftDetails | null;
};

export type Cart = { items: CartItem[]; promoCodes: PromoCode[] };

export const EMPTY_CART: Cart = { items: [], promoCodes: [] };

export type CartChange = { cart: Cart; error?: string };

export const CART_FULL_MESSAGE = `Tu carrito está lleno: caben ${MAX_CART_ITEMS} ofertas. Compra o quita alguna para añadir más.`;

/** Adding an offer already in the cart updates its option and ticket count instead of repeating it. */
export function addToCart(cart: Cart, item: Omit<CartItem, "gift"> & { gift?: boolean }): CartChange {
  const existing = cart.items.find((i) => i.offerUuid === item.offerUuid);
  if (existing) {
    return {
      cart: {
        ...cart,
        items: cart.items.map((i) => (i.offerUuid === item.offerUuid ? { ...i, ...item, gift: item.gift ?? i.gift } : i)),
      },
    };
  }
  if (cart.items.length >= MAX_CART_ITEMS) return { cart, error: CART_FULL_MESSAGE };
  return { cart: { ...cart, items: [...cart.items, { ...item, gift: item.gift ?? false }] } };
}

export function updateTickets(cart: Cart, offerUuid: string, ticketsCount: number): Cart {
  return { ...cart, items: cart.items.map((i) => (i.offerUuid === offerUuid ? { ...i, ticketsCount } : i)) };
}

/** Removing an offer also drops its gift flag, which lives on the item. */
export function removeFromCart(cart: Cart, offerUuid: string): Cart {
  const items = cart.items.filter((i) => i.offerUuid !== offerUuid);
  return { items, promoCodes: items.length ? cart.promoCodes : [] };
}

export function setGift(cart: Cart, offerUuid: string, gift: boolean, giftTo: GiftDetails | null = null): Cart {
  return {
    ...cart,
    items: cart.items.map((i) => (i.offerUuid === offerUuid ? { ...i, gift, giftTo: gift ? giftTo : null } : i)),
  };
}

/** The gift details of each line bought as a gift, for the API. */
export function giftsOf(cart: Cart): (GiftDetails & { offer_uuid: string })[] {
  return cart.items.filter((i) => i.gift && i.giftTo).map((i) => ({ offer_uuid: i.offerUuid, ...i.giftTo! }));
}

export function addPromoCode(cart: Cart, code: PromoCode): CartChange {
  const others = cart.promoCodes.filter((c) => c.promo_code !== code.promo_code);
  if (others.length >= MAX_PROMO_CODES) {
    return { cart, error: `Puedes aplicar como máximo ${MAX_PROMO_CODES} códigos promocionales.` };
  }
  return { cart: { ...cart, promoCodes: [...others, code] } };
}

export function removePromoCode(cart: Cart, code: string): Cart {
  return { ...cart, promoCodes: cart.promoCodes.filter((c) => c.promo_code !== code) };
}

export function forPresent(cart: Cart): string[] {
  return cart.items.filter((i) => i.gift).map((i) => i.offerUuid);
}

export function ticketCount(cart: Cart): number {
  return cart.items.reduce((n, i) => n + i.ticketsCount, 0);
}

/** Identifies a cart's contents, so a payment step can tell that the cart changed under it. */
export function cartFingerprint(cart: Cart): string {
  const text = JSON.stringify([
    cart.items.map((i) => [i.offerUuid, i.priceOptionUuid, i.ticketsCount, i.slotId, i.gift, i.giftTo ?? null]),
    cart.promoCodes.map((c) => c.promo_code).sort(),
  ]);
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = ((h << 5) + h + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/**
 * Two carts become one (the cookie cart joining the account's at login): items of `newer` win
 * for the same offer, the rest follow in order up to MAX_CART_ITEMS; promo codes are joined.
 */
export function mergeCarts(older: Cart, newer: Cart): Cart {
  const items = [...newer.items, ...older.items.filter((o) => !newer.items.some((n) => n.offerUuid === o.offerUuid))].slice(
    0,
    MAX_CART_ITEMS,
  );
  const codes = [
    ...newer.promoCodes,
    ...older.promoCodes.filter((o) => !newer.promoCodes.some((n) => n.promo_code === o.promo_code)),
  ].slice(0, MAX_PROMO_CODES);
  return { items, promoCodes: items.length ? codes : [] };
}
