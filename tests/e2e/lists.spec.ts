import { acceptCookies, expect, ready, test, type OfferSummary } from "./support/fixtures";

/**
 * Spec section 2: «Populares ahora» and «Vistas recientemente», deferred lists below the fold.
 * Without JS they arrive in the same streamed HTML; with JS through the same loader.
 */

async function popularOffers(page: import("@playwright/test").Page, query = "") {
  const response = await page.request.get(`/api/v0/public/offers/popular/${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { results: OfferSummary[] }).results;
}

test("«Populares ahora» on the home page: the most bought this week, below the recommended list", async ({ page, js }) => {
  // Other tests buy during the run and the storefront reuses a catalogue answer for a minute:
  // compare with a wider slice of the live ranking, not its exact top.
  const ranking = (await popularOffers(page, "?page_size=12")).map((o) => o.title);
  // The demo shop's recent sales (api/db/seed-ratings.ts).
  expect(ranking.length).toBeGreaterThan(3);
  await page.goto("/");
  await ready(page, js);
  const shelf = page.getByRole("region", { name: "Populares ahora" });
  await expect(shelf).toBeVisible();
  const titles = await shelf.locator(".card-title").allTextContents();
  expect(titles).toHaveLength(4);
  for (const title of titles) expect(ranking).toContain(title);
  // Below the fold: after the page's own list.
  const listBottom = await page
    .locator("main .grid")
    .first()
    .evaluate((e) => e.getBoundingClientRect().bottom);
  const shelfTop = await shelf.evaluate((e) => e.getBoundingClientRect().top);
  expect(shelfTop).toBeGreaterThan(listBottom);
  // Cards link to the offer, like any other card.
  await shelf.locator(".card-link").first().click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titles[0]);
});

test("«Populares ahora» follows the chosen region, and is left out where nothing sold", async ({ page, js }) => {
  const [first] = await popularOffers(page, "?page_size=1");
  // As above: the storefront may show the region's list of up to a minute ago, so its first card
  // is one of the region's live ranking, not necessarily its top.
  const ranking = (await popularOffers(page, `?region=${encodeURIComponent(first.region)}&page_size=12`)).map((o) => o.title);
  await page.goto(`/?region=${encodeURIComponent(first.region)}`);
  await ready(page, js);
  const shelf = page.getByRole("region", { name: "Populares ahora" });
  await expect(shelf.locator(".card-title").first()).toBeVisible();
  expect(ranking).toContain(await shelf.locator(".card-title").first().textContent());
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
  const ranking = (await popularOffers(page, "?page_size=12")).map((o) => o.title);
  let list;
  if (js) {
    await page.goto("/");
    await ready(page, js);
    await acceptCookies(page);
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    await dialog.getByRole("searchbox").fill("pa");
    await expect(dialog.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    list = dialog.locator("section", { has: page.getByRole("heading", { name: "Populares ahora" }) });
  } else {
    await page.goto("/buscar?q=pa");
    await expect(page.getByRole("heading", { name: "Populares ahora" })).toBeVisible();
    list = page.locator("section", { has: page.getByRole("heading", { name: "Populares ahora" }) });
  }
  const titles = await list.locator(".search-result-title, .card-title").allTextContents();
  expect(titles).toHaveLength(4);
  for (const title of titles) expect(ranking).toContain(title);
});

test("«Vistas recientemente»: the offer page lists the others opened, newest first; an empty /favorite shows them", async ({
  page,
  js,
}) => {
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

test("without JavaScript a deferred list that streams in after the page is still shown, above the footer", async ({ page, js }) => {
  test.skip(js, "with JS React's own script moves the streamed list into place");
  const html = await (await page.request.get("/")).text();
  expect(html).toContain("Populares ahora");
  // Whether the list made it into the first flush depends on timing. Replay the late case exactly
  // as React streams it: a placeholder where the list goes, the list in a hidden <div id="S:0">
  // after </html>, and the script that a browser without JS never runs.
  const start = html.indexOf('<section class="offer-shelf"');
  const end = html.indexOf("</section>", html.indexOf("</h2>", start)) + "</section>".length;
  expect(start).toBeGreaterThan(0);
  const shelf = html.slice(start, end);
  const late = `${html.slice(0, start)}<!--$?--><template id="B:0"></template><!--/$-->${html.slice(end)}<div hidden id="S:0">${shelf}</div><script>$RC("B:0","S:0")</script>`;
  await page.route("**/", (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: late }));
  await page.goto("/");
  const region = page.getByRole("region", { name: "Populares ahora" });
  await expect(region).toBeVisible();
  const shelfBox = (await region.boundingBox())!;
  const mainBox = (await page.locator("main").boundingBox())!;
  const footerBox = (await page.locator("footer.site-footer").boundingBox())!;
  expect(shelfBox.y).toBeGreaterThanOrEqual(mainBox.y + mainBox.height - 1);
  expect(shelfBox.y + shelfBox.height).toBeLessThanOrEqual(footerBox.y + 1);
  // Lined up with the page's content.
  expect(Math.round(shelfBox.x)).toBe(Math.round((await page.locator("main h1").boundingBox())!.x));
});
