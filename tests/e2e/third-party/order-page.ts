import type { Page } from "@playwright/test";
import { chooseCookies, expect, ready, type OfferSummary } from "../support/fixtures";

/**
 * The wallet variant's way to /order/ (PAYMENT_PROVIDER=paypal on the third-party server): one
 * ticket of the offer's first option in the cart, the consent choice made, the checkout filled
 * with the full name PayPal always needs (spec section 5).
 */
export async function toOrderPage(
  page: Page,
  {
    js,
    offer,
    email,
    consent = "Rechazar todo",
  }: { js: boolean; offer: OfferSummary; email: string; consent?: "Rechazar todo" | "Aceptar todo" },
) {
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await chooseCookies(page, consent);
  expect((await page.context().cookies()).some((c) => c.name === "ofertas_consent")).toBe(true);
  await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
  await page.getByRole("button", { name: /Añadir al carrito|Actualizar carrito/ }).click();
  await expect(page.getByText(/Añadido al carrito|Carrito actualizado/).first()).toBeVisible();
  await page.goto("/checkout/");
  await ready(page, js);
  await page.getByLabel("Nombre completo o razón social").fill("Lucía Martín Ortega");
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page.getByRole("heading", { name: "Revisa y paga" })).toBeVisible();
  await ready(page, js);
}
