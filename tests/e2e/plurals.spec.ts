import { expect, ready, test, type OfferSummary } from "./support/fixtures";

/** A count the shop shows agrees with its number (rules/plurals.ts): the offer page's scarcity line. */
test(
  "an option with one ticket left says «¡Solo queda 1!», one with a few «¡Solo quedan N!»",
  { tag: "@js-covers" },
  async ({ page, js }) => {
    const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as { results: OfferSummary[] };
    const options = results.flatMap((offer) => offer.price_options.map((option) => ({ offer, option })));
    const one = options.find(({ option }) => option.available === 1);
    const few = options.find(({ option }) => option.available > 1 && option.available <= 5);
    expect(one, "the demo catalogue has an option with one ticket left").toBeTruthy();
    expect(few, "and one with a few").toBeTruthy();

    for (const { offer, option } of [one!, few!]) {
      await page.goto(`/ofertas/${offer.uuid}/`);
      await ready(page, js);
      const shown = page.locator("label.option", { has: page.locator(`input[value="${option.uuid}"]`) }).locator(".option-stock");
      await expect(shown).toHaveText(option.available === 1 ? "¡Solo queda 1!" : `¡Solo quedan ${option.available}!`);
      await expect(page.getByText(/quedan 1\b/)).toHaveCount(0);
    }
  },
);
