import type { Page } from "@playwright/test";
import { ENHANCED_FIELD } from "#app/forms/enhanced";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { acceptCookies, expect, openCheckout, openRoomyOffer, ready, roomyOffer, test } from "./support/fixtures";

const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

test.describe("phones (375 px)", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("compact cards, no category chips, no zero badges, a sticky buy bar that adds without JS", async ({ page, js }) => {
    await page.goto("/");
    await ready(page, js);
    await acceptCookies(page);
    // The picture sits beside the text, so a card is far shorter than the screen is wide.
    const card = await box(page, "article.card");
    const image = await box(page, "article.card .card-media");
    const title = await box(page, "article.card .card-title");
    expect(title.x).toBeGreaterThan(image.x + image.width - 1);
    expect(card.height).toBeLessThan(200);
    await expect(page.locator("main .chips")).toHaveCount(0);
    await expect(page.locator(".count-badge")).toHaveCount(0);
    await expect(page.getByRole("banner").getByRole("link", { name: "Favoritos", exact: true })).toBeVisible();

    const offer = await roomyOffer(page);
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, js);
    const bar = page.getByRole("group", { name: "Comprar" });
    await expect(bar).toBeInViewport();
    await expect(bar.locator(".price-actual")).toHaveText(/^\d+,\d{2}\u00a0€$/);
    await expect(bar.locator(".badge-discount [aria-hidden]")).toHaveText(/^-\d+%$/);
    await bar.getByRole("button", { name: "Añadir al carrito" }).click();
    await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
    await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("1");
    if (js) {
      // The toast sits under the sticky header: hovering it pauses it, so over the cart it would
      // stay there, in the way of the very next click.
      const header = await box(page, "header.site-header");
      // Polled: the toast slides in from above.
      await expect
        .poll(async () => (await page.locator("[data-toast-region] [role=status]").first().boundingBox())?.y ?? 0)
        .toBeGreaterThanOrEqual(header.y + header.height);
      await page.getByRole("link", { name: /^Carrito/ }).click({ trial: true, timeout: 2000 });
    }
  });

  test("«Añadido al carrito» leaves the open cart panel readable: on a phone the toasts sit at the bottom, over the buy bar", async ({
    page,
    js,
  }) => {
    test.skip(!js, "toasts and the cart panel are the app's");
    const offer = await openRoomyOffer(page, js);
    await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
    const toast = page.locator("[data-toast-region] [role=status]").filter({ hasText: "Añadido al carrito." });
    await expect(toast).toBeVisible();
    const line = page.locator(".cart-panel .cart-line").first();
    await expect(line).toContainText(offer.title);
    const [t, l] = [(await toast.boundingBox())!, (await line.boundingBox())!];
    // Nothing of the first line under the toast; the buy bar steps aside while the panel is open.
    expect(t.y >= l.y + l.height || t.y + t.height <= l.y).toBe(true);
    await expect(page.getByRole("group", { name: "Comprar" })).toBeHidden();
  });

  test("checkout: «Aplicar» does not overlap the promo-code field", async ({ page, js }) => {
    await openRoomyOffer(page, js);
    await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
    await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
    await page.goto("/checkout/");
    const input = (await page.getByLabel("Código promocional").boundingBox())!;
    const apply = (await page.getByRole("button", { name: "Aplicar" }).boundingBox())!;
    const overlaps =
      apply.x < input.x + input.width &&
      input.x < apply.x + apply.width &&
      apply.y < input.y + input.height &&
      input.y < apply.y + apply.height;
    expect(overlaps).toBe(false);
  });

  test("the header does not move when React starts (Lighthouse CLS 0)", async ({ page, js }) => {
    test.skip(!js, "needs a browser that runs JavaScript");
    // The page as painted before its JavaScript has run: the same browser, the chunks held back.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/ofertas/");
    const before = { nav: await box(page, ".category-nav"), form: await box(page, ".region-form") };
    await expect(page.getByRole("button", { name: "Cambiar" })).toBeHidden();
    await page.unroute("**/assets/*.js");
    await page.goto("/ofertas/");
    await ready(page, js);
    expect({ nav: await box(page, ".category-nav"), form: await box(page, ".region-form") }).toEqual(before);
  });

  test("when the app's JavaScript never arrives, «Cambiar» comes back and still changes the region", async ({ page, js }) => {
    test.skip(!js, "a browser that runs JavaScript, whose chunks fail to load");
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/ofertas/");
    const cambiar = page.getByRole("button", { name: "Cambiar" });
    await expect(cambiar).toBeHidden();
    await expect(cambiar).toBeVisible({ timeout: 15_000 });
    // The no-JS layout: the province stays readable beside the button.
    expect((await box(page, ".region-form select")).width).toBeGreaterThan(100);
    await page.getByLabel("Región").selectOption("Sevilla");
    await cambiar.click();
    await expect(page).toHaveURL(/\/ofertas\/$/);
    await expect(page.getByLabel("Región")).toHaveValue("Sevilla");
  });

  test("a page that ships no JavaScript shows «Cambiar» at once, in the no-JS layout", async ({ page, js }) => {
    test.skip(!js, "without JavaScript every page shows it at once (layout.spec's no-js runs)");
    await page.goto("/contacts");
    const cambiar = page.getByRole("button", { name: "Cambiar" });
    // Well before the 8 s a page with an app waits for it to start.
    await expect(cambiar).toBeVisible({ timeout: 2_000 });
    expect((await box(page, ".region-form select")).width).toBeGreaterThan(100);
    await page.getByLabel("Región").selectOption("Sevilla");
    await cambiar.click();
    await expect(page.getByLabel("Región")).toHaveValue("Sevilla");
  });

  test("at the till a whole voucher code shows in large type, and a mailed code in its own box", async ({ page, js, loginAs }) => {
    await loginAs(DEMO_PARTNER);
    await page.goto("/socios");
    await ready(page, js);
    const code = page.getByLabel("Código del cupón");
    await code.fill("abcd-efgh-jklm");
    const shown = await code.evaluate((input: HTMLInputElement) => ({
      size: parseFloat(getComputedStyle(input).fontSize),
      hidden: input.scrollWidth - input.clientWidth,
    }));
    // The fields' `font: inherit` had kept it at the body's 16 px.
    expect(shown.size).toBeGreaterThanOrEqual(22);
    expect(shown.hidden).toBeLessThanOrEqual(0);
    await expect(code).toHaveCSS("text-transform", "uppercase");
    // A mailed code's 6 digits keep their narrow box: only the voucher's is widened.
    await page.context().clearCookies();
    await page.goto("/login/registro?paso=activar");
    await ready(page, js);
    const digits = page.getByLabel("Código de 6 cifras");
    expect(parseFloat(await digits.evaluate((input) => getComputedStyle(input).fontSize))).toBeGreaterThanOrEqual(22);
    expect((await digits.boundingBox())!.width).toBeLessThanOrEqual(192);
  });

  test("the category row brings the current category into view", async ({ page, js }) => {
    test.skip(!js, "scrolling the row is an enhancement");
    await page.goto("/ofertas/category/training/");
    await ready(page, js);
    const nav = (await page.getByRole("navigation", { name: "Categorías" }).boundingBox())!;
    const active = (await page.locator('.category-nav [aria-current="page"]').boundingBox())!;
    expect(active.x).toBeGreaterThanOrEqual(nav.x);
    expect(active.x + active.width).toBeLessThanOrEqual(nav.x + nav.width + 1);
  });
});

