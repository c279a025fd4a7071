/**
 * The shop's commission on a partner's coupons, and the VAT on it: the one place where the money
 * of a statement is rounded (docs/decisions/036-statement-ledger.md).
 *
 * The rounding, stated once:
 * - Amounts are whole cents. A share of an amount (a percentage of a price, VAT on a commission)
 *   is rounded to the nearest cent, a half cent away from zero: 12,345 → 12,35; −12,345 → −12,35.
 * - Commission on a coupon: its rate's percentage of the coupon's gross, rounded, plus the rate's
 *   fixed amount per coupon; never more than the gross, so a coupon never owes the shop money.
 * - VAT: 21 % of an invoice's commission base, rounded once, as the invoice states it. Each line
 *   carries the step it adds to the rounded running total (lines in statement order), so the
 *   lines add up to the invoice exactly and each is within a cent of its own 21 %.
 */

/** A rate as staff set it: a percentage in basis points (1250 = 12,5 %) and cents per coupon. */
export type CommissionRate = { percent_bp: number; fixed_cents: number };

/** Basis points in a whole. */
export const BP = 10_000;

/** An organisation whose staff never set a rate pays this one (shown to it as «comisión estándar»). */
export const DEFAULT_COMMISSION: CommissionRate = { percent_bp: 2000, fixed_cents: 0 };

/** Spain's general VAT rate, on the shop's commission (a service to a business in Spain). */
export const VAT_RATE_BP = 2100;

/** The most a fixed amount per coupon may be: 1.000 € (a typo guard, not a business limit). */
export const FIXED_CENTS_MAX = 100_000;

/** `cents` × `bp` / 10 000, rounded to the cent, a half away from zero. */
export function shareOf(cents: number, bp: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(bp)) throw new RangeError("shareOf needs whole numbers");
  const product = Math.abs(cents * bp);
  const rounded = Math.floor((product + BP / 2) / BP);
  return cents * bp < 0 ? -rounded || 0 : rounded; // never -0
}

/** The commission on one coupon of `grossCents` at `rate`. */
export function commissionCents(grossCents: number, rate: CommissionRate): number {
  if (grossCents <= 0) return 0;
  return Math.min(grossCents, shareOf(grossCents, rate.percent_bp) + rate.fixed_cents);
}

/** The VAT an invoice states for a commission base. */
export function vatCents(baseCents: number, rateBp = VAT_RATE_BP): number {
  return shareOf(baseCents, rateBp);
}

/**
 * The VAT of the next line of an invoice: the step of the rounded VAT from the running commission
 * total before the line to the one after it. Summed over an invoice's lines: vatCents(base).
 */
export function lineVatCents(baseBefore: number, lineCommission: number, rateBp = VAT_RATE_BP): number {
  return vatCents(baseBefore + lineCommission, rateBp) - vatCents(baseBefore, rateBp);
}

/** «20 %», «12,5 %», «12,25 %»: a rate's percentage as a statement writes it. */
export function formatPercentBp(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(Math.abs(bp % 100))
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${whole}${fraction ? `,${fraction}` : ""}\u00a0%`;
}

/** Parses «12,5», «12.5» or «20» (a percentage typed by staff) into basis points; NaN when it is not one. */
export function percentToBp(text: string): number {
  const value = text.trim().replace(",", ".").replace(/\s*%$/, "");
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(value)) return Number.NaN;
  const bp = Math.round(Number(`${value}e2`));
  return bp <= BP ? bp : Number.NaN;
}
