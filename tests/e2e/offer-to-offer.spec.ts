import type { Page } from "@playwright/test";
import { addToCart, expect, openOffer, roomyOffer, test, type OfferSummary } from "./support/fixtures";

/**
 * An offer opened from another offer's page is the one shown and sold: its heading, its buy form
 * and what «Añadir al carrito» puts in the cart. With JS the route stays mounted from one offer to
 * the next, so its data must be loaded again; without JS each is a new page.
 */

type Shown = { uuid: string; title: string };

async function expectOfferShown(page: Page, offer: Shown) {
  await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(offer.title);
  await expect(page).toHaveTitle(new RegExp(`^${offer.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  await expect(page.locator("#buy input[name=offerUuid]")).toHaveValue(offer.uuid);
}

/** The cart's offers, as the checkout lists them (one «Quitar …» button per offer). */
async function cartOffers(page: Page): Promise<string[]> {
  await page.goto("/checkout/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  return page
    .getByRole("button", { name: /^Quitar / })
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute("aria-label")!.slice(7)));
}

/** «Añadir al carrito» (or «Actualizar carrito») on the page shown, as a buyer presses it. */
async function buyShown(page: Page, js: boolean, button = "Añadir al carrito") {
  await page.getByRole("button", { name: button }).first().click();
  await expect(page.getByText(/(Añadido al carrito|Carrito actualizado)\./).first()).toBeVisible();
  if (js) await expect(page.locator("#cart-panel")).toBeVisible();
}

/** The first «Cerca de aquí» card of the offer page shown. */
function nearbyCard(page: Page) {
  return page
    .locator("section", { has: page.getByRole("heading", { level: 2, name: "Cerca de aquí" }) })
    .locator("a.card-link")
    .first();
}

async function cardOffer(card: ReturnType<typeof nearbyCard>): Promise<Shown> {
  const href = (await card.getAttribute("href"))!;
  return { uuid: /\/ofertas\/([0-9a-f-]{36})\//.exec(href)![1], title: (await card.locator(".card-title").textContent())!.trim() };
}

test("«Cerca de aquí»: the offer opened shows its own heading and buy form, and is the one added to the cart", async ({ page, js }) => {
  const a = await roomyOffer(page);
  await openOffer(page, js, a);
  const card = nearbyCard(page);
  const b = await cardOffer(card);
  expect(b.uuid).not.toBe(a.uuid);
  await card.click();
  await expectOfferShown(page, b);
  // A new page: it starts at the top, not where the card was.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await buyShown(page, js);
  expect(await cartOffers(page)).toEqual([b.title]);
});

test("a search result opened from an offer page: that offer is shown and sold, and it is a recent search", async ({ page, js }) => {
  const a = await roomyOffer(page);
  await openOffer(page, js, a);
  let result;
  if (js) {
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await dialog.getByRole("searchbox").fill("paella");
    result = dialog.getByRole("link", { name: /Paella marinera/ });
  } else {
    await page.getByRole("link", { name: "Buscar" }).click();
    await page.getByRole("searchbox", { name: "¿Qué buscas?" }).fill("paella");
    await page.getByRole("button", { name: "Buscar", exact: true }).click();
    result = page.locator("article.card").getByRole("link", { name: /Paella marinera/ });
  }
  const href = (await result.getAttribute("href"))!;
  expect(href).toMatch(/\?from=search$/);
  const b = { uuid: /\/ofertas\/([0-9a-f-]{36})\//.exec(href)![1], title: "" };
  b.title = ((await (await page.request.get(`/api/v0/public/offers/${b.uuid}/`)).json()) as OfferSummary).title;
  await result.click();
  await expectOfferShown(page, b);

  // Its load recorded it: the dialog (or /buscar) lists it first under «Búsquedas recientes».
  if (js) {
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog.getByRole("heading", { name: "Búsquedas recientes" })).toBeVisible();
    const recent = dialog.locator("section", { has: page.getByRole("heading", { name: "Búsquedas recientes" }) });
    await expect(recent.getByRole("link").first()).toContainText(b.title);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
  await buyShown(page, js);
  expect(await cartOffers(page)).toEqual([b.title]);
  if (!js) {
    await page.goto("/buscar");
    const recent = page.getByRole("heading", { name: "Búsquedas recientes" }).locator("xpath=following-sibling::ul[1]");
    await expect(recent.getByRole("link").first()).toContainText(b.title);
  }
});

test("a cart-panel line for another offer opens that offer, and «Actualizar carrito» changes that line", async ({ page, js }) => {
  test.skip(!js, "the cart panel is the app's; without JavaScript the cart is /checkout");
  test.setTimeout(90_000);
  const a = await roomyOffer(page);
  const b = await roomyOffer(page, "paella");
  expect(b.uuid).not.toBe(a.uuid);
  await addToCart(page, js, b, 1);
  await openOffer(page, js, a);
  await page.getByRole("link", { name: /^Carrito/ }).click();
  const panel = page.locator("#cart-panel");
  await expect(panel.getByRole("heading", { name: "Tu carrito" })).toBeVisible();
  await panel.getByRole("link", { name: b.title }).click();
  await expectOfferShown(page, b);
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("2");
  await buyShown(page, js, "Actualizar carrito");
  await expect(panel.locator(".cart-line")).toHaveCount(1);
  await expect(panel.locator(".cart-line")).toContainText(b.title);
  await expect(panel.locator(".cart-line")).toContainText("2 entradas");
  expect(await cartOffers(page)).toEqual([b.title]);
});

test("Back and Forward between two offers show each its own page", async ({ page, js }) => {
  const a = await roomyOffer(page);
  await openOffer(page, js, a);
  const card = nearbyCard(page);
  const b = await cardOffer(card);
  await card.click();
  await expectOfferShown(page, b);
  await page.goBack();
  await expectOfferShown(page, a);
  await page.goForward();
  await expectOfferShown(page, b);
  await buyShown(page, js);
  expect(await cartOffers(page)).toEqual([b.title]);
});

test("an offer hovered on another offer's page opens with the data the hover loaded: one request for it", async ({ page, js }) => {
  test.skip(!js, "prefetching is the app's");
  const a = await roomyOffer(page);
  await openOffer(page, js, a);
  const card = nearbyCard(page);
  const b = await cardOffer(card);
  const data = `/ofertas/${b.uuid}.data`;
  const asked: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === data && url.searchParams.get("_routes") !== "root") asked.push(url.pathname);
  });
  const loaded = page.waitForResponse((r) => new URL(r.url()).pathname === data);
  await card.hover();
  await loaded;
  await card.click();
  await expectOfferShown(page, b);
  await page.waitForTimeout(500);
  expect(asked).toHaveLength(1);
  // Later navigations do not load the hovered offer again: going back asks for A only.
  await page.goBack();
  await expectOfferShown(page, a);
  await page.waitForTimeout(500);
  expect(asked).toHaveLength(1);
});
