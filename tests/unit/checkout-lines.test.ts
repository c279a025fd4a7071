import { describe, expect, it, vi } from "vitest";
import type { OfferSummary } from "#app/api-client/client.server";
import { ticketsInWords, ticketsLeft } from "#rules/text";

// The checkout's lines are checked against today's offers: one API call, answered here.
const offers: OfferSummary[] = [];
vi.mock("#app/api-client/client.server", () => ({ offersApi: { selected: async () => offers } }));
const { checkoutLines } = await import("#app/state/checkout-lines.server");

function offerWith(uuid: string, option: { available: number; per_customer: number | null }): OfferSummary {
  return {
    uuid,
    title: "Paella para dos",
    summary: "",
    images: [],
    price_options: [{ uuid: `${uuid}-o`, title: "Para dos", actual_price: "20.00", regular_price: "30.00", ...option }],
  } as unknown as OfferSummary;
}
const line = (uuid: string, ticketsCount: number) => ({
  offerUuid: uuid,
  priceOptionUuid: `${uuid}-o`,
  ticketsCount,
  savedPrice: "20.00",
  slotId: null,
  gift: false,
});

describe("ticket words", () => {
  it("say one ticket in the singular", () => {
    expect(ticketsInWords(1)).toBe("1 entrada");
    expect(ticketsInWords(3)).toBe("3 entradas");
    expect(ticketsLeft(1)).toBe("Solo queda 1 entrada");
    expect(ticketsLeft(2)).toBe("Solo quedan 2 entradas");
  });

  it("the checkout's stock and per-customer messages agree with the number", async () => {
    offers.splice(
      0,
      offers.length,
      offerWith("a", { available: 1, per_customer: null }),
      offerWith("b", { available: 50, per_customer: 1 }),
      offerWith("c", { available: 2, per_customer: null }),
    );
    const { lines } = await checkoutLines({ items: [line("a", 2), line("b", 2), line("c", 3)], promoCodes: [] });
    expect(lines.map((l) => l.problem)).toEqual([
      "Solo queda 1 entrada. Reduce la cantidad para continuar.",
      "Máximo 1 entrada por cliente. Reduce la cantidad para continuar.",
      "Solo quedan 2 entradas. Reduce la cantidad para continuar.",
    ]);
  });
});
