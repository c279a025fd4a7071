import type { Page } from "@playwright/test";
import { acceptCookies, expect, ready, test } from "./support/fixtures";

/**
 * A page reached from another page of the same route (another category, another information
 * page) shows its own content, and so do Back and Forward. With JS the route stays mounted and
 * only its parameter changes, so its data must be loaded again (offers: offer-to-offer.spec.ts;
 * a partner's new offer becoming its saved page: partner.spec.ts).
 */

async function expectCategory(page: Page, path: string, label: string) {
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(label);
  await expect(page).toHaveTitle(new RegExp(`^${label}`));
  const metas = page.locator("main article.card .card-meta");
  await expect(metas.first()).toContainText(label);
  for (const meta of await metas.allTextContents()) expect(meta).toContain(label);
}

test("one category to another from the header, then Back and Forward", async ({ page, js }) => {
  await page.goto("/ofertas/category/restaurants/");
  await ready(page, js);
  await acceptCookies(page);
  await expectCategory(page, "/ofertas/category/restaurants/", "Restaurantes");
  await page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Ocio" }).click();
  await expectCategory(page, "/ofertas/category/leisure/", "Ocio");
  await page.goBack();
  await expectCategory(page, "/ofertas/category/restaurants/", "Restaurantes");
  await page.goForward();
  await expectCategory(page, "/ofertas/category/leisure/", "Ocio");
});

test("one information page to another from the footer, then Back and Forward", async ({ page, js }) => {
  // From the home page, so that with JS every step is the app's own navigation.
  await page.goto("/");
  await ready(page, js);
  await acceptCookies(page);
  const footer = page.getByRole("navigation", { name: "Pie de página" });
  const expectInformation = async (path: string, title: string) => {
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page).toHaveTitle(new RegExp(title));
  };
  await footer.getByRole("link", { name: "Nuestros contactos" }).click();
  await expectInformation("/contacts", "Nuestros contactos");
  await footer.getByRole("link", { name: "Acuerdo De Usuario" }).click();
  await expectInformation("/agreement", "Acuerdo De Usuario");
  await page.goBack();
  await expectInformation("/contacts", "Nuestros contactos");
  await page.goForward();
  await expectInformation("/agreement", "Acuerdo De Usuario");
});
