import { acceptCookies, addToCart, expect, openCheckout, ready, roomyOffer, test, type OfferSummary } from "./support/fixtures";

test.describe("without JavaScript", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("a failed «Continuar» opens at an error summary linking to each field, and keeps every field", async ({ page, js }) => {
    test.skip(js, "with JS the same schema checks each field on blur, before any post");
    const offer = await roomyOffer(page);
    await page.goto(`/ofertas/${offer.uuid}/`);
    await acceptCookies(page);
    await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
    await page.goto("/checkout/");
    await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
    await page.getByLabel(/He leído y acepto/).check();
    await page.getByLabel("Necesito factura").check();
    await page.getByLabel("NIF, NIE o CIF").fill("12345678A");
    await page.getByLabel("Dirección de facturación").fill("Calle Mayor 1, Madrid");
    // Past the browser's own checks, as a browser that ignores them would.
    await page.locator("form#checkout").evaluate((f) => f.setAttribute("novalidate", ""));
    await page.getByRole("button", { name: "Continuar" }).click();

    const summary = page.getByRole("alert").filter({ hasText: "Revisa estos datos" });
    await expect(summary).toBeVisible();
    await expect(summary).toBeInViewport();
    await expect(summary).toBeFocused();
    expect(new URL(page.url()).hash).toBe("");
    const email = summary.getByRole("link", { name: /correo electrónico válido/ });
    const emailId = await page.getByLabel("Correo electrónico").getAttribute("id");
    await expect(email).toHaveAttribute("href", `#${emailId}`);
    await expect(summary.getByRole("link", { name: /NIF, NIE o CIF no es válido/ })).toBeVisible();

    // Nothing typed or ticked is lost.
    await expect(page.getByLabel("Correo electrónico")).toHaveValue("no-es-un-correo");
    await expect(page.getByLabel(/He leído y acepto/)).toBeChecked();
    await expect(page.getByLabel("Necesito factura")).toBeChecked();
    await expect(page.getByLabel("Dirección de facturación")).toHaveValue("Calle Mayor 1, Madrid");

    // Fixing the one bad field is enough now.
    await page.getByLabel("Correo electrónico").fill("bien@example.es");
    await page.getByLabel("NIF, NIE o CIF").fill("12345678Z");
    await page.getByLabel("Nombre completo o razón social").fill("Ana Pérez");
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page).toHaveURL(/\/order\/$/);
  });
});

