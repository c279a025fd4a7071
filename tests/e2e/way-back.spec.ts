/**
 * A way back to the coupons: the success page names the order as the mail and the PDF do and, for
 * a guest, says how to find the coupons again; «No encontramos este pedido» offers the same path
 * and a real contact link. On a phone, with JavaScript on and off.
 */
import { addToCart, expect, fillCheckout, openCheckout, roomyOffer, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test.use({ viewport: { width: 375, height: 800 } });

test("a guest's success page: «Pedido nº» as in the mail, and how to find the coupons again", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  const email = uniqueEmail(`vuelta-${js ? "js" : "nojs"}`);
  await fillCheckout(page, email);
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();

  const number = await page.getByTestId("order-number").textContent();
  expect(number).toMatch(/^[0-9A-F]{8}$/);
  await expect(page.getByText(`Pedido nº ${number}`)).toBeVisible();
  const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
  expect(mail.subject).toContain(`pedido ${number}`);

  const wayBack = page.getByTestId("way-back");
  await expect(wayBack).toContainText("«Ver mis cupones» del correo");
  await wayBack.getByRole("link", { name: `entra con ${email}` }).click();
  await expect(page).toHaveURL(/\/login/);
});

test("«No encontramos este pedido» offers the mail's link, logging in, and a contact link that works", async ({ page }) => {
  await page.goto("/order/success?transaction_id=00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "No encontramos este pedido", level: 1 })).toBeVisible();
  await expect(page.getByText("«Ver mis cupones» los abre en cualquier navegador")).toBeVisible();
  await expect(page.getByRole("link", { name: "entrar con el mismo correo" })).toHaveAttribute("href", "/login");
  await page.getByRole("link", { name: "Escríbenos" }).click();
  await expect(page.getByRole("heading", { name: "Nuestros contactos", level: 1 })).toBeVisible();
});
