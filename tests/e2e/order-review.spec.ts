/**
 * «Revisa y paga» on a 375 px phone, JavaScript on and off: before «Pagar» the buyer reads what
 * they will pay with, why the payment is safe, and what they save, the saving figured from the
 * API's prices (the options' regular prices against what is charged).
 */
import { formatCents, toCents } from "#rules/prices";
import { addToCart, expect, fillCheckout, openCheckout, roomyOffer, test, uniqueEmail } from "./support/fixtures";

test.use({ viewport: { width: 375, height: 740 } });

test("the review step shows the payment method, «Pago seguro» and the saving", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  const option = offer.price_options[0];
  const saving = (toCents(option.regular_price) - toCents(option.actual_price)) * 2;
  expect(saving, "the demo offer is a deal").toBeGreaterThan(0);
  await addToCart(page, js, offer, 2);
  await openCheckout(page, js);
  await fillCheckout(page, uniqueEmail("revisa"));

  await expect(page.getByTestId("order-total")).toHaveText(formatCents(toCents(option.actual_price) * 2));
  await expect(page.getByTestId("order-saving")).toHaveText(`Ahorras ${formatCents(saving)}`);
  // The test servers pay through the sandbox: a pretend card, and nothing is charged.
  await expect(page.getByTestId("order-method")).toHaveText("Forma de pago: Tarjeta de pruebas");
  await expect(page.getByTestId("order-secure")).toHaveText(/^Pago seguro · .*no se cobra nada/);
  // All three before the button, in the first screens of a phone.
  const pay = page.getByRole("button", { name: "Pagar", exact: true });
  for (const id of ["order-saving", "order-method", "order-secure"]) {
    const above = await page
      .getByTestId(id)
      .evaluate((el, button) => Boolean(el.compareDocumentPosition(button!) & Node.DOCUMENT_POSITION_FOLLOWING), await pay.elementHandle());
    expect(above, `${id} comes before «Pagar»`).toBe(true);
  }
  await pay.click();
  await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
});
