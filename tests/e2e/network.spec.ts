import { acceptCookies, expect, openRoomyOffer, ready, test } from "./fixtures";

const NETWORK_FAILURE = "No hemos podido conectar con la tienda. Revisa tu conexión e inténtalo de nuevo.";

test.describe("when the network fails, with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "fetchers and the search dialog need JS");

  test("a failed search is an empty list, not the error page", async ({ page, js }) => {
    await page.goto("/");
    await ready(page, js);
    await acceptCookies(page);
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog).toBeVisible();
    await page.route("**/buscar.data*", (route) => route.fulfill({ status: 500, body: "boom" }));
    await dialog.getByRole("searchbox").fill("paella");
    await expect(dialog.getByText("No hemos encontrado ofertas para «paella».")).toBeVisible();
    await page.unroute("**/buscar.data*");
    await page.route("**/buscar.data*", (route) => route.abort("internetdisconnected"));
    await dialog.getByRole("searchbox").fill("paella marinera");
    await expect(dialog.getByText("No hemos encontrado ofertas para «paella marinera».")).toBeVisible();
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

  test("toasts pause while the window has no focus, and Alt+T reaches them", async ({ page, js }) => {
    test.setTimeout(90_000);
    await openRoomyOffer(page, js);
    // The window loses focus first, so however slow this machine is, the toast cannot expire
    // before the checks (a toast born during a pause waits for the pause to end).
    await page.evaluate(() => window.dispatchEvent(new Event("blur")));
    await page.getByRole("button", { name: "Añadir al carrito" }).click();
    const toast = page.locator("[data-toast-region] [role=status]").filter({ hasText: "Añadido al carrito." });
    await expect(toast).toBeVisible();
    await page.keyboard.press("Alt+t");
    await expect(toast).toBeFocused();
    await page.waitForTimeout(6500);
    await expect(toast).toBeVisible();
    await page.evaluate(() => window.dispatchEvent(new Event("focus")));
    await expect(toast).toBeHidden({ timeout: 8000 });
  });
});

test("an unknown ?region= or ?category= is ignored, and a known region is named in the heading and header", async ({ page }) => {
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
});
