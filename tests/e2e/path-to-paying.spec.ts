import type { Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { addToCart, expect, fillCheckout, openCheckout, openRoomyOffer, ready, roomyOffer, test, uniqueEmail } from "./support/fixtures";

// The review's phone width: every check here is about what a phone shows.
test.use({ viewport: { width: 375, height: 740 }, hasTouch: true });

/** Formatted prices whose «€» sits on another line than their digits (text ranges, as laid out). */
async function brokenPrices(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      for (const match of text.matchAll(/\d+,\d{2}\s€/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        if (rects.length && new Set(rects.map((r) => Math.round(r.top))).size > 1) broken.push(match[0]);
      }
    }
    return broken;
  });
}

/** The sticky header's bottom edge, where content starts to be seen. */
async function headerBottom(page: Page): Promise<number> {
  const box = (await page.locator("header.site-header").boundingBox())!;
  return box.y + box.height;
}

test("«Añadir al carrito» leads to paying: the cart panel (JS) or an inline bar (no JS), and «Ir a pagar» in the buy bar", async ({
  page,
  js,
}) => {
  const offer = await openRoomyOffer(page, js);
  const bar = page.getByRole("group", { name: "Comprar" });
  await expect(bar.getByRole("button", { name: "Añadir al carrito" })).toBeVisible();
  await bar.getByRole("button", { name: "Añadir al carrito" }).click();
  if (js) {
    const panel = page.locator("#cart-panel");
    // One way on and one message: the panel's «Ir a pagar», focused, and the toast.
    await expect(panel.getByRole("link", { name: "Ir a pagar" })).toBeFocused();
    await expect(page.getByText("Añadido al carrito.")).toHaveCount(1);
    await expect(page.getByRole("link", { name: /^Ir a pagar \(/ })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Comprar" })).toHaveCount(0);
    const close = panel.getByRole("button", { name: "Cerrar el carrito" });
    const size = (await close.boundingBox())!;
    expect(size.width).toBeGreaterThanOrEqual(44);
    expect(size.height).toBeGreaterThanOrEqual(44);
    await close.click();
    await expect(panel).toBeHidden();
    await expect(page.getByRole("link", { name: /^Carrito/ })).toBeFocused();
  } else {
    // The post's redirect lands on the box, where the bar says so.
    await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/#buy$`));
    const added = page.locator("#buy").getByRole("status");
    await expect(added).toContainText("Añadido");
    await expect(added).toBeInViewport();
    // Said once: the bar, not the page's flash message as well; the way on is the box's «Ir a pagar».
    await expect(page.getByText("Añadido al carrito.")).toHaveCount(1);
    await expect(page.locator(".flash")).toHaveCount(0);
    await expect(added.getByRole("link")).toHaveCount(0);
    await expect(page.locator("#buy .buy-actions").getByRole("link", { name: "Ir a pagar" })).toHaveAttribute("href", "/checkout/");
  }
  // In the cart now: paying first, changing the tickets still possible.
  await expect(page.locator("#buy").getByRole("button", { name: "Actualizar carrito" })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar.getByRole("link", { name: "Ir a pagar" })).toBeVisible();
  await bar.getByRole("link", { name: "Ir a pagar" }).click();
  await expect(page).toHaveURL(/\/checkout\/$/);
  await expect(page.getByRole("link", { name: offer.title })).toBeVisible();
});

test("a refused promo code is said under its field, and stays until the code changes", async ({ page, js }) => {
  // The page's clock, moved on past the toast's 5 s rather than waiting them out.
  if (js) await page.clock.install();
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  const field = page.getByLabel("Código promocional");
  await field.fill("NOEXISTE");
  await page.getByRole("button", { name: "Aplicar" }).click();
  const message = "El código promocional «NOEXISTE» no existe.";
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(message);
  await expect(field).toHaveValue(/^noexiste$/i);
  // Right under the field, not a screen away.
  const [f, m] = [(await field.boundingBox())!, (await page.locator("#promo_code-error").boundingBox())!];
  expect(m.y - (f.y + f.height)).toBeLessThan(60);
  if (js) {
    // Still there after the toast has gone… Toasts pause while a pointer rests on one (spec
    // section 9), and at 375 px the mouse that clicked «Aplicar», scrolled to the bottom of the
    // screen, was where they show: a finger's tap leaves nothing there, so the mouse moves away.
    await page.mouse.move(0, 0);
    await page.clock.fastForward(5_500);
    await expect(page.locator("[data-toast-region] [role=status]")).toHaveCount(0);
    await expect(page.locator("#promo_code-error")).toHaveText(message);
    // …and gone once the code is changed.
    await field.fill("OTRO");
    await expect(page.locator("#promo_code-error")).toHaveText("");
    await expect(field).not.toHaveAttribute("aria-invalid", "true");
  }
});

test("checkout errors: the «Revisa estos datos» summary, focused, and a field's label clear of the header", async ({ page, js }) => {
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  await page.getByLabel("Correo electrónico").fill("");
  await page.getByRole("button", { name: "Continuar" }).click();
  const summary = page.getByRole("alert").filter({ has: page.getByRole("heading", { name: "Revisa estos datos" }) });
  await expect(summary).toBeVisible();
  await expect(summary).toBeFocused();
  await expect(summary.getByRole("link", { name: "Escribe tu correo electrónico." })).toBeVisible();
  await summary.getByRole("link", { name: "Escribe tu correo electrónico." }).click();
  // The fragment's field (focused with JS) is scrolled to below the sticky header, label and all.
  const label = page.locator("label", { hasText: "Correo electrónico" });
  await expect.poll(async () => (await label.boundingBox())!.y).toBeGreaterThanOrEqual(await headerBottom(page));
});

test("the success page gives coupons to keep: PDF, a QR per code, merchant, place and validity", async ({ page, js }) => {
  test.setTimeout(90_000);
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 2);
  await openCheckout(page, js);
  expect(await brokenPrices(page)).toEqual([]);
  await fillCheckout(page, uniqueEmail("guardar"));
  expect(await brokenPrices(page)).toEqual([]);
  await page.getByRole("button", { name: "Pagar" }).click();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  expect(await brokenPrices(page)).toEqual([]);

  const codes = await page.getByTestId("coupon-code").allTextContents();
  expect(codes).toHaveLength(2);
  for (const code of codes) await expect(page.getByRole("img", { name: `Código QR del cupón ${code}` })).toBeVisible();
  await expect(page.getByText("Establecimiento")).toBeVisible();
  await expect(page.getByText("Validez")).toBeVisible();
  // No Apple or Google Wallet pass exists: nothing offers one.
  await expect(page.getByRole("link", { name: /cartera|wallet/i })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /cartera|wallet/i })).toHaveCount(0);

  // The mail's signed access: a guest gets the PDF; the bare sale id opens nothing.
  const pdf = page.getByRole("link", { name: "Descargar cupones (PDF)" });
  const href = (await pdf.getAttribute("href"))!;
  // The shop's own address (the offline worker keeps it once opened), signed as the mail's link is.
  expect(href).toMatch(/^\/order\/coupon-pdf\?sale=[0-9a-f-]{36}&sig=[\w-]{20,}$/);
  const answer = await page.request.get(href);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("application/pdf");
  const bare = await page.request.get(href.replace(/&sig=.*$/, ""), { maxRedirects: 0 });
  expect(bare.status()).toBe(302);
  expect(bare.headers()["location"]).toBe("/order/history");
  expect((await page.request.get(`${href}x`)).status()).toBe(404);
  await page.getByRole("link", { name: "Ver mis cupones" }).click();
  await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();
  expect((await page.getByTestId("coupon-code").allTextContents()).sort()).toEqual([...codes].sort());
});

