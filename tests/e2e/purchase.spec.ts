import { addToCart, expect, fillCheckout, openCheckout, ready, roomyOffer, test, uniqueEmail, type OfferSummary } from "./support/fixtures";

test("offer → cart → promo code → checkout → pay → coupons", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  const option = offer.price_options[0];
  await addToCart(page, js, offer, 2);
  await openCheckout(page, js);
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();

  // A rejected code keeps the cart as it was.
  await page.getByLabel("Código promocional").fill("NOEXISTE");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page.getByLabel("Código promocional")).toHaveAccessibleDescription("El código promocional «NOEXISTE» no existe.");
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();

  const full = Math.round(Number(option.actual_price) * 100) * 2;
  const euros = (cents: number) => `${(cents / 100).toFixed(2).replace(".", ",")} €`;
  await expect(page.getByTestId("checkout-total")).toHaveText(euros(full));
  await page.getByLabel("Código promocional").fill("bienvenida10");
  await page.getByRole("button", { name: "Aplicar" }).click();
  await expect(page.getByText("Código «BIENVENIDA10» aplicado.")).toBeVisible();
  const discounted = Math.round(Math.round(Number(option.actual_price) * 100) * 0.9) * 2;
  await expect(page.getByTestId("checkout-total")).toHaveText(euros(discounted));

  const email = uniqueEmail("compra");
  await fillCheckout(page, email);
  await expect(page.getByTestId("order-total")).toHaveText(euros(discounted));
  await page.getByRole("button", { name: "Pagar" }).click();

  // The sandbox provider's hosted page.
  await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
  await expect(page.getByText(euros(discounted))).toBeVisible();
  await page.getByRole("button", { name: "Pagar" }).click();

  await expect(page).toHaveURL(/\/order\/success\?transaction_id=[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  await expect(page.getByText(offer.title)).toBeVisible();
  const codes = await page.getByTestId("coupon-code").allTextContents();
  expect(codes).toHaveLength(2);
  for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  // An empty cart shows no badge: a 0 would read like a notification.
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveCount(0);

  // Reloading the success page is safe: same purchase, same coupons.
  await page.reload();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  expect((await page.getByTestId("coupon-code").allTextContents()).sort()).toEqual([...codes].sort());
});

test("a declined payment returns to /checkout with the cart and the form intact", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  const email = uniqueEmail("rechazo");
  await fillCheckout(page, email);
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Simular tarjeta rechazada" }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByText(/El pago ha sido rechazado/)).toBeVisible();
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  // And the buyer can pay after all.
  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
});

test("checkout errors are shown next to their fields, and the cart can be edited", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
  if (js) {
    // With JS the same schema checks the field as soon as it loses focus.
    await page.getByLabel("Correo electrónico").blur();
    await expect(page.getByText("Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")).toBeVisible();
  }
  await page.getByLabel("Necesito factura").check();
  await page.getByLabel("NIF, NIE o CIF").fill("12345678A");
  // Without JS the browser's own checks would stop an invalid email: submit past them, as a
  // browser that ignores them would, so the server's messages are what we see.
  await page
    .locator("form#checkout")
    .evaluate((f) => f.setAttribute("novalidate", ""))
    .catch(() => undefined);
  await page.getByRole("button", { name: "Continuar" }).click();
  // Next to each field (the summary at the top repeats them as links).
  const fieldErrors = page.locator(".field-error");
  await expect(fieldErrors.getByText("Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")).toBeVisible();
  await expect(fieldErrors.getByText("Debes aceptar el acuerdo de usuario para continuar.")).toBeVisible();
  await expect(fieldErrors.getByText("El NIF, NIE o CIF no es válido. Revisa los números y la letra.")).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveAttribute("aria-invalid", "true");

  // Ticket count, gift flag, remove.
  await page.getByRole("spinbutton", { name: "Entradas" }).fill("3");
  if (js) await page.getByRole("spinbutton", { name: "Entradas" }).blur();
  else await page.getByRole("button", { name: "Actualizar" }).click();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("3");
  if (js) {
    // The tick is saved by a fetcher in the background (single fetch posts to /cart.data).
    const saved = page.waitForResponse((r) => /\/cart\.data/.test(r.url()) && r.request().method() === "POST");
    await page.getByLabel("Es un regalo").check();
    await saved;
  } else {
    await page.getByLabel("Es un regalo").check();
    await page.getByRole("button", { name: "Guardar", exact: true }).click();
    await page.waitForLoadState("load");
    await expect(page.getByRole("button", { name: "Guardar", exact: true })).toBeVisible();
  }
  await page.reload();
  await ready(page, js);
  await expect(page.getByLabel("Es un regalo")).toBeChecked();
  await page.getByRole("button", { name: `Quitar ${offer.title}` }).click();
  await expect(page.getByText("Tu carrito de compras está vacío")).toBeVisible();
});

test("sold-out options cannot be added", { tag: "@js-covers" }, async ({ page }) => {
  const response = await page.request.get("/api/v0/public/offers/?page_size=100");
  const { results } = (await response.json()) as { results: OfferSummary[] };
  const soldOut = results.find((o) => o.price_options.every((p) => p.available === 0))!;
  await page.goto(`/ofertas/${soldOut.uuid}/`);
  await expect(page.getByText("Esta oferta está agotada.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Añadir al carrito" })).toHaveCount(0);
  for (const radio of await page.getByRole("radio").all()) await expect(radio).toBeDisabled();
});

test("cancelling on the payment page returns to /checkout with the cart", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  await fillCheckout(page, uniqueEmail("cancela"));
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByText(/Has cancelado el pago/)).toBeVisible();
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();
});
