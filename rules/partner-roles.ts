/**
 * What each member of a partner may do. One table, read by the API (which refuses) and by the
 * partner pages (which hide the links), so the two halves never disagree.
 */
export const PARTNER_ROLES = ["owner", "manager", "cashier"] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];

export const PARTNER_ACTIONS = [
  "till.redeem",
  "till.undo",
  "till.today",
  "till.search",
  "offers.read",
  "offers.write",
  "promo-codes.read",
  "promo-codes.write",
  "sales.read",
  "statements.read",
  "members.read",
  "members.write",
  // The legal name, tax id and IBAN that statements are issued to: the owner's to change.
  "organization.write",
] as const;
export type PartnerAction = (typeof PARTNER_ACTIONS)[number];

const TILL: PartnerAction[] = ["till.redeem", "till.undo", "till.today", "till.search"];
const DESK: PartnerAction[] = ["offers.read", "offers.write", "promo-codes.read", "promo-codes.write", "sales.read"];

const ALLOWED: Record<PartnerRole, ReadonlySet<PartnerAction>> = {
  owner: new Set(PARTNER_ACTIONS),
  manager: new Set([...TILL, ...DESK]),
  // A cashier sees the coupon in front of them and today's list: no revenue, no buyers beyond that.
  cashier: new Set(TILL),
};

export const isPartnerRole = (value: unknown): value is PartnerRole =>
  typeof value === "string" && (PARTNER_ROLES as readonly string[]).includes(value);

export const partnerCan = (role: PartnerRole | null | undefined, action: PartnerAction) => role != null && ALLOWED[role].has(action);

/** Minutes during which the member who redeemed a coupon may undo it; after that only staff. */
export const UNDO_MINUTES = 10;

export const canUndoRedemption = (
  redemption: { redeemedBy: string; redeemedAt: Date },
  actor: { userId: string; staff: boolean },
  now: Date,
) => actor.staff || (actor.userId === redemption.redeemedBy && now.getTime() - redemption.redeemedAt.getTime() <= UNDO_MINUTES * 60_000);

export const PARTNER_ROLE_LABELS: Record<PartnerRole, string> = {
  owner: "Titular",
  manager: "Encargado",
  cashier: "Cajero",
};
