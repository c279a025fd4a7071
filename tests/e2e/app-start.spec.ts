/**
 * The gap before the app starts: on a slow phone a page is shown, and usable, seconds before its
 * scripts have run. Here the scripts are held back while each control of the header, the offer page
 * and the checkout is used: it works as it does without JavaScript, and a choice made in the gap is
 * kept, or takes effect, once the app starts.
 */
import type { Page } from "@playwright/test";
import { acceptCookies, expect, roomyOffer, test, type OfferSummary } from "./support/fixtures";
import { holdScripts, openHeld } from "./support/held-scripts";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the gap is the time before a browser with JavaScript has run the app");

const open = (page: Page, path: string) => openHeld(page, path);

const appStarted = (page: Page) => expect(page.locator("html.js")).toHaveCount(1);

test("the header: a province chosen before the app starts takes effect when it does; the links work meanwhile", async ({ page }) => {
  await page.goto("/");
  await acceptCookies(page);
  const gap = await holdScripts(page);
  await open(page, "/");
  const region = page.getByRole("combobox", { name: "Región" });
  await region.selectOption("Valencia");
  // Nothing to press yet (the app is about to take over): the choice waits for it, and is not undone.
  await gap.release();
  await expect(page.getByText("Ofertas irresistibles para ti en Valencia")).toBeVisible();
  await expect(region).toHaveValue("Valencia");
  await page.reload();
  await expect(page.getByText("Ofertas irresistibles para ti en Valencia")).toBeVisible();
  await expect(page.locator("html.js")).toHaveCount(1);
  await region.selectOption("");
  await expect(page.getByText("Ofertas irresistibles para ti en España")).toBeVisible();

  // The header's links are links: search, favourites, cart and login before the app starts.
  const links: [RegExp, RegExp, RegExp][] = [
    [/^Buscar$/, /\/buscar$/, /^Buscar ofertas$/],
    [/^Favoritos/, /\/favorite$/, /^Favoritos$/],
    [/^Carrito/, /\/checkout\/$/, /^Tu carrito$/],
    [/^Entrar$/, /\/login/, /^Entra/],
  ];
  for (const [name, url, heading] of links) {
    const hold = await holdScripts(page);
    await open(page, "/ofertas/");
    await page.getByRole("link", { name }).first().click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await hold.release();
  }
  // The search page's form, before its app starts.
  const hold = await holdScripts(page);
  await open(page, "/buscar");
  await page.getByRole("searchbox", { name: "¿Qué buscas?" }).fill("paella");
  await page.getByRole("button", { name: "Buscar", exact: true }).click();
  await expect(page).toHaveURL(/\/buscar\?q=paella$/);
  await expect(page.getByRole("region", { name: "Resultados" }).getByRole("link").first()).toBeVisible();
  await hold.release();
});

/** An offer whose second option allows fewer tickets than the first, both on sale. */
async function twoOptionOffer(page: Page): Promise<OfferSummary> {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as { results: OfferSummary[] };
  const max = (o: OfferSummary["price_options"][number]) => Math.min(o.available, o.per_customer ?? Infinity);
  const offer = results.find(
    (o) => o.price_options.length > 1 && max(o.price_options[1]) >= 2 && max(o.price_options[0]) > max(o.price_options[1]),
  );
  if (!offer) throw new Error("no offer with two options on sale");
  return offer;
}

test("the offer page: an option and tickets chosen before the app starts are kept; the heart and «Añadir al carrito» work meanwhile", async ({
  page,
}) => {
  const offer = await twoOptionOffer(page);
  const second = offer.price_options[1];
  await page.goto(`/ofertas/${offer.uuid}/`);
  await acceptCookies(page);

  // The heart and the cart form post as plain forms while the scripts are held.
  let gap = await holdScripts(page);
  await open(page, `/ofertas/${offer.uuid}/`);
  await page.getByRole("button", { name: `Guardar «${offer.title}» en favoritos` }).click();
  await expect(page.getByRole("button", { name: `Quitar «${offer.title}» de favoritos` })).toBeVisible();
  await page.locator(`input[type=radio][value="${second.uuid}"]`).check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("2");
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("2");
  await gap.release();

  // Chosen in the gap, then the app starts: the option and the number stay, and are what is added.
  gap = await holdScripts(page);
  await open(page, `/ofertas/${offer.uuid}/`);
  const first = offer.price_options[0];
  await page.locator(`input[type=radio][value="${first.uuid}"]`).check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("3");
  await gap.release();
  await expect(page.locator(`input[type=radio][value="${first.uuid}"]`)).toBeChecked();
  await expect(page.getByRole("spinbutton", { name: "Entradas" })).toHaveValue("3");
  // The app's own counter goes on from the kept number.
  await page.getByRole("button", { name: "Una entrada más" }).click();
  await expect(page.getByRole("spinbutton", { name: "Entradas" })).toHaveValue("4");
  await page.getByRole("button", { name: "Actualizar carrito" }).first().click();
  await expect(page.getByText("Carrito actualizado.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("4");
});

test("the checkout: a tick or a number changed before the app starts is saved when it does; the forms post meanwhile", async ({ page }) => {
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await acceptCookies(page);
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("1");

  // Changed, not saved (its button pressed), and then the app starts: both are saved.
  let gap = await holdScripts(page);
  await open(page, "/checkout/");
  await page.getByLabel("Es un regalo").check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("3");
  let saved = 0;
  page.on("response", (r) => void (r.request().method() === "POST" && /\/cart\.data/.test(r.url()) && (saved += 1)));
  await gap.release();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("3");
  // One after the other: the cart is one cookie, and two posts at once would each undo the other.
  await expect.poll(() => saved).toBe(2);
  await page.reload();
  await expect(page.getByLabel("Es un regalo")).toBeChecked();
  await expect(page.getByRole("spinbutton", { name: "Entradas" })).toHaveValue("3");

  // The promo code and «Continuar» post as plain forms in the gap.
  gap = await holdScripts(page);
  await open(page, "/checkout/");
  await page.getByLabel("Código promocional").fill("BIENVENIDA10");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page.getByText("Código «BIENVENIDA10» aplicado.").first()).toBeVisible();
  await page.getByLabel("Correo electrónico").fill("antes-de-la-app@example.es");
  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/order\/$/);
  await expect(page.getByRole("heading", { name: "Revisa y paga" })).toBeVisible();
  await gap.release();
  await appStarted(page);
});
