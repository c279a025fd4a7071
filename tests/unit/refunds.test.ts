import { describe, expect, it } from "vitest";
import { refundRoute, withdrawalEndsAt, WITHDRAWAL_DAYS } from "#rules/refunds";

const paidAt = new Date("2026-11-01T10:00:00Z");
const at = (iso: string) => new Date(iso);

describe("refundRoute", () => {
  it("refunds an unredeemed coupon at once within the 14 days", () => {
    expect(WITHDRAWAL_DAYS).toBe(14);
    expect(refundRoute({ state: "valid", paidAt, giftGiven: false }, at("2026-11-15T09:59:59Z"))).toEqual({ route: "automatic" });
    expect(withdrawalEndsAt(paidAt)).toEqual(at("2026-11-15T10:00:00Z"));
  });

  it("sends a late request, an expired coupon or a gift already given to the staff", () => {
    expect(refundRoute({ state: "valid", paidAt, giftGiven: false }, at("2026-11-15T10:00:01Z")).route).toBe("review");
    expect(refundRoute({ state: "expired", paidAt, giftGiven: false }, at("2026-11-02T10:00:00Z")).route).toBe("review");
    expect(refundRoute({ state: "valid", paidAt, giftGiven: true }, at("2026-11-02T10:00:00Z")).route).toBe("review");
  });

  it("never refunds a redeemed coupon, or one refunded already, whatever the date", () => {
    for (const state of ["redeemed", "refunded"] as const) {
      for (const now of [at("2026-11-02T10:00:00Z"), at("2027-01-01T00:00:00Z")]) {
        const answer = refundRoute({ state, paidAt, giftGiven: false }, now);
        expect(answer.route).toBe("refused");
      }
    }
    expect(refundRoute({ state: "redeemed", paidAt, giftGiven: false }, paidAt)).toEqual({
      route: "refused",
      reason: "Este cupón ya se ha canjeado: no se puede devolver.",
    });
  });
});
