import type { Purchase } from "#contract/sales";
import { HttpError } from "#api/http";

/**
 * One gift of a purchase as its recipient sees it: that line only, and no money at all (the
 * prices and the total become zero, and the page and PDF say none of them for a gift).
 */
export function giftView(purchase: Purchase, offerId: string): Purchase {
  const item = purchase.items.find((i) => i.offer_uuid === offerId && i.gift);
  if (!item) throw new HttpError(404, "Este enlace no es válido o ha caducado.");
  return {
    ...purchase,
    email: "",
    total: "0.00",
    items: [{ ...item, paid_unit_price: "0.00", gift: item.gift ? { ...item.gift, recipient_email: null } : null }],
    gift_view: true,
  };
}
