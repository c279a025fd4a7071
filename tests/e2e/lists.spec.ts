import { acceptCookies, expect, ready, test, type OfferSummary } from "./fixtures";

/**
 * Issue 10, section 5: «Populares ahora» and «Vistas recientemente», deferred lists below the fold.
 * Without JS they arrive in the same streamed HTML; with JS through the same loader.
 */

async function popularOffers(page: import("@playwright/test").Page, query = "") {
  const response = await page.request.get(`/api/v0/public/offers/popular/${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { results: OfferSummary[] }).results;
}

test("«Populares ahora» on the home page: the most bought this week, below the recommended list", async ({ page, js }) => {
  const popular = await popularOffers(page, "?page_size=6");
  // The demo shop's recent sales (api/db/seed-ratings.ts).
  expect(popular.length).toBeGreaterThan(3);
  await page.goto("/");
  await ready(page, js);
  const shelf = page.getByRole("region", { name: "Populares ahora" });
  await expect(shelf).toBeVisible();
  const titles = await shelf.locator(".card-title").allTextContents();
  expect(titles).toEqual(popular.map((o) => o.title));
  // Below the fold: after the page's own list.
  const listBottom = await page.locator("main .grid").first().evaluate((e) => e.getBoundingClientRect().bottom);
  const shelfTop = await shelf.evaluate((e) => e.getBoundingClientRect().top);
  expect(shelfTop).toBeGreaterThan(listBottom);
  // Cards link to the offer, like any other card.
  await shelf.getByRole("link", { name: new RegExp(popular[0].title.slice(0, 20)) }).first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(popular[0].title);
});

test("«Populares ahora» follows the chosen region, and is left out where nothing sold", async ({ page, js }) => {
  const [first] = await popularOffers(page, "?page_size=1");
  await page.goto(`/?region=${encodeURIComponent(first.region)}`);
  await ready(page, js);
  const shelf = page.getByRole("region", { name: "Populares ahora" });
  await expect(shelf.locator(".card-title").first()).toHaveText(first.title);
  for (const meta of await shelf.locator(".card-meta").allTextContents()) expect(meta).toContain(first.region);

  // A province with offers but no sale this week: the list is simply not there, the page is whole.
  const quiet = ["Soria", "Teruel", "Zamora", "Ávila", "Palencia", "Huesca", "Lugo", "Cuenca"];
  for (const region of quiet) {
    if ((await popularOffers(page, `?region=${encodeURIComponent(region)}`)).length) continue;
    await page.goto(`/?region=${encodeURIComponent(region)}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(region);
    await expect(page.locator("footer")).toBeVisible();
    await expect(page.getByRole("region", { name: "Populares ahora" })).toHaveCount(0);
    break;
  }
});

test("the search dialog (or /buscar) shows «Populares ahora» under 3 characters", async ({ page, js }) => {
  const popular = await popularOffers(page, "?page_size=4");
  if (js) {
    await page.goto("/");
    await ready(page, js);
    await acceptCookies(page);
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    await dialog.getByRole("searchbox").fill("pa");
    await expect(dialog.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    for (const offer of popular) await expect(dialog.getByRole("button", { name: new RegExp(offer.title.slice(0, 20)) }).first()).toBeVisible();
  } else {
    await page.goto("/buscar?q=pa");
    await expect(page.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    for (const offer of popular) await expect(page.getByRole("button", { name: new RegExp(offer.title.slice(0, 20)) }).first()).toBeVisible();
  }
});

test("«Vistas recientemente»: the offer page lists the others opened, newest first; an empty /favorite shows them", async ({ page, js }) => {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=5")).json()) as { results: OfferSummary[] };
  const [a, b, c] = results;
  await page.goto(`/ofertas/${a.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
  // Nothing seen before this one: no list.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(a.title);
  await expect(page.getByRole("region", { name: "Vistas recientemente" })).toHaveCount(0);

  await page.goto(`/ofertas/${b.uuid}/`);
  await page.goto(`/ofertas/${c.uuid}/`);
  await ready(page, js);
  const shelf = page.getByRole("region", { name: "Vistas recientemente" });
  await expect(shelf.locator(".card-title")).toHaveText([b.title, a.title]);

  // Opening one again moves it first; the page itself is never in its own list.
  await page.goto(`/ofertas/${a.uuid}/`);
  await expect(shelf.locator(".card-title")).toHaveText([c.title, b.title]);

  await page.goto("/favorite");
  await ready(page, js);
  await expect(page.getByText("Aún no has guardado ninguna oferta.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Vistas recientemente" }).locator(".card-title")).toHaveText([a.title, c.title, b.title]);
});

test("without JavaScript the deferred lists stream inside the first HTML response", async ({ page, js }) => {
  test.skip(js, "the point is the HTML alone");
  const html = await (await page.request.get("/")).text();
  expect(html).toContain("Populares ahora");
  // The page's own list comes first in the stream; the deferred list after it.
  expect(html.indexOf("Populares ahora")).toBeGreaterThan(html.indexOf('class="grid"'));
});
