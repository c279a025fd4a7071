import { formatDateTime } from "./dates";

/**
 * Coupon codes as printed on the voucher: 12 characters from an alphabet without look-alikes
 * (no 0/O, 1/I), shown in groups of four ("ABCD-EFGH-JKMN").
 */
export const COUPON_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const COUPON_CODE_LENGTH = 12;

export function formatCouponCode(raw12: string): string {
  return `${raw12.slice(0, 4)}-${raw12.slice(4, 8)}-${raw12.slice(8, 12)}`;
}

/**
 * What a waiter types or a camera reads, as the stored code: case, spaces and dashes do not
 * matter, and a scanned link that ends in the code works too. null when it cannot be a code.
 */
export function normalizeCouponCode(input: string): string | null {
  const text = input.trim().toUpperCase();
  const tail = /([A-Z0-9]{4})[\s-]?([A-Z0-9]{4})[\s-]?([A-Z0-9]{4})[^A-Z0-9]*$/.exec(text);
  const compact = text.replace(/[\s-]/g, "");
  const candidate = compact.length === COUPON_CODE_LENGTH ? compact : tail ? tail.slice(1).join("") : null;
  if (!candidate || ![...candidate].every((c) => COUPON_ALPHABET.includes(c))) return null;
  return formatCouponCode(candidate);
}

export const COUPON_STATES = ["valid", "redeemed", "expired", "refunded"] as const;
export type CouponState = (typeof COUPON_STATES)[number];

export const COUPON_STATE_LABELS: Record<CouponState, string> = {
  valid: "Válido",
  redeemed: "Canjeado",
  expired: "Caducado",
  refunded: "Devuelto",
};

/** The order's short number, as the mail, the voucher PDF and «Mis pedidos» show it: «442A5FAB». */
export function orderNumber(saleId: string): string {
  return saleId.slice(0, 8).toUpperCase();
}

/** «Pedido nº 442A5FAB». */
export function orderLabel(saleId: string): string {
  return `Pedido nº ${orderNumber(saleId)}`;
}

/** «el 28 de noviembre de 2026 a las 19:11 por Ana»: when a coupon was redeemed and by whom, as the till says it. */
export function redeemedWhenAndBy(coupon: { redeemed_at: string | null; redeemed_by: string | null }): string {
  if (!coupon.redeemed_at) return "";
  return `el ${formatDateTime(coupon.redeemed_at)}${coupon.redeemed_by ? ` por ${coupon.redeemed_by}` : ""}`;
}
