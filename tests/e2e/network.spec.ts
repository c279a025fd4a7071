import type { Page } from "@playwright/test";
import { acceptCookies, addToCart, expect, openCheckout, openRoomyOffer, ready, roomyOffer, test } from "./support/fixtures";

const NETWORK_FAILURE = "No hemos podido conectar con la tienda. Revisa tu conexión e inténtalo de nuevo.";
const SEARCH_FAILED = "No hemos podido buscar ahora. Comprueba tu conexión e inténtalo de nuevo.";

/**
 * One form's post fails on the way (its request aborted, as when the phone loses its network): a
 * toast says so, the page is still there with what was typed, and no error page.
 */
async function failsInPlace(page: Page, path: RegExp, heading: string | RegExp, act: () => Promise<void>) {
  await page.route(path, (route) => route.abort("internetdisconnected"));
  const failed = page.waitForEvent("requestfailed", (r) => path.test(r.url()));
  await act();
  await failed;
  const toast = page.locator("[data-toast-region] [role=status]").filter({ hasText: NETWORK_FAILURE });
  await expect(toast).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
  await expect(page.getByText("Algo ha salido mal")).toHaveCount(0);
  await page.unroute(path);
  // Its 5 s over, the toast goes (the pointer off it: hovering pauses it): the next form's failure must
  // show its own. The page's clock (installed by the test) jumps those 5 s instead of waiting them out.
  await page.mouse.move(5, 600);
  await page.clock.fastForward(5_000);
  await expect(toast).toBeHidden({ timeout: 10_000 });
}