test.describe("desktop (1280 px)", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("header, content and footer share a left edge; prices line up; the header is the same on every page", async ({ page, js }) => {
    await page.goto("/");
    await ready(page, js);
    const logo = await box(page, ".site-header .logo");
    const heading = await box(page, "main h1");
    const footer = await box(page, ".site-footer .footer-links");
    expect(Math.round(heading.x)).toBe(Math.round(logo.x));
    expect(Math.round(footer.x)).toBe(Math.round(logo.x));
    const prices = await page
      .locator("main article.card .price-actual")
      .evaluateAll((els) => els.slice(0, 4).map((e) => e.getBoundingClientRect().bottom));
    expect(new Set(prices.map(Math.round)).size).toBe(1);
    // Every category is on screen, the last («Formación») included: nothing hides off the edge.
    const navBox = (await page.getByRole("navigation", { name: "Categorías" }).boundingBox())!;
    const last = (await page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Formación" }).boundingBox())!;
    expect(last.x + last.width).toBeLessThanOrEqual(navBox.x + navBox.width);
    // The category row starts at the same place on a page with JS and on one without (the no-JS
    // «Cambiar» button does not push it).
    const navHome = await box(page, ".category-nav");
    await page.goto("/agreement");
    const navInfo = await box(page, ".category-nav");
    expect(navInfo.x).toBe(navHome.x);
  });

  test("the cart panel shows a total, keeps «· 1 entrada» on one line, and is gone when «Ir a pagar» opens the checkout", async ({
    page,
    js,
  }) => {
    test.skip(!js, "without JS the cart button is a link to /checkout");
    const offer = await openRoomyOffer(page, js);
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
    // An add opens the panel by itself.
    const panel = page.locator("#cart-panel");
    await expect(panel).toBeVisible();
    const price = offer.price_options[0].actual_price;
    await expect(panel.getByTestId("cart-panel-total")).toHaveText(`${Number(price).toFixed(2).replace(".", ",")} €`);
    const tickets = panel.getByText("· 1 entrada");
    const { height } = (await tickets.boundingBox())!;
    expect(height).toBeLessThan(24);

    // «Ir a pagar» leads to the checkout, and the panel is gone in the very render that shows it (it
    // used to close a frame later, over the checkout page).
    await page.evaluate(() => {
      const w = window as unknown as { panelOverCheckout: boolean };
      w.panelOverCheckout = false;
      new MutationObserver(() => {
        if (location.pathname.startsWith("/checkout") && document.getElementById("cart-panel")) w.panelOverCheckout = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await panel.getByRole("link", { name: "Ir a pagar" }).click();
    await expect(page).toHaveURL(/\/checkout\/?$/);
    await expect(page.locator("#main").getByRole("heading", { level: 1, name: "Tu carrito" })).toBeVisible();
    await expect(page.locator("#cart-panel")).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { panelOverCheckout: boolean }).panelOverCheckout)).toBe(false);
  });

  test("an address names its city once; a per-customer limit is not red", { tag: "@js-covers" }, async ({ page }) => {
    const { results } = (await (await page.request.get("/api/v0/public/offers/?page_size=100")).json()) as {
      results: { uuid: string; price_options: { per_customer: number | null; available: number }[] }[];
    };
    const limited = results.find((o) => o.price_options.some((p) => p.per_customer && p.available > 5))!;
    await page.goto(`/ofertas/${limited.uuid}/`);
    const place = await page.locator(".offer-aside > p.muted").textContent();
    const words = place!.split(/[\s,]+/).filter((w) => w.length > 3);
    expect(new Set(words).size, place!).toBe(words.length);
    const limit = page.getByText(/^Máximo \d+ por cliente$/).first();
    const color = await limit.evaluate((e) => getComputedStyle(e).color);
    expect(color).not.toBe("rgb(180, 35, 24)");
  });

  test("a message that comes with a page load does not move the page when the app starts", async ({ page, js }) => {
    test.skip(!js, "without JavaScript the message is part of the page");
    const offer = await openRoomyOffer(page, js);
    // A plain form post, as before the app runs (or like coming back from a payment page): the
    // answer is a page load that carries «Añadido al carrito.».
    await page.evaluate((enhanced) => {
      (window as { beforePost?: boolean }).beforePost = true;
      const form = document.getElementById("buy") as HTMLFormElement;
      form.querySelector(`input[name="${enhanced}"]`)?.remove();
      form.submit();
    }, ENHANCED_FIELD);
    await page.waitForFunction(() => !(window as { beforePost?: boolean }).beforePost);
    await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/#buy$`));
    await ready(page, js);
    // Said by the offer's «Añadido» bar, drawn with the page (no toast repeats it: toasts.spec.ts).
    await expect(page.locator(".added-bar")).toContainText("Añadido al carrito.");
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let sum = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[]) sum += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(sum), 300);
        }),
    );
    expect(shifted).toBeLessThan(0.01);
  });

  test("toasts from the offer page do not follow to checkout, at most two show, and «Aplicar» stays clickable", async ({ page, js }) => {
    await openRoomyOffer(page, js);
    // Toasts pause while the window has no focus: from here on (after the cookie choice, which
    // reloads the page) only a dismissal removes one, so what this checks does not depend on how
    // fast the machine gets to checkout.
    if (js) await page.evaluate(() => window.dispatchEvent(new Event("blur")));
    await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
    await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
    await openCheckout(page, js);
    const toasts = page.locator("[data-toast-region] [role=status]");
    for (const code of ["NOEXISTE", "NOEXISTE2", "NOEXISTE3"]) {
      await page.getByLabel("Código promocional").fill(code);
      await page.getByRole("button", { name: "Aplicar" }).click({ timeout: 2000 });
      await expect(page.locator("#promo_code-error")).toHaveText(`El código promocional «${code}» no existe.`);
    }
    // A refused code is said under its field, never again in a toast.
    if (js) await expect(toasts).toHaveCount(0);
    // Three messages in a row: the newest two show.
    for (const code of ["BIENVENIDA10", "AHORRA5"]) {
      await page.getByLabel("Código promocional").fill(code);
      await page.getByRole("button", { name: "Aplicar" }).click({ timeout: 2000 });
      await expect(page.getByRole("button", { name: `Quitar el código ${code}` })).toBeVisible();
    }
    await page.getByRole("button", { name: "Quitar el código BIENVENIDA10" }).click({ timeout: 2000 });
    await expect(page.getByRole("button", { name: "Quitar el código BIENVENIDA10" })).toHaveCount(0);
    if (js) await expect(toasts).toHaveText(["Código «BIENVENIDA10» quitado.", "Código «AHORRA5» aplicado."]);
    await page.getByLabel("Código promocional").fill("bienvenida10");
    await page.getByRole("button", { name: "Aplicar" }).click({ trial: true, timeout: 2000 });
  });
});

test("tablet (800 px): two columns of cards, the buy box beside the gallery", async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.goto("/ofertas/");
  const xs = await page
    .locator("main article.card")
    .evaluateAll((els) => els.slice(0, 4).map((e) => Math.round(e.getBoundingClientRect().x)));
  expect(new Set(xs).size).toBe(2);
  const offer = await roomyOffer(page);
  await page.goto(`/ofertas/${offer.uuid}/`);
  const media = await box(page, ".offer-media");
  const buy = await box(page, ".buy-box");
  expect(buy.x).toBeGreaterThan(media.x + media.width - 1);
});
