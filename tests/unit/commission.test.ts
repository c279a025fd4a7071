import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commissionCents, formatPercentBp, lineVatCents, percentToBp, shareOf, vatCents, VAT_RATE_BP } from "#rules/commission";
import { isPayable, PAYABLE_MOMENTS, type CouponFacts } from "#rules/payable";

/** The exact rounding, in BigInt: the nearest cent of cents × bp / 10 000, a half away from zero. */
function exact(cents: number, bp: number): number {
  const product = BigInt(cents) * BigInt(bp);
  const magnitude = product < 0n ? -product : product;
  const rounded = (magnitude * 2n + 10_000n) / 20_000n;
  return Number(product < 0n ? -rounded : rounded) || 0;
}

describe("shareOf: a share of an amount, rounded to the cent, a half away from zero", () => {
  it("rounds the examples of the rule", () => {
    expect(shareOf(5990, 1500)).toBe(899); // 8,985 → 8,99
    expect(shareOf(-5990, 1500)).toBe(-899);
    expect(shareOf(3523, 2100)).toBe(740); // 7,3983 → 7,40
    expect(shareOf(929, 2100)).toBe(195); // 1,9509 → 1,95
    expect(shareOf(50, 1000)).toBe(5);
    expect(shareOf(5, 1000)).toBe(1); // 0,005 → 0,01
    expect(shareOf(-5, 1000)).toBe(-1);
    expect(shareOf(4, 1000)).toBe(0);
    expect(() => shareOf(1.5, 100)).toThrow(RangeError);
  });

  it("is the exact rounding, and symmetric, for any amount and rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e11, max: 1e11 }), fc.integer({ min: 0, max: 10_000 }), (cents, bp) => {
        expect(shareOf(cents, bp)).toBe(exact(cents, bp));
        expect(shareOf(-cents, bp)).toBe(-shareOf(cents, bp) || 0);
      }),
    );
  });
});

describe("commissionCents", () => {
  it("is the percentage plus the fixed amount, never more than the coupon", () => {
    expect(commissionCents(5990, { percent_bp: 1500, fixed_cents: 30 })).toBe(929);
    expect(commissionCents(10900, { percent_bp: 1500, fixed_cents: 30 })).toBe(1665);
    expect(commissionCents(200, { percent_bp: 5000, fixed_cents: 150 })).toBe(200);
    expect(commissionCents(0, { percent_bp: 2000, fixed_cents: 50 })).toBe(0);
  });

  it("stays between 0 and the gross for any price and rate", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e9 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (gross, percent_bp, fixed_cents) => {
          const c = commissionCents(gross, { percent_bp, fixed_cents });
          expect(c).toBeGreaterThanOrEqual(0);
          expect(c).toBeLessThanOrEqual(gross);
          if (c < gross) expect(c).toBe(exact(gross, percent_bp) + fixed_cents);
        },
      ),
    );
  });
});

describe("VAT on an invoice's lines", () => {
  it("adds up to 21 % of the base, rounded once, whatever the lines and their signs", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -200_000, max: 200_000 }), { maxLength: 300 }), (commissions) => {
        let base = 0;
        let vat = 0;
        for (const c of commissions) {
          const line = lineVatCents(base, c);
          // Each line is within a cent of its own 21 %.
          expect(Math.abs(line * 100 - c * 21)).toBeLessThanOrEqual(100);
          vat += line;
          base += c;
        }
        expect(vat).toBe(vatCents(base));
        expect(vatCents(base)).toBe(exact(base, VAT_RATE_BP));
      }),
    );
  });
});

describe("writing and reading a rate", () => {
  it("formats basis points as a Spanish percentage", () => {
    expect(formatPercentBp(2000)).toBe("20\u00a0%");
    expect(formatPercentBp(1250)).toBe("12,5\u00a0%");
    expect(formatPercentBp(1225)).toBe("12,25\u00a0%");
    expect(formatPercentBp(5)).toBe("0,05\u00a0%");
    expect(formatPercentBp(10_000)).toBe("100\u00a0%");
  });

  it("reads what staff type", () => {
    expect(percentToBp("12,5")).toBe(1250);
    expect(percentToBp("12.25 %")).toBe(1225);
    expect(percentToBp("20")).toBe(2000);
    expect(percentToBp("100")).toBe(10_000);
    for (const bad of ["", "abc", "-5", "100,01", "12,345", "1e2"]) expect(percentToBp(bad)).toBeNaN();
  });
});

describe("isPayable: which facts make a coupon owed", () => {
  const facts = (f: Partial<CouponFacts>): CouponFacts => ({ sold: true, refunded: false, redeemed: false, expired: false, ...f });

  it("follows the moment", () => {
    expect(isPayable("sold", facts({}))).toBe(true);
    expect(isPayable("redeemed", facts({}))).toBe(false);
    expect(isPayable("redeemed", facts({ redeemed: true }))).toBe(true);
    expect(isPayable("redeemed", facts({ expired: true }))).toBe(false);
    expect(isPayable("expiry", facts({ expired: true }))).toBe(true);
    expect(isPayable("expiry", facts({ redeemed: true }))).toBe(true);
    expect(isPayable("expiry", facts({}))).toBe(false);
  });

  it("never owes a refunded or unsold coupon", () => {
    for (const moment of PAYABLE_MOMENTS) {
      expect(isPayable(moment, facts({ refunded: true, redeemed: true, expired: true }))).toBe(false);
      expect(isPayable(moment, facts({ sold: false, redeemed: true }))).toBe(false);
    }
  });
});
