import type { GiftDetails } from "#rules/gifts";
import type { Cart } from "#rules/cart";
import { bestPromoPriceCents, codesFor, formatPrice, maxTickets, toCents } from "#rules/prices";
import { ticketsInWords, ticketsLeft } from "#rules/text";
import { offersApi, type OfferSummary } from "#app/api-client/client.server";

export type CheckoutLine = {
  offerUuid: string;
  title: string;
  summary: string;
  image: { url: string; width: number; height: number } | null;
  option: { uuid: string; title: string; actual_price: string; regular_price: string; max: number } | null;
  ticketsCount: number;
  gift: boolean;
  giftTo: GiftDetails | null;
  unitCents: number;
  promoUnitCents: number;
  /** A Spanish reason the line cannot be bought as it is, or a notice about it. */
  problem: string | null;
  notice: string | null;
};

/**
 * The cart joined with today's offers (one API call for all of them). Anything that changed since
 * the buyer added it is said in words on its line instead of failing the page.
 */
export async function checkoutLines(cart: Cart): Promise<{ lines: CheckoutLine[]; totalCents: number; payable: boolean }> {
  const offers = await offersApi.selected(cart.items.map((i) => i.offerUuid));
  const byId = new Map<string, OfferSummary>(offers.map((o) => [o.uuid, o]));
  const lines = cart.items.map((item): CheckoutLine => {
    const offer = byId.get(item.offerUuid);
    const option = offer?.price_options.find((o) => o.uuid === item.priceOptionUuid);
    const unitCents = option ? toCents(option.actual_price) : 0;
    const promoUnitCents = option ? bestPromoPriceCents(unitCents, codesFor(cart.promoCodes, item.offerUuid)) : 0;
    let problem: string | null = null;
    let notice: string | null = null;
    if (!offer) problem = "Esta oferta ya no está disponible. Quítala del carrito para continuar.";
    else if (!option) problem = "La opción que elegiste ya no existe. Vuelve a elegirla en la oferta.";
    else if (option.available <= 0) problem = "Agotada: quítala del carrito para continuar.";
    else if (item.ticketsCount > maxTickets(option)) {
      problem =
        option.available < item.ticketsCount
          ? `${ticketsLeft(option.available)}. Reduce la cantidad para continuar.`
          : `Máximo ${ticketsInWords(maxTickets(option))} por cliente. Reduce la cantidad para continuar.`;
    }
    if (option && !problem && toCents(item.savedPrice) !== unitCents) {
      notice = `El precio ha cambiado desde que la añadiste: antes ${formatPrice(item.savedPrice)}, ahora ${formatPrice(option.actual_price)}.`;
    }
    const cover = offer?.images[0];
    return {
      offerUuid: item.offerUuid,
      title: offer?.title ?? "Oferta no disponible",
      summary: offer?.summary ?? "",
      // Shown at most 96 px wide (the cart's lines and the checkout's items): the small copy.
      image: cover ? { url: cover.small_url ?? cover.image_url, width: cover.width, height: cover.height } : null,
      option: option
        ? {
            uuid: option.uuid,
            title: option.title,
            actual_price: option.actual_price,
            regular_price: option.regular_price,
            max: maxTickets(option),
          }
        : null,
      ticketsCount: item.ticketsCount,
      gift: item.gift,
      giftTo: item.gift ? (item.giftTo ?? null) : null,
      unitCents,
      promoUnitCents,
      problem,
      notice,
    };
  });
  const totalCents = lines.reduce((sum, l) => sum + (l.problem ? 0 : l.promoUnitCents * l.ticketsCount), 0);
  return { lines, totalCents, payable: lines.length > 0 && lines.every((l) => !l.problem) };
}
