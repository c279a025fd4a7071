import type { Page } from "@playwright/test";
import { acceptCookies, expect, ready, test } from "./support/fixtures";

test.use({ viewport: { width: 375, height: 740 } });

/** «25,00 €» → 2500. */
const cents = (text: string) => Number(text.replace(/[^\d,]/g, "").replace(",", ""));

async function cardPrices(page: Page): Promise<number[]> {
  return (await page.locator("article.card .price-actual").allTextContents()).map(cents);
}

const ascending = (values: number[]) => values.every((v, i) => i === 0 || v >= values[i - 1]);

/**
 * «Ordenar» and the price range on a category page: a GET form, the same with and without
 * JavaScript; the page says how many offers it holds.
 */
test("a category page sorts by price within a price range, and says how many offers", async ({ page, js }) => {
  await page.goto("/ofertas/category/restaurants/");
  await ready(page, js);
  await acceptCookies(page);
  const count = page.locator(".listing-count");
  await expect(count).toHaveText(/^\d+ ofertas?$/);
  const all = Number((await count.textContent())!.match(/\d+/)![0]);
  const before = await cardPrices(page);
  expect(ascending(before)).toBe(false); // the recommended order is not the price order already

  const form = page.getByRole("form", { name: "Ordenar y filtrar" });
  await form.getByLabel("Ordenar").selectOption({ label: "Precio" });
  const sorted = [...before].sort((a, b) => a - b);
  // A range that leaves out the cheapest and the dearest card of the first page.
  const [lo, hi] = [Math.floor(sorted[0] / 100) + 1, Math.ceil(sorted[sorted.length - 1] / 100) - 1];
  expect(lo).toBeLessThan(hi);
  await form.getByLabel("Desde").fill(String(lo));
  await form.getByLabel("Hasta").fill(String(hi));
  await form.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(new RegExp(`sort=price.*price_min=${lo}.*price_max=${hi}`));
  await ready(page, js);
  // With JavaScript the URL changes a moment before the new cards render: wait for the new list.
  const inRange = (p: number) => p >= lo * 100 && p <= hi * 100;
  await expect.poll(async () => (await cardPrices(page)).every(inRange)).toBe(true);
  const prices = await cardPrices(page);
  expect(prices.length).toBeGreaterThan(0);
  expect(ascending(prices)).toBe(true);
  for (const p of prices) expect(inRange(p)).toBe(true);
  const filtered = Number((await count.textContent())!.match(/\d+/)![0]);
  expect(filtered).toBeLessThan(all);
  // The form shows back what was chosen.
  await expect(form.getByLabel("Ordenar")).toHaveValue("price");
  await expect(form.getByLabel("Desde")).toHaveValue(String(lo));

  // A range upside down is said in Spanish, and the list is not emptied by it.
  await form.getByLabel("Desde").fill("90");
  await form.getByLabel("Hasta").fill("10");
  await form.getByRole("button", { name: "Aplicar" }).click();
  await expect(form.getByText("El precio mínimo es mayor que el máximo.")).toBeVisible();
  await expect(page.locator("article.card").first()).toBeVisible();
});

test("«Cerca de mí» with a postcode: nearest first, each card with its distance", async ({ page, js }) => {
  await page.goto("/ofertas/");
  await ready(page, js);
  await acceptCookies(page);
  const form = page.getByRole("form", { name: "Ordenar y filtrar" });
  await form.getByLabel("Ordenar").selectOption({ label: "Cerca de mí" });
  await form.getByLabel("Código postal o provincia").fill("08001");
  await form.getByRole("button", { name: "Aplicar" }).click();
  await expect(page).toHaveURL(/sort=nearby.*near=08001/);
  await expect(form.getByText("Distancias desde Barcelona.")).toBeVisible();
  const metas = await page.locator("article.card .card-meta").allTextContents();
  expect(metas[0]).toMatch(/^Barcelona · a [\d,]+ (m|km)/);
  const km = metas.map((m) => {
    const [, n, unit] = m.match(/ a ([\d.,]+) (m|km)/) ?? [];
    return n === undefined ? Infinity : Number(n.replace(".", "").replace(",", ".")) / (unit === "m" ? 1000 : 1);
  });
  expect(ascending(km)).toBe(true);

  // A place the shop does not know: said, and the list stays.
  await form.getByLabel("Código postal o provincia").fill("Atlántida");
  await form.getByRole("button", { name: "Aplicar" }).click();
  await expect(form.getByText(/No reconocemos ese código postal o provincia/)).toBeVisible();
  await expect(page.locator("article.card").first()).toBeVisible();
});

test("«Cerca de mí» with the browser's location, once the person allows it", async ({ browser, js }, testInfo) => {
  test.skip(!js, "the browser's location needs JavaScript; without it the postcode does the same (above)");
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: 375, height: 740 },
    permissions: ["geolocation"],
    geolocation: { latitude: 41.3874, longitude: 2.1686 },
  });
  const page = await context.newPage();
  await page.goto("/ofertas/");
  await ready(page, true);
  await acceptCookies(page);
  await page.getByRole("button", { name: "Usar mi ubicación" }).click();
  await expect(page).toHaveURL(/lat=41\.387.*lng=2\.169|sort=nearby.*lat=41\.387/);
  await expect(page.getByText("Distancias desde tu ubicación.")).toBeVisible();
  await expect(page.locator("article.card .card-meta").first()).toContainText(/^Barcelona · a [\d,]+ (m|km)/);
  await context.close();
});
