/**
 * Where a link to an offer was followed from, when the offer page must know: opened from a
 * search, the offer page's loader records it as a recent search (spec section 3). A plain GET,
 * so a result opens in a new tab and works without JavaScript.
 */
export type OfferLinkSource = "search";

export const FROM_PARAM = "from";

export function offerHref(uuid: string, from?: OfferLinkSource): string {
  return `/ofertas/${uuid}/${from ? `?${FROM_PARAM}=${from}` : ""}`;
}
