import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cheapestOption,
  bestPromoPriceCents,
  clampTickets,
  codesFor,
  discountBadge,
  discountPercent,
  formatCents,
  formatCount,
  formatPrice,
  fromCents,
  maxTickets,
  promoPriceCents,
  savingCents,
  toCents,
  type PromoCode,
} from "#rules/prices";

// Intl inserts a narrow no-break space in some ICU versions; the spec wants "digits, space, €".
// We compare after normalising any space-like character to a plain space, and separately check
// that the euro sign is preceded by exactly one (possibly non-breaking) space.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("toCents (spec 5: trailing .00 stripped before computing)", () => {
  it.each([
    ["12.00", 1200],
    ["12.5", 1250],
    ["12.50", 1250],
    ["0.00", 0],
    ["100.00", 10000],
    ["0.1", 10],
    ["59.90", 5990],
    [" 12.50 ", 1250],
  ])("parses %j as %i cents", (input, cents) => {
    expect(toCents(input)).toBe(cents);
  });

  it("accepts numbers as well as strings", () => {
    expect(toCents(12.5)).toBe(1250);
    expect(toCents(12)).toBe(1200);
    expect(toCents(0.1 + 0.2)).toBe(30); // float noise is rounded away
  });

  it("stripping the trailing .00 does not change the value (12.00 === 12)", () => {
    expect(toCents("12.00")).toBe(toCents("12"));
    expect(toCents("1200.00")).toBe(120000);
  });

  it.each(["abc", "", "   ", "12,50", "12.", ".5", "1e3", "12.50€", "NaN"])("returns NaN for non-numeric %j", (input) => {
    expect(toCents(input)).toBeNaN();
  });

  // "1.005" is not a valid API money value (two decimals at most). Whatever the function does with a
  // third decimal it must be consistent: commercial (EU euro-conversion) rounding is half-up, so
  // 1.005 € → 1.01 € = 101 cents. Math.round(1.005 * 100) gives 100 because 1.005 * 100 is
  // 100.49999999999999 in binary floating point (likewise 1.015 → 101, 1.025 → 102), while 2.675 → 268
  // and 1.045 → 105 do round up: the result depends on float representation, not on a rule.
  it("rounds a third decimal half-up consistently (1.005 → 101 cents)", () => {
    expect(toCents("1.005")).toBe(101);
  });

  it("rounds every third-decimal half consistently (1.015 → 102, like 1.045 → 105)", () => {
    expect(toCents("1.045")).toBe(105);
    expect(toCents("1.015")).toBe(102);
  });

  it("a third decimal never produces a fractional number of cents", () => {
    for (const v of ["1.005", "1.015", "2.675", "0.125"]) expect(Number.isInteger(toCents(v))).toBe(true);
  });

  it("fromCents is the inverse of toCents for API values", () => {
    for (const v of ["0.00", "0.05", "12.50", "59.90", "1234.56"]) expect(fromCents(toCents(v))).toBe(v);
  });
});

describe("formatPrice (spec 5: 2 decimals × ticket count, then the euro sign)", () => {
  it("uses a decimal comma, two decimals and ' €' after the amount", () => {
    expect(plain(formatPrice("12.50"))).toBe("12,50 €");
    expect(plain(formatPrice("12.5"))).toBe("12,50 €");
    expect(plain(formatPrice("12.00"))).toBe("12,00 €");
    expect(plain(formatPrice(12))).toBe("12,00 €");
    expect(plain(formatPrice("0.00"))).toBe("0,00 €");
    expect(formatPrice("12.50")).toMatch(/^12,50[\s\u00a0\u202f]€$/);
  });

  it("joins amount and «€» with a no-break space, so a price never wraps", () => {
    expect(formatPrice("48.60")).toBe("48,60\u00a0€");
    expect(formatCents(-1234567)).toBe("-12.345,67\u00a0€");
  });

  it("multiplies by the ticket count", () => {
    expect(plain(formatPrice("12.00", 3))).toBe("36,00 €");
    expect(plain(formatPrice("59.90", 2))).toBe("119,80 €");
    // in cents, so no float drift: 0.10 × 3 is 0,30 and not 0,30000000000000004
    expect(plain(formatPrice("0.10", 3))).toBe("0,30 €");
  });

  it("groups thousands with a dot from five digits up", () => {
    expect(plain(formatPrice(12345.5))).toBe("12.345,50 €");
    expect(plain(formatPrice("1234567.89"))).toBe("1.234.567,89 €");
  });

  // es-ES (CLDR minimumGroupingDigits = 2, and the RAE rule) does not group 4-digit numbers:
  // new Intl.NumberFormat("es-ES", { minimumFractionDigits: 2 }).format(1234.5) === "1234,50".
  // rules/prices.ts sets `useGrouping: true`, which Intl.NumberFormat v3 (Node 20+, current browsers)
  // reads as "always", so it printed "1.234,50 €".
  it("does not group four-digit amounts, as es-ES does (1234,50 €)", () => {
    expect(plain(formatPrice("1234.5"))).toBe("1234,50 €");
  });

  it("returns an empty string for a non-numeric price instead of 'NaN €'", () => {
    expect(formatPrice("abc")).toBe("");
    expect(formatPrice("")).toBe("");
  });

  it("formatCents formats whole cents", () => {
    expect(plain(formatCents(5990))).toBe("59,90 €");
    expect(plain(formatCents(5))).toBe("0,05 €");
  });

  // Written out by hand so that a browser never loads the es-ES locale for it (rules/prices.ts).
  it("writes every amount as Intl.NumberFormat('es-ES') does", () => {
    const intl = new Intl.NumberFormat("es-ES", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const asIntl = (cents: number) => `${intl.format(cents / 100)}\u00a0€`;
    for (const cents of [0, 1, 99, 100, 999_999, 1_000_000, 123_456_789, -1, -123_456]) expect(formatCents(cents)).toBe(asIntl(cents));
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => formatCents(cents) === asIntl(cents)),
      { numRuns: 2000 },
    );
  });

  it("writes a count as Intl.NumberFormat('es-ES') does: a dot between thousands from five digits", () => {
    const intl = new Intl.NumberFormat("es-ES", { maximumFractionDigits: 0 });
    expect(formatCount(1234)).toBe("1234");
    expect(formatCount(100_060)).toBe("100.060");
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (n) => formatCount(n) === intl.format(n)),
      { numRuns: 2000 },
    );
  });
});