test.describe("when the network fails, with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "fetchers and the search dialog need JS");

  test("a failed search is an empty list that says why, not the error page", async ({ page, js }) => {
    await page.goto("/");
    await ready(page, js);
    await acceptCookies(page);
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog).toBeVisible();
    await page.route("**/buscar.data*", (route) => route.fulfill({ status: 500, body: "boom" }));
    await dialog.getByRole("searchbox").fill("paella");
    await expect(dialog.getByText(SEARCH_FAILED)).toBeVisible();
    await expect(dialog.getByText(/No hemos encontrado ofertas/)).toHaveCount(0);
    await page.unroute("**/buscar.data*");
    await page.route("**/buscar.data*", (route) => route.abort("internetdisconnected"));
    await dialog.getByRole("searchbox").fill("paella marinera");
    await expect(dialog.getByText(SEARCH_FAILED)).toBeVisible();
    // Back online, a search that matches nothing says that instead.
    await page.unroute("**/buscar.data*");
    await dialog.getByRole("searchbox").fill("zzzzqqqq");
    await expect(dialog.getByText("No hemos encontrado ofertas para «zzzzqqqq».")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Ofertas irresistibles");
    await expect(page.getByText("Algo ha salido mal")).toHaveCount(0);
  });

  test("a failed «Añadir al carrito» is a toast; the page and the typed tickets stay", async ({ page, js }) => {
    const offer = await openRoomyOffer(page, js);
    await page.getByRole("spinbutton", { name: "Entradas" }).fill("2");
    await page.route("**/cart.data*", (route) => route.abort("internetdisconnected"));
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await expect(page.getByRole("status").filter({ hasText: NETWORK_FAILURE })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(offer.title);
    await expect(page.getByRole("spinbutton", { name: "Entradas" })).toHaveValue("2");

    // A server error answers the same way.
    await page.unroute("**/cart.data*");
    await page.route("**/cart.data*", (route) => route.fulfill({ status: 500, body: "" }));
    // Answered before the route goes: a press whose request is still on its way when it does
    // would reach the real cart.
    const failed = page.waitForResponse((response) => response.url().includes("cart.data") && response.status() === 500);
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await failed;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(offer.title);
    await expect(page.getByRole("button", { name: "Añadir al carrito" })).toBeEnabled();

    // And once the network is back, the same form works.
    await page.unroute("**/cart.data*");
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("2");
  });

  test("every fetcher form keeps the page and its fields when its request fails: a toast says so", async ({ page, js }) => {
    test.setTimeout(180_000);
    // The toasts' timers run on a clock the test moves on (failsInPlace).
    await page.clock.install();
    const offer = await roomyOffer(page);
    // The offer page: the heart and the region picker in the header.
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, js);
    await acceptCookies(page);
    const heart = page.getByRole("button", { name: `Guardar «${offer.title}» en favoritos` });
    await failsInPlace(page, /\/favorite\.data/, offer.title, () => heart.click());
    await expect(heart).toHaveAttribute("aria-pressed", "false");
    const region = page.getByRole("combobox", { name: "Región" });
    await failsInPlace(page, /\/region\.data/, offer.title, async () => void (await region.selectOption("Sevilla")));
    await expect(region).toHaveValue("");

    // The cart panel's remove button.
    // Adding opens it.
    await addToCart(page, js, offer, 2);
    await expect(page.getByRole("heading", { name: "Tu carrito" })).toBeVisible();
    await failsInPlace(page, /\/cart\.data/, offer.title, () =>
      page.getByRole("button", { name: `Quitar ${offer.title} del carrito` }).click(),
    );
    await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText("2");

    // The checkout: each line's forms, the promo code, emptying the cart, and «Continuar».
    await page.keyboard.press("Escape");
    await openCheckout(page, js);
    const title = "Tu carrito";
    await failsInPlace(page, /\/cart\.data/, title, () => page.getByRole("button", { name: "Una entrada más" }).click());
    await failsInPlace(page, /\/cart\.data/, title, () => page.getByLabel("Es un regalo").check());
    await page.getByLabel("Código promocional").fill("BIENVENIDA10");
    await failsInPlace(page, /\/cart\.data/, title, () => page.getByRole("button", { name: "Aplicar" }).click());
    await expect(page.getByLabel("Código promocional")).toHaveValue("BIENVENIDA10");
    await failsInPlace(page, /\/cart\.data/, title, () =>
      page
        .getByRole("button", { name: `Quitar ${offer.title}` })
        .first()
        .click(),
    );
    await failsInPlace(page, /\/cart\.data/, title, () => page.getByRole("button", { name: "Vaciar carrito" }).click());
    await expect(page.getByRole("link", { name: offer.title }).first()).toBeVisible();
    await page.getByLabel("Correo electrónico").fill("sin-red@example.es");
    await page.getByLabel(/He leído y acepto/).check();
    await failsInPlace(page, /\/checkout\/?\.data/, title, () => page.getByRole("button", { name: "Continuar" }).click());
    await expect(page).toHaveURL(/\/checkout\/$/);
    await expect(page.getByLabel("Correo electrónico")).toHaveValue("sin-red@example.es");
    await expect(page.getByLabel(/He leído y acepto/)).toBeChecked();

    // Back online, «Continuar» goes on to the payment step with what was typed.
    await page.getByRole("button", { name: "Continuar" }).click();
    await expect(page).toHaveURL(/\/order\/$/);
  });

  test("toasts pause while the window has no focus, and Alt+T reaches them", async ({ page, js }) => {
    test.setTimeout(90_000);
    // The page's clock, moved on past the toast's 5 s rather than waiting them out.
    await page.clock.install();
    await openRoomyOffer(page, js);
    // The window loses focus first, so however slow this machine is, the toast cannot expire
    // before the checks (a toast born during a pause waits for the pause to end).
    await page.evaluate(() => window.dispatchEvent(new Event("blur")));
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    const toast = page.locator("[data-toast-region] [role=status]").filter({ hasText: "Añadido al carrito." });
    await expect(toast).toBeVisible();
    await page.keyboard.press("Alt+t");
    await expect(toast).toBeFocused();
    await page.clock.fastForward(6_500);
    // A second for a toast dismissed by that jump to leave the page, as it would.
    await page.waitForTimeout(1_000);
    await expect(toast).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await page.clock.fastForward(5_000);
    await expect(toast).toBeHidden({ timeout: 8000 });
  });
});

test(
  "an unknown ?region= or ?category= is ignored, and a known region is named in the heading and header",
  { tag: "@js-covers" },
  async ({ page }) => {
    const bad = await page.goto("/ofertas/?region=Atlantis&category=nada");
    expect(bad?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ofertas");
    await expect(page.locator("main article.card").first()).toBeVisible();
    const badCategory = await page.goto("/ofertas/category/restaurants/?region=Atlantis");
    expect(badCategory?.status()).toBe(200);

    await page.goto("/ofertas/category/restaurants/?region=Barcelona");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Restaurantes en Barcelona");
    await expect(page.getByText("Ofertas irresistibles para ti en Barcelona")).toBeVisible();
    for (const meta of await page.locator("main article.card .card-meta").allTextContents()) expect(meta).toContain("Barcelona");
  },
);
