/**
 * When a sold coupon becomes money the shop owes its partner: one setting per organisation,
 * stated on each of its statements (docs/decisions/035-payable-moment.md).
 */

export const PAYABLE_MOMENTS = ["sold", "redeemed", "expiry"] as const;
export type PayableMoment = (typeof PAYABLE_MOMENTS)[number];

/**
 * On redemption, as Groupon in most of its markets and Wowcher for services: the buyer's
 * 14 days to withdraw and any refund before the service come out of money not yet paid out.
 */
export const DEFAULT_PAYABLE_MOMENT: PayableMoment = "redeemed";

export const PAYABLE_MOMENT_LABELS: Record<PayableMoment, string> = {
  sold: "Al venderse",
  redeemed: "Al canjearse",
  expiry: "Al canjearse o, si no se canjea, al caducar",
};

/** The sentence a statement prints under its totals. */
export const PAYABLE_MOMENT_TERMS: Record<PayableMoment, string> = {
  sold: "Se liquida cada cupón en el periodo en que se vende; un reembolso posterior se descuenta en la liquidación siguiente.",
  redeemed:
    "Se liquida cada cupón en el periodo en que se canjea; un cupón que caduca sin canjear no se liquida, y un canje deshecho se descuenta en la liquidación siguiente.",
  expiry:
    "Se liquida cada cupón en el periodo en que se canjea o, si no se canjea, en el que caduca; un reembolso o un canje deshecho después se descuenta en la liquidación siguiente.",
};

/** What has happened to a coupon by a moment: each fact true or not. */
export type CouponFacts = { sold: boolean; refunded: boolean; redeemed: boolean; expired: boolean };

/**
 * The rule, as data: under each moment, the facts any one of which makes a sold coupon payable.
 * A refunded coupon never is. The statements' query is built from this table (api/services/
 * statements/ledger.ts), so the database and isPayable cannot disagree.
 */
export const PAYABLE_WHEN: Record<PayableMoment, readonly ("sold" | "redeemed" | "expired")[]> = {
  sold: ["sold"],
  redeemed: ["redeemed"],
  expiry: ["redeemed", "expired"],
};

/** Whether the coupon is owed to the partner under `moment`, given its facts. */
export function isPayable(moment: PayableMoment, facts: CouponFacts): boolean {
  return facts.sold && !facts.refunded && PAYABLE_WHEN[moment].some((fact) => facts[fact]);
}

export function isPayableMoment(value: unknown): value is PayableMoment {
  return typeof value === "string" && (PAYABLE_MOMENTS as readonly string[]).includes(value);
}
