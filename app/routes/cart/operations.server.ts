import {
  addPromoCode,
  addToCart,
  CART_FULL_MESSAGE,
  EMPTY_CART,
  removeFromCart,
  removePromoCode,
  setGift,
  updateTickets,
  type Cart,
} from "#rules/cart";
import { maxTickets } from "#rules/prices";
import { giftDetailsSchema, typedGiftText } from "#rules/gifts";
import { ticketsInWords } from "#rules/text";
import { saleEndedMessage } from "#rules/sale-end";
import { FUNNEL_EVENTS, type EventProperties, type FunnelEventName } from "#rules/tracking";
import { ApiError, offersApi, salesApi } from "#app/api-client/client.server";
import type { CartAction } from "#app/forms/cart-form";
import type { Toast } from "#app/state/session.server";

/** What one change did: the cart after it (the same object when refused), what to say, what to count. */
export type Outcome = { cart: Cart; toast?: Toast; event?: { name: FunnelEventName; properties: EventProperties } };

type Input<I extends CartAction["intent"]> = Extract<CartAction, { intent: I }>;

/** A refusal: the cart stays as it was, and the message says why (under a field, when tagged). */
export const refused = (cart: Cart, text: string, field?: Pick<Toast, "field" | "value">): Outcome => ({
  cart,
  toast: { type: "error", text, ...field },
});