test("the ticket field's maximum follows the chosen option, without JavaScript too (one field per option)", async ({ page, js }) => {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as { results: OfferSummary[] };
  const max = (o: OfferSummary["price_options"][number]) => Math.min(o.available, o.per_customer ?? Infinity);
  const offer = results.find(
    (o) => o.price_options.length > 1 && max(o.price_options[0]) > max(o.price_options[1]) && max(o.price_options[1]) > 1,
  );
  test.skip(!offer, "no offer whose second option allows fewer tickets than the first");
  const [first, second] = offer!.price_options;
  await page.goto(`/ofertas/${offer!.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
  const tickets = page.getByRole("spinbutton", { name: "Entradas" });
  await expect(tickets).toHaveCount(1);
  await expect(tickets).toHaveAttribute("max", String(max(first)));
  await page.locator(`input[type=radio][value="${second.uuid}"]`).check();
  // The second option's own field: its maximum, and only it is shown.
  await expect(tickets).toHaveCount(1);
  await expect(tickets).toHaveAttribute("max", String(max(second)));
  const n = max(second);
  await tickets.fill(String(n));
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText(String(n));
  // Back on the page, the option in the cart and its count are what it shows.
  await page.goto(`/ofertas/${offer!.uuid}/`);
  await ready(page, js);
  await expect(page.locator(`input[type=radio][value="${second.uuid}"]`)).toBeChecked();
  await expect(tickets).toHaveValue(String(n));
});

test("tickets posted beyond the chosen option's limit are clamped, with a message", async ({ page }) => {
  const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as { results: OfferSummary[] };
  const max = (o: OfferSummary["price_options"][number]) => Math.min(o.available, o.per_customer ?? Infinity);
  const offer = results.find(
    (o) => o.price_options.length > 1 && max(o.price_options[0]) > max(o.price_options[1]) && max(o.price_options[1]) > 0,
  );
  test.skip(!offer, "no offer whose second option allows fewer tickets than the first");
  const [first, second] = offer!.price_options;
  await page.goto(`/ofertas/${offer!.uuid}/`);
  await acceptCookies(page);
  // A client that ignores the field's maximum (an old page, a script) posts the first option's maximum.
  const answer = await page.request.post("/cart", {
    form: {
      intent: "add",
      offerUuid: offer!.uuid,
      priceOptionUuid: second.uuid,
      [`ticketsCount.${second.uuid}`]: String(max(first)),
      redirectTo: `/ofertas/${offer!.uuid}/`,
    },
    headers: { "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  // The message waits in the session for the page the post goes back to.
  expect(answer.status()).toBe(303);
  await page.reload();
  const n = max(second);
  // Said where the tickets are chosen (with JS a toast says it too).
  await expect(
    page.locator("#buy").getByText(`Esta opción admite como máximo ${n} ${n === 1 ? "entrada" : "entradas"}: hemos añadido ${n}.`),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText(String(n));
});

test("«Continuar» on /checkout and the feedback form carry the honeypot: filled in or left out is refused, the page's own form goes through", async ({
  page,
  js,
}) => {
  test.skip(js, "the same posts with JavaScript on would test nothing more");
  await addToCart(page, js, await roomyOffer(page), 1);
  await openCheckout(page, js);
  await expect(page.locator('form#checkout input[name="name__confirm"]')).toBeHidden();

  // page.request shares the browser's cookies: the same cart, as a bot replaying the form would.
  const post = (path: string, form: Record<string, string>) =>
    page.request.post(path, { form, maxRedirects: 0, headers: { "Sec-Fetch-Site": "same-origin" } });
  const details = { email: "bot-o-persona@example.es", subs_agreement: "on" };
  const forms: [string, Record<string, string>][] = [
    ["/checkout/", details],
    [
      "/feedback?rate=5&t=enlace-de-prueba",
      { intent: "edit", id: "00000000-0000-4000-8000-000000000000", feedback_stars: "5", comment: "Visita http://spam.example" },
    ],
  ];
  for (const [path, form] of forms) {
    for (const honeypot of [{ name__confirm: "http://spam.example" }, {}] as Record<string, string>[]) {
      const refused = await post(path, { ...form, ...honeypot });
      expect(refused.status(), path).toBe(400);
      expect(await refused.text(), path).toContain("No hemos podido enviar el formulario");
    }
  }
  // With the field there and empty, as the page renders it, the checkout goes on to payment…
  const ok = await post("/checkout/", { ...details, name__confirm: "" });
  expect(ok.status()).toBe(303);
  expect(ok.headers().location).toMatch(/\/order\/$/);
  // …and the feedback form reaches its own checks (an unknown id), not the honeypot's refusal.
  expect(
    await (
      await post("/feedback?rate=5&t=enlace-de-prueba", {
        intent: "edit",
        id: "00000000-0000-4000-8000-000000000000",
        feedback_stars: "5",
        name__confirm: "",
      })
    ).text(),
  ).not.toContain("No hemos podido enviar el formulario");
});

for (const width of [1280, 375]) {
  test(`at ${width} px the email's message, shown as the field loses focus, leaves the agreement box in place: a click ticks it`, async ({
    page,
    js,
  }) => {
    test.skip(!js, "without JavaScript the messages come with the page after «Continuar»");
    await page.setViewportSize({ width, height: 900 });
    await addToCart(page, js, await roomyOffer(page), 1);
    await openCheckout(page, js);
    const email = page.getByLabel("Correo electrónico");
    const agreement = page.getByLabel(/He leído y acepto/);
    await email.fill("juan@ejemplo");
    await agreement.scrollIntoViewIfNeeded();
    const before = await agreement.boundingBox();
    // Pressed as a person presses it: the field loses focus on the press, the box is ticked on the release.
    await agreement.click();
    await expect(page.getByText("Escribe un correo electrónico válido, por ejemplo nombre@correo.es.")).toBeVisible();
    await expect(agreement).toBeChecked();
    expect(await agreement.boundingBox()).toEqual(before);
  });
}
