import type { Locator } from "@playwright/test";
import type { OfferDetail } from "#contract/offers";
import { acceptCookies, addToCart, expect, openCheckout, ready, test } from "./support/fixtures";
import { partnerOffer, removeOfferPhotos } from "./support/partner-fixtures";
import { WITHDRAWAL_PROMISE } from "#rules/refunds";

test.use({ viewport: { width: 375, height: 740 } });

/** A demo offer whose buyers left comments (api/db/seed-ratings.ts). */
async function reviewedOffer(request: import("@playwright/test").APIRequestContext): Promise<OfferDetail> {
  const { results } = (await (await request.get("/api/v0/public/offers/?page_size=12")).json()) as { results: { uuid: string }[] };
  for (const { uuid } of results) {
    const offer = (await (await request.get(`/api/v0/public/offers/${uuid}/`)).json()) as OfferDetail;
    if (offer.reviews.length && offer.organization.rating) return offer;
  }
  throw new Error("no reviewed offer in the demo catalogue");
}

/** The real count: other buyers (parallel tests) may add to it between the two reads, never take from it. */
async function expectSoldAtLeast(count: Locator, pattern: RegExp, atLeast: number) {
  await expect(count).toHaveText(pattern);
  expect(Number((await count.textContent())!.match(pattern)![1])).toBeGreaterThanOrEqual(atLeast);
}

test("the offer page shows how to pay, the terms, the real bought count, the partner's rating and the reviews", async ({ page, js }) => {
  const offer = await reviewedOffer(page.request);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);

  const trust = page.getByRole("list", { name: "Compra segura" });
  await expect(trust).toContainText("Pago seguro · Entorno de pruebas: no se cobra nada");
  await expectSoldAtLeast(trust.getByTestId("sold-count"), /^(\d+) compradas$/, offer.sold_count);
  expect(offer.sold_count).toBeGreaterThan(0);
  // The demo offers' conditions say nothing of cancelling: the general terms, not an invented line.
  await expect(trust.getByRole("link", { name: "Acuerdo de usuario" })).toHaveAttribute("href", "/agreement");
  await expect(page.getByText(/se agota|quedan \d+ (horas|minutos)/i)).toHaveCount(0);

  const rating = offer.organization.rating!;
  await expect(page.getByTestId("organization-rating")).toContainText(`${rating.count} valoraciones de sus ofertas`);

  const reviews = page.getByRole("region", { name: "Opiniones" }).getByRole("listitem");
  await expect(reviews).toHaveCount(offer.reviews.length);
  const first = reviews.first();
  await expect(first).toContainText(offer.reviews[0].comment);
  await expect(first).toContainText("Compra verificada");
  await expect(first.getByRole("img", { name: `${offer.reviews[0].stars} de 5 estrellas` })).toBeVisible();
  await expect(first).toContainText(/\d{2} \p{L}+ \d{4}/u);
});

test("at checkout the same trust: «Pago seguro» and its methods, the terms, the partner's rating, the bought count", async ({
  page,
  js,
}) => {
  const offer = await reviewedOffer(page.request);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);

  const item = page.locator(".checkout-item", { has: page.getByRole("link", { name: offer.title }) });
  await expect(item).toContainText(offer.organization.name);
  await expectSoldAtLeast(item.getByTestId("sold-count"), /^ · (\d+) compradas$/, offer.sold_count);
  const rating = offer.organization.rating!;
  await expect(item.getByTestId("organization-rating")).toContainText(`${rating.count} valoraciones de sus ofertas`);
  await expect(item.getByRole("img", { name: /^Valoración del comercio: \d,\d de 5 estrellas$/ })).toBeVisible();

  const trust = page.getByRole("list", { name: "Compra segura" });
  await expect(trust).toContainText("Pago seguro · Entorno de pruebas: no se cobra nada");
  await expect(trust).toContainText("Cancelación y reembolso:");
  // The user agreement's promise in plain words, whatever the offer's own terms say.
  await expect(trust).toContainText(`Cancelación y reembolso: ${WITHDRAWAL_PROMISE}`);
  await expect(trust).not.toContainText("apartado 7");
  await expect(trust.getByRole("link", { name: "Acuerdo de usuario" })).toHaveAttribute("href", "/agreement");
  // All of it on the phone's screen width, beside the form that decides.
  for (const part of [trust, item.getByTestId("organization-rating")]) {
    const box = (await part.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
});

test("an offer nobody has bought shows no count", { tag: "@js-covers" }, async ({ page, js }) => {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=60")).json()) as { results: { uuid: string }[] };
  let unsold: string | null = null;
  for (const { uuid } of results.slice().reverse()) {
    const offer = (await (await page.request.get(`/api/v0/public/offers/${uuid}/`)).json()) as OfferDetail;
    if (offer.sold_count === 0) {
      unsold = uuid;
      break;
    }
  }
  expect(unsold).not.toBeNull();
  await page.goto(`/ofertas/${unsold}/`);
  await ready(page, js);
  await expect(page.getByRole("list", { name: "Compra segura" })).toContainText("Pago seguro");
  await expect(page.getByTestId("sold-count")).toHaveCount(0);
});

test("cards differ: on a category page each offer shows its partner's own photo", { tag: "@js-covers" }, async ({ page, js }) => {
  await page.goto("/ofertas/category/restaurants/");
  await ready(page, js);
  const cards = page.locator("article.card");
  expect(await cards.count()).toBeGreaterThan(3);
  const pictures = await cards.evaluateAll((all) => all.map((card) => card.querySelector(".card-media img")?.getAttribute("src") ?? ""));
  expect(
    pictures.every((src) => src.startsWith("/")),
    "a photo on every card",
  ).toBe(true);
  expect(new Set(pictures).size, "no two cards share a picture").toBe(pictures.length);
  await expect(cards.locator(".card-fallback")).toHaveCount(0);
});

test("an offer left without photos gets a picture of its own, never another offer's", { tag: "@js-covers" }, async ({ page, js }) => {
  // A word no other offer has, one per project: both run at once on the same catalogue.
  const word = `Acantilado${js ? "j" : "n"}${Date.now().toString(36)}`;
  const made = [
    await partnerOffer(page.request, `Ruta ${word} por la costa`, { active: true }),
    await partnerOffer(page.request, `Ruta ${word} por el río`, { active: true }),
  ];
  for (const offer of made) await removeOfferPhotos(page.request, offer.uuid);
  await page.goto(`/buscar?q=${word}`);
  await ready(page, js);
  const cards = page.locator("article.card");
  await expect(cards).toHaveCount(2);
  await expect(cards.locator(".card-media img")).toHaveCount(0);
  const fallbacks = await cards.evaluateAll((all) => all.map((card) => card.querySelector(".card-fallback")?.outerHTML ?? ""));
  expect(
    fallbacks.every((html) => html.length > 0),
    "a drawn picture on each card",
  ).toBe(true);
  expect(fallbacks[0], "each offer its own").not.toBe(fallbacks[1]);
});
