import { acceptCookies, expect, ready, test } from "./support/fixtures";

test.describe("browsing: home → category → offer → search → region → 404", () => {
  test("the whole read path", async ({ page, js }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page.getByText("Ofertas irresistibles para ti en España")).toBeVisible();
    await acceptCookies(page);

    // Category from the header menu.
    await page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Restaurantes" }).click();
    await expect(page).toHaveURL(/\/ofertas\/category\/restaurants\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Restaurantes" })).toBeVisible();
    const cards = page.locator("article.card");
    await expect(cards.first()).toBeVisible();
    await expect(cards.first().locator(".card-meta")).toContainText("Restaurantes");

    // Offer detail: title, price options with actual, regular and badge.
    const title = (await cards.first().locator(".card-title").textContent())!.trim();
    await cards.first().getByRole("link").click();
    await expect(page).toHaveURL(/\/ofertas\/[0-9a-f-]{36}\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.getByRole("group", { name: "Elige una opción" })).toBeVisible();
    await expect(page.locator(".option .price-actual").first()).toHaveText(/^\d+,\d{2}\u00a0€$/);
    await expect(page.locator(".option .badge-discount [aria-hidden]").first()).toHaveText(/^-\d+%$/);
    await expect(page.getByRole("button", { name: "Añadir al carrito" })).toBeVisible();

    // Search: a dialog with JS, a page without; opening a result records it as a recent search.
    await page.getByRole("link", { name: "Buscar" }).click();
    if (js) {
      const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
      await expect(dialog).toBeVisible();
      await dialog.getByRole("searchbox").fill("paella");
      const result = dialog.getByRole("link", { name: /Paella marinera/ });
      await expect(result).toBeVisible();
      await expect(result).toHaveAttribute("href", /^\/ofertas\/[0-9a-f-]{36}\/\?from=search$/);
      await result.click();
    } else {
      await expect(page).toHaveURL(/\/buscar$/);
      await page.getByRole("searchbox", { name: "¿Qué buscas?" }).fill("paella");
      await page.getByRole("button", { name: "Buscar", exact: true }).click();
      await expect(page).toHaveURL(/\/buscar\?q=paella/);
      await page
        .locator("article.card")
        .getByRole("link", { name: /Paella marinera/ })
        .click();
    }
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Paella marinera");
    if (js) {
      await page.getByRole("link", { name: "Buscar" }).click();
      const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
      await expect(dialog.getByRole("heading", { name: "Búsquedas recientes" })).toBeVisible();
      await expect(dialog.getByRole("link", { name: /Paella marinera/ }).first()).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
    } else {
      await page.goto("/buscar");
      await expect(page.getByRole("heading", { name: "Búsquedas recientes" })).toBeVisible();
      await expect(page.getByRole("link", { name: /Paella marinera/ }).first()).toBeVisible();
    }

    // Region: stored in the session and used by the home page.
    await page.goto("/");
    // With JS the select posts on change once React has hydrated: not before.
    await ready(page, js);
    await page.getByLabel("Región").selectOption("Madrid");
    if (!js) await page.getByRole("button", { name: "Cambiar" }).click();
    await expect(page.getByText("Ofertas irresistibles para ti en Madrid")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ofertas irresistibles en Madrid");
    const metas = await page.locator("article.card .card-meta").allTextContents();
    expect(metas.length).toBeGreaterThan(0);
    for (const meta of metas) expect(meta).toContain("Madrid");
    await page.reload();
    await expect(page.getByLabel("Región")).toHaveValue("Madrid");

    // Unknown page: the spec's 404.
    const response = await page.goto("/esto-no-existe/de-verdad");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("Lo sentimos, no pudimos encontrar la página que buscas.")).toBeVisible();
    await page.getByRole("link", { name: "Ir a la página principal" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("back and reload return to where the visitor was in a list; a new page starts at the top", async ({ page, js }) => {
    await page.goto("/ofertas/");
    await acceptCookies(page);
    await ready(page, js);
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    // The card the visitor opens, whole in view. Positions are checked by what is in view, not
    // by pixels: the cards off screen are laid out as they come near (content-visibility), and
    // the browser keeps what is in view in place as they do, which moves the offset a little.
    const title = await page.locator("article.card").evaluateAll((cards) => {
      const card = cards.find((c) => c.getBoundingClientRect().top > 100 && c.getBoundingClientRect().bottom < window.innerHeight);
      return card!.querySelector(".card-title")!.textContent!.trim();
    });
    const cardInView = () =>
      page
        .locator("article.card", { hasText: title })
        .first()
        .evaluate((card) => {
          const box = card.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        });
    await page.locator("article.card", { hasText: title }).first().getByRole("link").click();
    await expect(page).toHaveURL(/\/ofertas\/[0-9a-f-]{36}\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    // With JS the router scrolls once it has rendered the page, just after the URL changes.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(/\/ofertas\/$/);
    await expect.poll(cardInView).toBe(true);

    // The position survives a reload, also when the app's JavaScript then fails to load.
    if (js) await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.reload();
    await expect.poll(cardInView).toBe(true);
  });

  test("«Buscar» pressed the moment a page appears opens the dialog on that page", async ({ page, js }) => {
    test.skip(!js, "without JavaScript «Buscar» is a link to /buscar");
    await page.goto("/");
    await acceptCookies(page);
    await ready(page, js);
    // Pressed from a MutationObserver: the category page is in the document, and React has not yet
    // run its effects for the navigation (which closed the dialog, opened on the new page).
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        if (document.querySelector("#main h1")?.textContent !== "Restaurantes") return;
        observer.disconnect();
        document.querySelector<HTMLAnchorElement>('.header-actions a[href="/buscar"]')!.click();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole("navigation", { name: "Categorías" }).getByRole("link", { name: "Restaurantes" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Restaurantes" })).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog).toBeVisible();
    // It still closes on the page a result leads to.
    await dialog.getByRole("searchbox").fill("paella");
    await dialog
      .getByRole("link", { name: /Paella marinera/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/ofertas\/[0-9a-f-]{36}\/\?from=search$/);
    await expect(dialog).toBeHidden();
  });

  test("offer ids that are not UUIDs go home; unknown offers and categories are 404", { tag: "@js-covers" }, async ({ page }) => {
    await page.goto("/ofertas/no-es-un-uuid/");
    await expect(page).toHaveURL(/localhost:\d+\/$/);
    const unknown = await page.goto("/ofertas/00000000-0000-4000-8000-000000000000/");
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: /no existe/ })).toBeVisible();
    const category = await page.goto("/ofertas/category/astronautas/");
    expect(category?.status()).toBe(404);
    const single = await page.goto("/no-existe");
    expect(single?.status()).toBe(404);
    await expect(page.getByText("Lo sentimos, no pudimos encontrar la página que buscas.")).toBeVisible();
  });

  test("information pages have the spec's titles and the footer links them all", { tag: "@js-covers" }, async ({ page }) => {
    const pages: [string, string][] = [
      ["/contacts", "Nuestros contactos"],
      ["/agreement", "Acuerdo De Usuario"],
      ["/marketing-agreement", "Consentimiento comercial"],
      ["/privacy-policy", "Política de privacidad"],
      ["/cookie-policy", "Política de cookies"],
    ];
    await page.goto("/");
    const footer = page.getByRole("navigation", { name: "Pie de página" });
    for (const [path, title] of pages) {
      await expect(footer.getByRole("link", { name: title })).toHaveAttribute("href", path);
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(new RegExp(title));
      expect((await page.locator("article.static-page").textContent())!.length).toBeGreaterThan(800);
    }
  });

  test("pagination works as plain links", async ({ page }) => {
    await page.goto("/ofertas/");
    await expect(page.getByText(/Página 1 de \d+/)).toBeVisible();
    const first = await page.locator("article.card .card-title").first().textContent();
    await page.getByRole("link", { name: "Siguiente →" }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(/Página 2 de \d+/)).toBeVisible();
    expect(await page.locator("article.card .card-title").first().textContent()).not.toBe(first);
  });

  test("a page past the end shows the last page, not an empty one", { tag: "@js-covers" }, async ({ page }) => {
    await page.goto("/ofertas/?page=99");
    const [, shown, of] = /Página (\d+) de (\d+)/.exec((await page.getByText(/Página \d+ de \d+/).textContent())!)!;
    expect(Number(of)).toBeGreaterThan(1);
    expect(shown).toBe(of);
    await expect(page).toHaveURL(new RegExp(`/ofertas/\\?page=${of}$`));
    await expect(page.locator("main article.card").first()).toBeVisible();
    // A listing of one page drops the parameter; the filters stay.
    await page.goto("/ofertas/category/restaurants/?region=Valencia&page=7");
    await expect(page).toHaveURL(/\/ofertas\/category\/restaurants\/\?region=Valencia$/);
    await expect(page.locator("main article.card").first()).toBeVisible();
  });

  test("a phone, and a desktop column at density 1, load the cards' 400 px pictures, and the gallery's", async ({ page }) => {
    // naturalWidth is in CSS pixels once srcset picked a file (400 ÷ its density): > 0 says it loaded.
    const loaded = (img: HTMLImageElement) =>
      img.complete ? `${new URL(img.currentSrc).pathname} ${img.naturalWidth > 0 ? "loaded" : "broken"}` : "";
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/");
      await expect
        .poll(() => page.locator("article.card img").first().evaluate(loaded), `${width} px`)
        .toMatch(/^\/images\/demo\/400\/[a-z0-9-]+\.webp loaded$/);
    }
    await page.locator("article.card a.card-link").first().click();
    const gallery = page.locator(".gallery img").first();
    await gallery.scrollIntoViewIfNeeded();
    await expect.poll(() => gallery.evaluate(loaded)).toMatch(/^\/images\/demo\/400\/[a-z0-9-]+-2\.webp loaded$/);
  });

  test("mobile: short header text and a back arrow off the home page", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto("/");
    await expect(page.getByText("Ofertas en España")).toBeVisible();
    await expect(page.getByText("Ofertas irresistibles para ti en España")).toBeHidden();
    await expect(page.getByRole("link", { name: "Volver" })).toHaveCount(0);
    await page.goto("/ofertas/");
    await expect(page.getByRole("link", { name: "Volver" })).toBeVisible();
  });
});