describe("cheapestOption (the «desde» price of cards and of the partner's list)", () => {
  it("compares prices as money, not as text, and keeps the first of equal ones", () => {
    const a = { id: "a", actual_price: "9.90" };
    const b = { id: "b", actual_price: "10.00" };
    const c = { id: "c", actual_price: "9.9" };
    expect(cheapestOption([b, a, c])).toBe(a);
    expect(
      cheapestOption([
        { id: "x", actual_price: "100.00" },
        { id: "y", actual_price: "20.00" },
      ])?.id,
    ).toBe("y");
    expect(cheapestOption([])).toBeUndefined();
  });
});

describe("discount badge (spec 5: minus the rounded percentage of actual versus regular)", () => {
  it.each([
    ["59.90", "120", "-50%"], // 59.90/120 = 0.4992 → 50.08 % off → 50
    ["39.90", "68", "-41%"], // 39.90/68 = 0.5868 → 41.32 % off → 41
    ["75.00", "100.00", "-25%"],
    ["19.99", "29.99", "-33%"], // 33.34 % → 33
    ["10.00", "30.00", "-67%"], // 66.67 % → 67 (rounded, not truncated)
    ["0.00", "50.00", "-100%"],
  ])("actual %s regular %s → %s", (actual, regular, badge) => {
    expect(discountBadge(actual, regular)).toBe(badge);
  });

  it("accepts numbers", () => {
    expect(discountBadge(59.9, 120)).toBe("-50%");
    expect(discountPercent(59.9, 120)).toBe(50);
  });

  it("shows no badge when there is no discount", () => {
    expect(discountBadge("50.00", "50.00")).toBeNull();
    expect(discountBadge("50.00", "50")).toBeNull();
    expect(discountBadge("60.00", "50.00")).toBeNull(); // dearer than regular
  });

  it("shows no badge when the regular price is zero or not a number", () => {
    expect(discountBadge("0.00", "0.00")).toBeNull();
    expect(discountBadge("10.00", "0")).toBeNull();
    expect(discountBadge("10.00", "abc")).toBeNull();
    expect(discountBadge("abc", "10.00")).toBeNull();
  });

  it("shows no '-0%' badge when the discount rounds to zero", () => {
    expect(discountBadge("99.60", "100.00")).toBeNull();
    expect(discountBadge("99.40", "100.00")).toBe("-1%");
  });
});

