/**
 * Price rules of spec section 5, shared by the storefront (display) and the API (the figures
 * that are charged). Money is handled in whole cents so that totals never drift.
 */

export const DISCOUNT_TYPES = ["percent", "amount", "fixed_price"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const DISCOUNT_TYPE_LABELS: Record<DiscountType, string> = {
  percent: "Porcentaje",
  amount: "Importe por entrada",
  fixed_price: "Precio fijo",
};

export type PromoCode = {
  promo_code: string;
  discount_type: DiscountType;
  discount_value: string;
  /** When set, the code applies only to this offer. */
  offer_uuid?: string | null;
};

/** The codes that apply to one offer: the unrestricted ones and those bound to it. */
export function codesFor<T extends Pick<PromoCode, "offer_uuid">>(codes: readonly T[], offerUuid: string): T[] {
  return codes.filter((c) => !c.offer_uuid || c.offer_uuid === offerUuid);
}

/** Parses an API money value ("12.50", "12.00", 12.5) into cents; NaN when it is not a number. */
export function toCents(value: string | number): number {
  const text = typeof value === "number" ? String(value) : value.trim().replace(/\.00$/, "");
  if (text === "" || !/^-?\d+(\.\d+)?$/.test(text)) return Number.NaN;
  // Shift by exponent on the decimal text, so "1.005" rounds as written, not as its binary neighbour.
  return Math.round(Number(`${text}e2`));
}

/** The option with the lowest actual price (the first of equal ones); undefined when there is none. */
export function cheapestOption<T extends { actual_price: string }>(options: readonly T[]): T | undefined {
  return options.reduce<T | undefined>((best, o) => (!best || toCents(o.actual_price) < toCents(best.actual_price) ? o : best), undefined);
}

/** Cents back into the API's decimal string form ("12.50"). */
export function fromCents(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** "12,50 €": two decimals in Spanish format, times the ticket count, then the euro sign. */
export function formatPrice(value: string | number, ticketsCount = 1): string {
  const cents = toCents(value);
  if (Number.isNaN(cents)) return "";
  return formatCents(cents * ticketsCount);
}

/**
 * Whole cents as es-ES writes them: decimal comma, two decimals, and a dot between thousands only
 * from five digits up ("1234,50", "12.345,50": CLDR's minimumGroupingDigits 2, the RAE's rule).
 * Written out rather than through Intl.NumberFormat: a phone's browser spent a noticeable while loading
 * the locale for the first one, inside the task that starts the page's JavaScript (Lighthouse's TBT).
 * tests/unit/prices.test.ts checks it against Intl. A no-break space joins the amount and «€», so
 * no price anywhere (cards, tables, mail) breaks into «48,60» / «€».
 */
export function formatCents(cents: number): string {
  const whole = Math.round(Math.abs(cents));
  return `${cents < 0 && whole > 0 ? "-" : ""}${formatCount(Math.floor(whole / 100))},${String(whole % 100).padStart(2, "0")}\u00a0€`;
}

/** A whole number of things by the same rule: "1234 ofertas", "100.060 ofertas". */
export function formatCount(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  return (n <= -1 ? "-" : "") + (digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, "."));
}

/**
 * What the buyer saves on an order: the lines at their regular price, less what is charged (the
 * deal and any promo code). Never negative; integer cents.
 */
export function savingCents(lines: readonly { regular_unit_price: string; quantity: number }[], total: string): number {
  const regular = lines.reduce((sum, l) => sum + (toCents(l.regular_unit_price) || 0) * l.quantity, 0);
  const charged = toCents(total);
  return Number.isNaN(charged) ? 0 : Math.max(0, regular - charged);
}

/** The badge: minus the percentage of the actual versus the regular price, rounded ("-35%"). */
export function discountPercent(actual: string | number, regular: string | number): number | null {
  const a = toCents(actual);
  const r = toCents(regular);
  if (Number.isNaN(a) || Number.isNaN(r) || r <= 0 || a >= r) return null;
  return Math.round(100 - (a / r) * 100);
}

export function discountBadge(actual: string | number, regular: string | number): string | null {
  const percent = discountPercent(actual, regular);
  return percent === null || percent === 0 ? null : `-${percent}%`;
}

/** One code's price in cents; a non-numeric discount value leaves the price unchanged. */
export function promoPriceCents(priceCents: number, code: Pick<PromoCode, "discount_type" | "discount_value">): number {
  const value = Number(code.discount_value.trim());
  if (code.discount_value.trim() === "" || !Number.isFinite(value)) return priceCents;
  let result: number;
  switch (code.discount_type) {
    case "percent":
      result = Math.round(priceCents * (1 - value / 100));
      break;
    case "amount":
      result = priceCents - Math.round(value * 100);
      break;
    case "fixed_price":
      result = Math.round(value * 100);
      break;
    default:
      result = priceCents;
  }
  return Math.max(0, Math.min(priceCents, result));
}

/** The lowest promo price among the codes applies; with no codes the price stands. */
export function bestPromoPriceCents(priceCents: number, codes: readonly Pick<PromoCode, "discount_type" | "discount_value">[]): number {
  return codes.reduce((best, code) => Math.min(best, promoPriceCents(priceCents, code)), priceCents);
}

/** Ticket counter bounds: at least 1, at most the smaller of available and per_customer. */
export function maxTickets(option: { available: number; per_customer: number | null }): number {
  const perCustomer = option.per_customer && option.per_customer > 0 ? option.per_customer : Number.POSITIVE_INFINITY;
  return Math.max(0, Math.min(option.available, perCustomer));
}

export function clampTickets(requested: number, option: { available: number; per_customer: number | null }): number {
  const max = maxTickets(option);
  if (max < 1) return 0;
  if (!Number.isFinite(requested)) return 1;
  return Math.min(Math.max(1, Math.trunc(requested)), max);
}
