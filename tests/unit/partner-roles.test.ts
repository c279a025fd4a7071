import { describe, expect, it } from "vitest";
import { PARTNER_ACTIONS, PARTNER_ROLES, canUndoRedemption, isPartnerRole, partnerCan } from "#rules/partner-roles";

/** The whole role × action matrix, written out so a change to the rule must change this table too. */
const EXPECTED: Record<string, string[]> = {
  owner: [...PARTNER_ACTIONS],
  manager: [
    "till.redeem",
    "till.undo",
    "till.today",
    "till.search",
    "offers.read",
    "offers.write",
    "promo-codes.read",
    "promo-codes.write",
    "sales.read",
  ],
  cashier: ["till.redeem", "till.undo", "till.today", "till.search"],
};

describe("partner roles", () => {
  for (const role of PARTNER_ROLES) {
    for (const action of PARTNER_ACTIONS) {
      const allowed = EXPECTED[role].includes(action);
      it(`${role} ${allowed ? "may" : "may not"} ${action}`, () => {
        expect(partnerCan(role, action)).toBe(allowed);
      });
    }
  }

  it("refuse everything to someone with no role in the partner", () => {
    expect(PARTNER_ACTIONS.some((a) => partnerCan(null, a))).toBe(false);
    expect(isPartnerRole("staff")).toBe(false);
    expect(isPartnerRole("cashier")).toBe(true);
  });

  it("let the same member undo for ten minutes, and after that only staff", () => {
    const at = new Date("2026-11-28T10:00:00Z");
    const redemption = { redeemedBy: "a", redeemedAt: at };
    const later = (min: number) => new Date(at.getTime() + min * 60_000);
    expect(canUndoRedemption(redemption, { userId: "a", staff: false }, later(10))).toBe(true);
    expect(canUndoRedemption(redemption, { userId: "a", staff: false }, later(10.01))).toBe(false);
    expect(canUndoRedemption(redemption, { userId: "b", staff: false }, later(1))).toBe(false);
    expect(canUndoRedemption(redemption, { userId: "b", staff: true }, later(60))).toBe(true);
  });
});
