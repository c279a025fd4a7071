import { addToCart, expect, fillCheckout, openCheckout, ready, roomyOffer, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test.use({ viewport: { width: 375, height: 800 } });

function linkIn(html: string, path: string): string {
  const match = new RegExp(`href="(https?://[^"]*${path.replace(/[?]/g, "\\?")}[^"]*)"`).exec(html);
  if (!match) throw new Error(`sin enlace ${path} en el correo`);
  const url = new URL(match[1].replace(/&amp;/g, "&"));
  return `${url.pathname}${url.search}`;
}

test("buy as a gift with a message: the recipient's voucher page shows names and message, never the price", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);

  await page.getByLabel("Es un regalo").check();
  if (!js) await page.getByRole("button", { name: "Guardar", exact: true }).click();
  // Ticked, the line asks who it is for: the same plain form with or without JS.
  const name = page.getByLabel("Nombre de quien lo recibe");
  await expect(name).toBeVisible();
  await page.screenshot({ path: `test-results/gift-checkout-375-${js ? "js" : "nojs"}.png`, fullPage: true });

  // A day in the past is refused, in Spanish, and nothing typed is lost.
  const recipient = uniqueEmail("recibe-regalo");
  await name.fill("Lucía");
  await page.getByLabel("De parte de (opcional)").fill("Marta");
  await page.getByLabel(/Su email/).fill(recipient);
  await page.getByLabel("Mensaje (opcional)").fill("¡Feliz cumpleaños, Lucía!");
  await page.getByLabel(/Día del envío/).fill("2020-01-01");
  await page.getByRole("button", { name: "Guardar regalo" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "La fecha de envío ya ha pasado: elige hoy o un día posterior." })).toBeVisible();
  // Said at the form, not again in a toast, and what was typed is still there.
  await expect(page.getByText("La fecha de envío ya ha pasado")).toHaveCount(1);
  await expect(name).toHaveValue("Lucía");
  await expect(page.getByLabel("Mensaje (opcional)")).toHaveValue("¡Feliz cumpleaños, Lucía!");
  if (!js) expect(new URL(page.url()).hash).toMatch(/^#regalo-/);
  await page.getByLabel(/Día del envío/).fill("");
  await page.getByRole("button", { name: "Guardar regalo" }).click();
  await expect(page.getByTestId("gift-summary")).toContainText("Para Lucía, de parte de Marta");
  await page.reload();
  await ready(page, js);
  await expect(page.getByTestId("gift-summary")).toContainText(`se le enviará a ${recipient} al pagar`);

  await fillCheckout(page, uniqueEmail("regala"));
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();

  const mail = await waitForMail(E2E_INBOX, recipient, { subject: /Tienes un regalo/ });
  expect(`${mail.text}${mail.html}`).not.toMatch(/€/);
  // In another browser (no cookie): the gift alone.
  await page.context().clearCookies();
  await page.goto(linkIn(mail.html as string, "/order/coupons?"));
  await expect(page.getByRole("heading", { name: "Tienes un regalo, Lucía" })).toBeVisible();
  await expect(page.getByTestId("gift-message")).toHaveText("¡Feliz cumpleaños, Lucía!");
  await expect(page.getByTestId("gift-from")).toHaveText("De parte de Marta");
  await expect(page.getByTestId("coupon-code")).toHaveCount(1);
  expect(await page.content()).not.toMatch(/€|Total pagado/);
  await page.screenshot({ path: `test-results/gift-voucher-375-${js ? "js" : "nojs"}.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/gift-voucher-1280-${js ? "js" : "nojs"}.png`, fullPage: true });
});