describe("promo code prices (spec 5)", () => {
  const code = (discount_type: PromoCode["discount_type"], discount_value: string) => ({ discount_type, discount_value });

  it("percent reduces the price by that percentage", () => {
    expect(promoPriceCents(10000, code("percent", "10"))).toBe(9000);
    expect(promoPriceCents(5990, code("percent", "50"))).toBe(2995);
    expect(promoPriceCents(1000, code("percent", "12.5"))).toBe(875);
    expect(promoPriceCents(999, code("percent", "50"))).toBe(500); // 499.5 → whole cents
  });

  it("amount subtracts the value (in euros)", () => {
    expect(promoPriceCents(5990, code("amount", "10"))).toBe(4990);
    expect(promoPriceCents(5990, code("amount", "10.50"))).toBe(4940);
  });

  it("fixed_price replaces the price", () => {
    expect(promoPriceCents(5990, code("fixed_price", "19.90"))).toBe(1990);
    expect(promoPriceCents(5990, code("fixed_price", "0"))).toBe(0);
  });

  it.each(["abc", "", "  ", "10%", "diez"])("a non-numeric value %j leaves the price unchanged", (value) => {
    for (const type of ["percent", "amount", "fixed_price"] as const) {
      expect(promoPriceCents(5990, code(type, value))).toBe(5990);
    }
  });

  it("never goes below zero", () => {
    expect(promoPriceCents(5990, code("amount", "100"))).toBe(0);
    expect(promoPriceCents(5990, code("percent", "150"))).toBe(0);
  });

  it("never goes above the price (a fixed price higher than the price, a negative discount)", () => {
    expect(promoPriceCents(5990, code("fixed_price", "80"))).toBe(5990);
    expect(promoPriceCents(5990, code("amount", "-10"))).toBe(5990);
    expect(promoPriceCents(5990, code("percent", "-20"))).toBe(5990);
  });

  it("the lowest promo price among several codes applies", () => {
    const codes = [code("percent", "10"), code("amount", "20"), code("fixed_price", "45"), code("percent", "abc")];
    // 10 % → 53.91, −20 → 39.90, fixed 45 → 45.00: the lowest is 39.90
    expect(bestPromoPriceCents(5990, codes)).toBe(3990);
    expect(bestPromoPriceCents(5990, [...codes].reverse())).toBe(3990);
  });

  it("with no codes (or only useless ones) the price stands", () => {
    expect(bestPromoPriceCents(5990, [])).toBe(5990);
    expect(bestPromoPriceCents(5990, [code("fixed_price", "99"), code("amount", "x")])).toBe(5990);
  });

  it("codesFor keeps unrestricted codes and those bound to the offer", () => {
    const codes: PromoCode[] = [
      { promo_code: "ALL", discount_type: "percent", discount_value: "10" },
      { promo_code: "ALLNULL", discount_type: "percent", discount_value: "10", offer_uuid: null },
      { promo_code: "MINE", discount_type: "amount", discount_value: "5", offer_uuid: "offer-a" },
      { promo_code: "OTHER", discount_type: "amount", discount_value: "5", offer_uuid: "offer-b" },
    ];
    expect(codesFor(codes, "offer-a").map((c) => c.promo_code)).toEqual(["ALL", "ALLNULL", "MINE"]);
    expect(codesFor(codes, "offer-b").map((c) => c.promo_code)).toEqual(["ALL", "ALLNULL", "OTHER"]);
    expect(codesFor(codes, "offer-c").map((c) => c.promo_code)).toEqual(["ALL", "ALLNULL"]);
  });
});

describe("ticket limits (spec 4: min 1, max = min(available, per_customer))", () => {
  it("maxTickets is the smaller of available and per_customer", () => {
    expect(maxTickets({ available: 10, per_customer: 4 })).toBe(4);
    expect(maxTickets({ available: 3, per_customer: 4 })).toBe(3);
    expect(maxTickets({ available: 5, per_customer: 5 })).toBe(5);
  });

  it("a null per_customer means only availability limits", () => {
    expect(maxTickets({ available: 7, per_customer: null })).toBe(7);
  });

  it("is never negative", () => {
    expect(maxTickets({ available: 0, per_customer: 2 })).toBe(0);
    expect(maxTickets({ available: -3, per_customer: null })).toBe(0);
  });

  it("clampTickets keeps the request within [1, max]", () => {
    const option = { available: 10, per_customer: 4 };
    expect(clampTickets(2, option)).toBe(2);
    expect(clampTickets(0, option)).toBe(1);
    expect(clampTickets(-5, option)).toBe(1);
    expect(clampTickets(9, option)).toBe(4);
    expect(clampTickets(2.7, option)).toBe(2);
    expect(clampTickets(Number.NaN, option)).toBe(1);
    expect(clampTickets(3, { available: 2, per_customer: null })).toBe(2);
  });

  it("clampTickets gives 0 when nothing is available", () => {
    expect(clampTickets(1, { available: 0, per_customer: null })).toBe(0);
  });
});

describe("savingCents", () => {
  it("is the regular prices times the tickets, less what is charged (deal and promo code)", () => {
    const lines = [
      { regular_unit_price: "38.00", quantity: 2 },
      { regular_unit_price: "10.50", quantity: 1 },
    ];
    expect(savingCents(lines, "49.80")).toBe(3800 * 2 + 1050 - 4980);
    expect(savingCents(lines, "40.00")).toBe(8650 - 4000);
  });

  it("is never negative, nor a figure from a total that is not a number", () => {
    expect(savingCents([{ regular_unit_price: "10.00", quantity: 1 }], "12.00")).toBe(0);
    expect(savingCents([{ regular_unit_price: "10.00", quantity: 1 }], "abc")).toBe(0);
  });
});