test("no formatted price wraps on the offer page and in the cart at 375 px", async ({ page, js }) => {
  const offer = await openRoomyOffer(page, js);
  expect(await brokenPrices(page)).toEqual([]);
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
  expect(await brokenPrices(page)).toEqual([]);
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  expect(await brokenPrices(page)).toEqual([]);
});

test("no formatted price wraps in the partner's tables at 375 px", async ({ page, js, loginAs }) => {
  await loginAs(DEMO_PARTNER);
  for (const path of ["/socios/ofertas", "/socios/ventas"]) {
    await page.goto(path);
    await ready(page, js);
    await expect(page.locator("main")).toContainText("€");
    expect(await brokenPrices(page), path).toEqual([]);
  }
});

test("on a phone the header folds to one row on scroll-down and the buy bar steps aside for the buy box", async ({ page, js }) => {
  await openRoomyOffer(page, js);
  const region = page.getByRole("combobox", { name: "Región" });
  const full = await headerBottom(page);
  await expect(region).toBeVisible();
  const bar = page.getByRole("group", { name: "Comprar" });
  await expect(bar).toBeVisible();
  // Down the page, past the buy box.
  await page.mouse.wheel(0, 1500);
  if (!js) {
    // Without JS the header and the bar simply stay.
    await page.waitForTimeout(300);
    await expect(region).toBeVisible();
    expect(await headerBottom(page)).toBe(full);
    return;
  }
  await expect(region).toBeHidden();
  await expect.poll(async () => (await page.getByRole("link", { name: /^Carrito/ }).boundingBox())!.y).toBeGreaterThanOrEqual(0);
  await expect.poll(() => headerBottom(page)).toBeLessThan(full - 30);
  // Back up a little: the row returns.
  await page.mouse.wheel(0, -200);
  await expect(region).toBeVisible();
  await expect.poll(() => headerBottom(page)).toBe(full);
  // The box's own buttons on screen: the bar hides; away from them, it is back.
  await page.locator("#buy .buy-actions").scrollIntoViewIfNeeded();
  await expect(bar).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(bar).toBeVisible();
});
