/**
 * Text typed before the app starts survives its start. On a slow phone a page is usable seconds
 * before its scripts run; here the scripts are held back while every form the app takes over is
 * typed into (the checkout's promo code and email, the offer's tickets, the search page, the
 * businesses' form, the login email and code, the partners' portal), then let through: each field still holds what was typed,
 * and the form sends it.
 */
import type { Locator, Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { acceptCookies, expect, roomyOffer, test, uniqueEmail } from "./support/fixtures";
import { holdScripts, openHeld } from "./support/held-scripts";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the gap is the time before a browser with JavaScript has run the app");
test.use({ viewport: { width: 375, height: 740 } });

/** Opens `path` with the scripts held, types each value into its field, lets the app start, and checks every value is still there. */
async function typeBeforeStart(page: Page, path: string, fields: [(page: Page) => Locator, string][]) {
  const gap = await holdScripts(page);
  // The page's main, not the footer: the partners' till is a tool page without the shop's footer.
  await openHeld(page, path, "#main");
  for (const [field, text] of fields) await field(page).fill(text);
  await gap.release();
  // The app's first updates run right after it starts: give them their moment before reading.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 300))));
  for (const [field, text] of fields) await expect(field(page), `${path}: ${text}`).toHaveValue(text);
}

test("the shop's forms keep what was typed before the app started", async ({ page }) => {
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await acceptCookies(page);

  // The offer's tickets.
  await typeBeforeStart(page, `/ofertas/${offer.uuid}/`, [[(p) => p.getByRole("spinbutton", { name: "Entradas" }), "2"]]);
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("2");

  // The checkout's promo code (it was wiped as the app started) and email; «Aplicar» then sends the code.
  const email = uniqueEmail("antes");
  await typeBeforeStart(page, "/checkout/", [
    [(p) => p.getByLabel("Código promocional"), "BIENVENIDA10"],
    [(p) => p.getByLabel("Correo electrónico"), email],
  ]);
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page.getByRole("button", { name: "Quitar el código BIENVENIDA10" })).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  // The search page.
  await typeBeforeStart(page, "/buscar", [[(p) => p.getByRole("searchbox", { name: "¿Qué buscas?" }), "paella"]]);

  // The form for businesses that want to sell here.
  await typeBeforeStart(page, "/empresas", [
    [(p) => p.getByLabel("Nombre del negocio"), "Kayak Costa Brava"],
    [(p) => p.getByLabel("¿Qué te gustaría ofrecer? (opcional)"), "Rutas en kayak"],
  ]);

  // Login: the email step, then the code step.
  const loginEmail = uniqueEmail("codigo-antes");
  await typeBeforeStart(page, "/login", [[(p) => p.getByLabel("Correo electrónico"), loginEmail]]);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await expect(page.getByText("Te hemos enviado un código")).toBeVisible();
  await typeBeforeStart(page, new URL(page.url()).pathname + new URL(page.url()).search, [
    [(p) => p.getByLabel("Código de 6 cifras"), "123456"],
  ]);
});

test("the partners' forms keep what was typed before the app started", async ({ page, loginAs }) => {
  await page.goto("/");
  await acceptCookies(page);
  await loginAs(DEMO_PARTNER);
  await typeBeforeStart(page, "/socios", [[(p) => p.getByLabel("Código del cupón"), "ABCD-EFGH-JKLM"]]);
  await typeBeforeStart(page, "/socios/ofertas/nueva", [
    [(p) => p.getByLabel("Título", { exact: true }), "Ruta en kayak al atardecer"],
    [(p) => p.getByLabel("Resumen", { exact: true }), "Dos horas por la costa con guía."],
  ]);
  await typeBeforeStart(page, "/socios/codigos", [[(p) => p.locator("#promo-new").getByLabel("Código", { exact: true }), "OTONO15"]]);
  await typeBeforeStart(page, "/socios/ventas", [[(p) => p.getByLabel("Desde"), "2026-01-05"]]);
});