async function optionOf(offerUuid: string, priceOptionUuid?: string) {
  try {
    const offer = await offersApi.get(offerUuid);
    return { offer, option: offer.price_options.find((o) => o.uuid === priceOptionUuid) };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** «Añadido», or what the add did instead when the option allows fewer tickets than asked. */
function addedText(already: boolean, clampedTo: number | null): string {
  if (clampedTo !== null) {
    const what = already ? "hemos actualizado tu carrito" : "hemos añadido";
    return `Esta opción admite como máximo ${ticketsInWords(clampedTo)}: ${what} ${clampedTo}.`;
  }
  return already ? "Carrito actualizado." : "Añadido al carrito.";
}

export async function addOffer(cart: Cart, input: Input<"add">): Promise<Outcome> {
  const found = await optionOf(input.offerUuid, input.priceOptionUuid);
  if (!found) return refused(cart, "Esta oferta ya no está disponible.");
  const { offer, option } = found;
  if (!offer.on_sale) return refused(cart, saleEndedMessage(offer.title));
  if (!option) return refused(cart, "Elige una de las opciones de la oferta.");
  if (option.available <= 0) return refused(cart, "Esta opción está agotada.");
  // Without JS the ticket field cannot follow the option chosen beside it, so it may offer more
  // than this option allows: take the most it allows and say so, rather than refuse.
  const max = maxTickets(option);
  const tickets = Math.min(input.ticketsCount, max);
  const change = addToCart(cart, {
    offerUuid: offer.uuid,
    priceOptionUuid: option.uuid,
    ticketsCount: tickets,
    savedPrice: option.actual_price,
    slotId: input.slotId ?? null,
  });
  if (change.error) return refused(cart, CART_FULL_MESSAGE);
  const already = cart.items.some((i) => i.offerUuid === offer.uuid);
  return {
    cart: change.cart,
    // Tagged: the offer page shows it as its «Añadido · Ir a pagar» bar.
    toast: { type: "success", field: "cart", text: addedText(already, input.ticketsCount > max ? max : null) },
    event: {
      name: FUNNEL_EVENTS.addedToCart,
      properties: {
        offer_uuid: offer.uuid,
        offer_title: offer.title,
        category: offer.category,
        quantity: tickets,
        price: option.actual_price,
        currency: "EUR",
      },
    },
  };
}

export async function changeTickets(cart: Cart, input: Input<"update">): Promise<Outcome> {
  const item = cart.items.find((i) => i.offerUuid === input.offerUuid);
  const found = item ? await optionOf(item.offerUuid, item.priceOptionUuid) : null;
  if (!item || !found?.option) return refused(cart, "Esa oferta ya no está en tu carrito.");
  const max = maxTickets(found.option);
  if (input.ticketsCount > max) return refused(cart, `Puedes comprar como máximo ${ticketsInWords(max)} de «${found.offer.title}».`);
  return { cart: updateTickets(cart, input.offerUuid, input.ticketsCount) };
}

export function removeOffer(cart: Cart, input: Input<"remove">): Outcome {
  return { cart: removeFromCart(cart, input.offerUuid), toast: { type: "success", text: "Oferta quitada del carrito." } };
}

export function emptyCart(): Outcome {
  return { cart: EMPTY_CART, toast: { type: "success", text: "Carrito vaciado." } };
}

export function markGift(cart: Cart, input: Input<"gift">): Outcome {
  const item = cart.items.find((i) => i.offerUuid === input.offerUuid);
  return { cart: setGift(cart, input.offerUuid, input.gift === "on", item?.giftTo ?? null) };
}

/** Who the gift is for: checked by the one gift schema, kept on the cart line. */
export function saveGiftDetails(cart: Cart, input: Input<"gift-details">): Outcome {
  const parsed = giftDetailsSchema().safeParse(input);
  if (!parsed.success) {
    // Said at the gift's form, with what was typed: without JS the page comes back with it filled in.
    const typed = typedGiftText({
      offer: input.offerUuid,
      recipient_name: input.recipient_name ?? "",
      sender_name: input.sender_name ?? "",
      recipient_email: input.recipient_email ?? "",
      message: input.message ?? "",
      send_on: input.send_on ?? "",
    });
    return refused(cart, parsed.error.issues[0]?.message ?? "Revisa los datos del regalo.", { field: "gift", value: typed });
  }
  return { cart: setGift(cart, input.offerUuid, true, parsed.data), toast: { type: "success", text: "Regalo guardado." } };
}

export async function applyPromoCode(cart: Cart, input: Input<"promo-add">, request: Request): Promise<Outcome> {
  // Refusals are tagged: the checkout shows them under the field, beside the code typed.
  const field = { field: "promo_code", value: input.promo_code } as const;
  if (cart.items.length === 0) return refused(cart, "Añade alguna oferta antes de aplicar un código promocional.", field);
  let promo;
  try {
    promo = await salesApi.applyPromoCode(input.promo_code, request);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    return { ...refused(cart, e.message, field), event: { name: FUNNEL_EVENTS.promoCodeRefused, properties: { status: e.status } } };
  }
  const change = addPromoCode(cart, {
    promo_code: promo.promo_code,
    discount_type: promo.discount_type,
    discount_value: promo.discount_value,
    offer_uuid: promo.offer_uuid,
  });
  if (change.error) return refused(cart, change.error, field);
  return {
    cart: change.cart,
    toast: { type: "success", text: `Código «${promo.promo_code}» aplicado.` },
    // The code's terms, never its text: a code can be personal.
    event: {
      name: FUNNEL_EVENTS.promoCodeApplied,
      properties: { discount_type: promo.discount_type, discount_value: promo.discount_value },
    },
  };
}

export function removeCode(cart: Cart, input: Input<"promo-remove">): Outcome {
  return { cart: removePromoCode(cart, input.promo_code), toast: { type: "success", text: `Código «${input.promo_code}» quitado.` } };
}

export function removeAllCodes(cart: Cart): Outcome {
  return { cart: { ...cart, promoCodes: [] }, toast: { type: "success", text: "Códigos promocionales quitados." } };
}

/** The change a posted form asks for, by its intent. */
export async function runCartAction(cart: Cart, input: CartAction, request: Request): Promise<Outcome> {
  switch (input.intent) {
    case "add":
      return addOffer(cart, input);
    case "update":
      return changeTickets(cart, input);
    case "remove":
      return removeOffer(cart, input);
    case "clear":
      return emptyCart();
    case "gift":
      return markGift(cart, input);
    case "gift-details":
      return saveGiftDetails(cart, input);
    case "promo-add":
      return applyPromoCode(cart, input, request);
    case "promo-remove":
      return removeCode(cart, input);
    case "promo-clear":
      return removeAllCodes(cart);
  }
}
