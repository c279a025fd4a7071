import { randomInt } from "node:crypto";
import { COUPON_ALPHABET, COUPON_CODE_LENGTH, formatCouponCode } from "#rules/coupons";

/** A new coupon's code, drawn from the coupon alphabet. */
export function couponCode(): string {
  return formatCouponCode(Array.from({ length: COUPON_CODE_LENGTH }, () => COUPON_ALPHABET[randomInt(COUPON_ALPHABET.length)]).join(""));
}
