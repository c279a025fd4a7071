import { acceptCookies, expect, ready, test } from "./support/fixtures";

/** Search results are the listing's cards (links); pages that found nothing offer a way on. */
test.use({ viewport: { width: 375, height: 740 } });

test("search results are links to the offer with picture and price; opening one records a recent search", async ({ page, js }) => {
  await page.goto("/");
  await ready(page, js);
  await acceptCookies(page);
  let result;
  if (js) {
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await dialog.getByRole("searchbox").fill("paella");
    result = dialog.getByRole("link", { name: /Paella marinera/ });
    await expect(result.locator("img")).toHaveCount(1);
  } else {
    await page.goto("/buscar?q=paella");
    result = page.locator("article.card").getByRole("link", { name: /Paella marinera/ });
    await expect(result.locator(".card-media img")).toHaveCount(1);
    await expect(page.locator("form[method=post][action='/buscar']")).toHaveCount(0);
  }
  // A plain link: it opens in a new tab as well, and says where it was followed from.
  await expect(result).toHaveAttribute("href", /^\/ofertas\/[0-9a-f-]{36}\/\?from=search$/);
  await expect(result.locator(".price-actual")).toHaveText(/^\d+,\d{2}\u00a0€$/);
  await expect(result).toContainText(/-\d+%/);
  await result.click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Paella marinera");

  // The offer page recorded it: «Búsquedas recientes» lists it first, as a link.
  await page.goto("/buscar");
  const recent = page.getByRole("heading", { name: "Búsquedas recientes" }).locator("xpath=following-sibling::ul[1]");
  await expect(recent.getByRole("link").first()).toHaveText(/Paella marinera/);
  // The same offer opened without the marker is a view, not a search: the list does not grow.
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=3")).json()) as { results: { uuid: string }[] };
  await page.goto(`/ofertas/${results[0].uuid}/`);
  await page.goto("/buscar");
  await expect(recent.getByRole("link")).toHaveCount(1);
});

test("a search that finds nothing shows «Populares ahora» and the categories", async ({ page, js }) => {
  await page.goto("/buscar?q=zzzzqqqq");
  await ready(page, js);
  await expect(page.getByText("No hemos encontrado ofertas para «zzzzqqqq».")).toBeVisible();
  const popular = page.getByRole("region", { name: "Populares ahora" });
  await expect(popular.locator("article.card")).toHaveCount(4);
  await expect(popular.locator("article.card a.card-link").first()).toHaveAttribute("href", /\?from=search$/);
  const categories = page.getByRole("region", { name: "Explora por categoría" });
  await expect(categories.getByRole("link", { name: "Restaurantes" })).toHaveAttribute("href", "/ofertas/category/restaurants/");
});

test("a removed offer and an unknown page keep their 404 and show «Populares ahora» and the categories", async ({ page, js }) => {
  for (const path of ["/ofertas/00000000-0000-4000-8000-000000000000/", "/esto-no-existe/de-verdad", "/esto-no-existe"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await ready(page, js);
    await expect(page.getByRole("region", { name: "Populares ahora" }).locator("article.card"), path).toHaveCount(4);
    await expect(page.getByRole("region", { name: "Explora por categoría" }).getByRole("link", { name: "Restaurantes" })).toBeVisible();
  }
  // The 404 runs the app like any page: with JS the region changes on selection, no «Cambiar» button.
  const regionButton = page.locator(".region-form").getByRole("button", { name: "Cambiar" });
  if (js) await expect(regionButton).toBeHidden();
  else await expect(regionButton).toBeVisible();
});
