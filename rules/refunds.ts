/**
 * The buyer's right to withdraw (user agreement, section 7): while a coupon is unredeemed, its
 * money comes back on request within this many days of the purchase. The agreement, the checkout
 * and the refund request all read it from here.
 */
import { addDays } from "date-fns/addDays";
import type { CouponState } from "#rules/coupons";

export const WITHDRAWAL_DAYS = 14;

/** The promise in plain words, as the checkout and the offer page say it next to «Cancelación y reembolso». */
export const WITHDRAWAL_PROMISE = `si no has canjeado el cupón, tienes ${WITHDRAWAL_DAYS} días desde la compra para pedir que te devolvamos el dinero`;

/** The last moment a coupon bought at `paidAt` is refunded on request without a review. */
export const withdrawalEndsAt = (paidAt: Date): Date => addDays(paidAt, WITHDRAWAL_DAYS);

export type RefundCoupon = {
  state: CouponState;
  /** When its sale was paid. */
  paidAt: Date;
  /** A gift whose coupon has already been handed to someone else: the money is theirs to claim. */
  giftGiven: boolean;
};

/**
 * What «Solicitar devolución» does for a coupon: «automatic» refunds through the sale's provider at
 * once, «review» goes to the staff queue (out of the window, or a gift already given), «refused»
 * never (redeemed, or refunded already), with the reason to show.
 */
export type RefundRoute = { route: "automatic" } | { route: "review"; reason: string } | { route: "refused"; reason: string };

export function refundRoute(coupon: RefundCoupon, now: Date): RefundRoute {
  if (coupon.state === "redeemed") return { route: "refused", reason: "Este cupón ya se ha canjeado: no se puede devolver." };
  if (coupon.state === "refunded") return { route: "refused", reason: "El dinero de este cupón ya se ha devuelto." };
  if (coupon.giftGiven) return { route: "review", reason: "Es un regalo ya entregado: nuestro equipo revisará la solicitud." };
  if (coupon.state === "expired" || now.getTime() > withdrawalEndsAt(coupon.paidAt).getTime()) {
    return { route: "review", reason: `Han pasado más de ${WITHDRAWAL_DAYS} días desde la compra: nuestro equipo revisará la solicitud.` };
  }
  return { route: "automatic" };
}
