import { describe, expect, it } from "vitest";
import { currentValues, hasChanges, reviewedChanges, withChanges, type ReviewedOffer } from "#rules/offer-revisions";

const live: ReviewedOffer = {
  title: "Cena para dos",
  summary: "Tres platos y postre.",
  description: "",
  conditions: "Reserva previa.",
  price_options: [
    { uuid: "a", title: "Para 2", actual_price: "40.00", regular_price: "60.00", available: 10, per_customer: 2 },
    { uuid: "b", title: "Para 4", actual_price: "75.00", regular_price: "120.00", available: 5, per_customer: null },
  ],
};

describe("changes to an offer on sale", () => {
  it("are only the reviewed fields that differ: words, option names and prices (written either way), new options", () => {
    expect(hasChanges(reviewedChanges(live, live))).toBe(false);
    // Stock and per-customer limits are no review matter; "40" is "40.00".
    const same = {
      ...live,
      price_options: live.price_options.map((o) => ({
        ...o,
        actual_price: o.actual_price.replace(".00", ""),
        available: 99,
        per_customer: 1,
      })),
    };
    expect(reviewedChanges(live, same)).toEqual({});
    const proposed: ReviewedOffer = {
      ...live,
      title: "Cena para dos con vino",
      price_options: [
        { ...live.price_options[0], actual_price: "35.5" },
        live.price_options[1],
        { uuid: null, title: "Para 6", actual_price: "100.00", regular_price: "180.00", available: 3, per_customer: null },
      ],
    };
    const changes = reviewedChanges(live, proposed);
    expect(changes).toEqual({
      title: "Cena para dos con vino",
      price_options: [
        { uuid: "a", title: "Para 2", actual_price: "35.5", regular_price: "60.00" },
        { uuid: null, title: "Para 6", actual_price: "100.00", regular_price: "180.00", available: 3, per_customer: null },
      ],
    });
    expect(currentValues(live, changes)).toEqual({
      title: "Cena para dos",
      price_options: [{ uuid: "a", title: "Para 2", actual_price: "40.00", regular_price: "60.00" }],
    });
  });

  it("put back on the live offer give what the partner wrote, and comparing that again gives the same changes", () => {
    const changes = reviewedChanges(live, {
      ...live,
      conditions: "Sin reserva.",
      price_options: [
        ...live.price_options,
        { uuid: null, title: "Para 6", actual_price: "100.00", regular_price: "180.00", available: 3, per_customer: null },
      ],
    });
    const written = withChanges(live, changes);
    expect(written.conditions).toBe("Sin reserva.");
    expect(written.price_options.map((o) => o.title)).toEqual(["Para 2", "Para 4", "Para 6"]);
    expect(reviewedChanges(live, written)).toEqual(changes);
    // An option the change names that is gone from the offer is left out.
    const withoutA = { ...live, price_options: live.price_options.slice(1) };
    expect(
      withChanges(withoutA, {
        price_options: [{ uuid: "a", title: "Para 2", actual_price: "1.00", regular_price: "2.00" }],
      }).price_options.map((o) => o.uuid),
    ).toEqual(["b"]);
    expect(withChanges(live, null)).toBe(live);
  });
});
