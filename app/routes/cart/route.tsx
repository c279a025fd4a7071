import { redirect, type ActionFunctionArgs } from "@remix-run/node";
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
import { CartActionSchema, withChosenTickets } from "#app/forms/cart-form";
import { ticketsInWords } from "#rules/text";
import { ApiError, customerApi, offersApi, salesApi } from "#app/api-client/client.server";
import { viewer } from "#app/state/auth.server";
import { commitCart, getCart } from "#app/state/cart.server";
import { backTo } from "#app/forms/redirect";
import { finish } from "#app/forms/respond.server";
import { getSession, type Toast } from "#app/state/session.server";
import { funnelEvents } from "#app/third-party/tracking.server";
import { FUNNEL_EVENTS, type EventProperties, type FunnelEventName } from "#rules/tracking";
import { readForm } from "#app/forms/form.server";
import { toastOnFailure } from "#app/forms/fetcher-failure";

/** With JS a failed post is a toast, never an error page. */
export const clientAction = toastOnFailure;

/** The cart has no page of its own: GET /cart shows the checkout. */
export const loader = () => redirect("/checkout/");

type Outcome = { cart: Cart; toast?: Toast; event?: { name: FunnelEventName; properties: EventProperties } };

async function optionOf(offerUuid: string, priceOptionUuid?: string) {
  try {
    const offer = await offersApi.get(offerUuid);
    return { offer, option: offer.price_options.find((o) => o.uuid === priceOptionUuid) };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

const error = (cart: Cart, text: string, field?: Pick<Toast, "field" | "value">): Outcome => ({
  cart,
  toast: { type: "error", text, ...field },
});

/**
 * Every cart change. The browser only says what it wants; prices, stock and limits come from the
 * API, and a rejected change leaves the cart exactly as it was.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await readForm(request);
  const to = backTo(request, formData, "/checkout/");
  const cart = await getCart(request);
  const parsed = CartActionSchema.safeParse(withChosenTickets(Object.fromEntries(formData)));
  let outcome: Outcome;
  if (!parsed.success) {
    const promo = formData.get("intent") === "promo-add" ? String(formData.get("promo_code") ?? "").slice(0, 60) : null;
    outcome = error(
      cart,
      parsed.error.issues[0]?.message ?? "No hemos entendido la petición.",
      promo === null ? undefined : { field: "promo_code", value: promo },
    );
  } else {
    const input = parsed.data;
    switch (input.intent) {
      case "add": {
        const found = await optionOf(input.offerUuid, input.priceOptionUuid);
        if (!found) {
          outcome = error(cart, "Esta oferta ya no está disponible.");
        } else if (!found.option) {
          outcome = error(cart, "Elige una de las opciones de la oferta.");
        } else if (found.option.available <= 0) {
          outcome = error(cart, "Esta opción está agotada.");
        } else {
          // Without JS the ticket field cannot follow the option chosen beside it, so it may offer
          // more than this option allows: take the most it allows and say so, rather than refuse.
          const max = maxTickets(found.option);
          const clamped = input.ticketsCount > max;
          const change = addToCart(cart, {
            offerUuid: found.offer.uuid,
            priceOptionUuid: found.option.uuid,
            ticketsCount: Math.min(input.ticketsCount, max),
            savedPrice: found.option.actual_price,
            slotId: input.slotId ?? null,
          });
          const already = cart.items.some((i) => i.offerUuid === found.offer.uuid);
          outcome = change.error
            ? error(cart, CART_FULL_MESSAGE)
            : {
                cart: change.cart,
                // Tagged: the offer page shows it as its «Añadido · Ir a pagar» bar.
                toast: {
                  type: "success",
                  field: "cart",
                  text: clamped
                    ? `Esta opción admite como máximo ${ticketsInWords(max)}: ${already ? "hemos actualizado tu carrito" : "hemos añadido"} ${max}.`
                    : already
                      ? "Carrito actualizado."
                      : "Añadido al carrito.",
                },
                event: {
                  name: FUNNEL_EVENTS.addedToCart,
                  properties: {
                    offer_uuid: found.offer.uuid,
                    offer_title: found.offer.title,
                    category: found.offer.category,
                    quantity: Math.min(input.ticketsCount, max),
                    price: found.option.actual_price,
                    currency: "EUR",
                  },
                },
              };
        }
        break;
      }
      case "update": {
        const item = cart.items.find((i) => i.offerUuid === input.offerUuid);
        const found = item ? await optionOf(item.offerUuid, item.priceOptionUuid) : null;
        if (!item || !found?.option) {
          outcome = error(cart, "Esa oferta ya no está en tu carrito.");
        } else if (input.ticketsCount > maxTickets(found.option)) {
          outcome = error(cart, `Puedes comprar como máximo ${ticketsInWords(maxTickets(found.option))} de «${found.offer.title}».`);
        } else {
          outcome = { cart: updateTickets(cart, input.offerUuid, input.ticketsCount) };
        }
        break;
      }
      case "remove":
        outcome = { cart: removeFromCart(cart, input.offerUuid), toast: { type: "success", text: "Oferta quitada del carrito." } };
        break;
      case "clear":
        outcome = { cart: EMPTY_CART, toast: { type: "success", text: "Carrito vaciado." } };
        break;
      case "gift":
        outcome = { cart: setGift(cart, input.offerUuid, input.gift === "on") };
        break;
      case "promo-add": {
        // Refusals are tagged: the checkout shows them under the field, beside the code typed.
        const refused = { field: "promo_code", value: input.promo_code } as const;
        if (cart.items.length === 0) {
          outcome = error(cart, "Añade alguna oferta antes de aplicar un código promocional.", refused);
          break;
        }
        try {
          const promo = await salesApi.applyPromoCode(input.promo_code, request);
          const change = addPromoCode(cart, {
            promo_code: promo.promo_code,
            discount_type: promo.discount_type,
            discount_value: promo.discount_value,
            offer_uuid: promo.offer_uuid,
          });
          outcome = change.error
            ? error(cart, change.error, refused)
            : {
                cart: change.cart,
                toast: { type: "success", text: `Código «${promo.promo_code}» aplicado.` },
                // The code's terms, never its text: a code can be personal.
                event: {
                  name: FUNNEL_EVENTS.promoCodeApplied,
                  properties: { discount_type: promo.discount_type, discount_value: promo.discount_value },
                },
              };
        } catch (e) {
          if (!(e instanceof ApiError) || e.status >= 500) throw e;
          outcome = {
            ...error(cart, e.message, refused),
            event: { name: FUNNEL_EVENTS.promoCodeRefused, properties: { status: e.status } },
          };
        }
        break;
      }
      case "promo-remove":
        outcome = {
          cart: removePromoCode(cart, input.promo_code),
          toast: { type: "success", text: `Código «${input.promo_code}» quitado.` },
        };
        break;
      case "promo-clear":
        outcome = { cart: { ...cart, promoCodes: [] }, toast: { type: "success", text: "Códigos promocionales quitados." } };
        break;
    }
  }
  // Logged in, the change is saved on the account too, so the cart follows the customer.
  if (outcome.cart !== cart && viewer(await getSession(request))) {
    await customerApi.saveCart(outcome.cart, request).catch(() => {});
  }
  const events = await funnelEvents(request, [outcome.event]);
  return finish(request, formData, { to, toast: outcome.toast, events, headers: { "Set-Cookie": await commitCart(outcome.cart) } });
}
