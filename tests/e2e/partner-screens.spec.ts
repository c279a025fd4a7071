import { readFile } from "node:fs/promises";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { loginAs } from "./auth";
import { addToCart, expect, openCheckout, ready, test, type OfferSummary } from "./fixtures";

/** «Ventas»: the GET filter narrows the list, and «Descargar CSV» downloads the same rows through the shop. */
test("ventas: filter by offer and date, download the CSV", async ({ page, js }) => {
  await loginAs(page, DEMO_PARTNER);
  await page.goto("/socios");
  await page.getByRole("navigation", { name: "Portal de socios" }).getByRole("link", { name: "Ventas" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Ventas" })).toBeVisible();
  await ready(page, js);
  const rows = page.locator("table tbody tr");
  await expect(rows.first()).toBeVisible();

  // By offer: every row is that offer's; the URL carries the filter (a GET form).
  const offerSelect = page.getByLabel("Oferta", { exact: true });
  const paella = (await offerSelect.locator("option", { hasText: "Paella marinera" }).first().getAttribute("value"))!;
  await offerSelect.selectOption(paella);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(new RegExp(`offer=${paella}`));
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allInnerTexts()) expect(text).toContain("Paella marinera");
  const filteredCount = await rows.count();

  // The CSV has the same rows, downloaded from the shop's own address (no token in the link).
  const link = page.getByRole("link", { name: "Descargar CSV" });
  expect(await link.getAttribute("href")).toMatch(new RegExp(`^/socios/ventas\\.csv\\?.*offer=${paella}`));
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^ventas-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, "utf8");
  const lines = csv.replace(/^\uFEFF/, "").trim().split(/\r?\n/);
  expect(lines[0]).toContain("Fecha de pago;Venta;Oferta");
  expect(lines).toHaveLength(filteredCount + 1);
  for (const line of lines.slice(1)) expect(line).toContain("Paella marinera");

  // A range with no sales says so; a date that is not one is refused with a message, not a 500.
  await page.goto("/socios/ventas?date_from=2099-01-01");
  await expect(page.getByText("No hay ventas con estos filtros.")).toBeVisible();
  const bad = await page.goto("/socios/ventas?date_from=2026-13-01");
  expect(bad?.status()).toBe(200);
  await expect(page.getByText("Escribe una fecha válida (aaaa-mm-dd).")).toBeVisible();
});

/** A partner's promo code, made on «Códigos promocionales», takes money off at the checkout; then it is edited and deleted (after a confirmation). */
test("promo code: a partner creates one, a buyer uses it at checkout, the partner edits and deletes it", async ({ page, browser, js }, testInfo) => {
  test.setTimeout(90_000);
  const code = `SOCIO${testInfo.project.name === "js" ? "J" : "N"}${Date.now().toString(36).toUpperCase()}`;
  await loginAs(page, DEMO_PARTNER);
  await page.goto("/socios/codigos");
  await ready(page, js);
  const form = page.locator("#promo-new");

  // A percent above 100 is refused next to its field, and what was typed stays.
  await form.getByLabel("Código").fill(code.toLowerCase());
  await form.getByLabel("Oferta").selectOption({ label: "Paella marinera para dos con vistas al mar en la Barceloneta" });
  await form.getByLabel("Tipo de descuento").selectOption("percent");
  await form.getByLabel("Valor del descuento").fill("150");
  await form.getByRole("button", { name: "Crear código" }).click();
  await expect(form.getByText("Un porcentaje va de 1 a 100.")).toBeVisible();
  await expect(form.getByLabel("Código")).toHaveValue(code.toLowerCase());

  await form.getByLabel("Valor del descuento").fill("25");
  await form.getByLabel("Usos por cliente").fill("1");
  await form.getByRole("button", { name: "Crear código" }).click();
  await expect(page.getByText(`Código ${code} creado.`).first()).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(code) });
  await expect(row).toContainText("25 %");
  await expect(row).toContainText("Paella marinera");

  // A buyer applies it at the checkout: 25 % off the paella.
  const shopper = await browser.newContext({ javaScriptEnabled: js, baseURL: testInfo.project.use.baseURL });
  const shop = await shopper.newPage();
  const { results } = (await (await shop.request.get(`/api/v0/public/offers/?search=${encodeURIComponent("Paella marinera")}`)).json()) as { results: OfferSummary[] };
  const paella = results.find((o) => o.title.startsWith("Paella marinera"))!;
  await addToCart(shop, js, paella, 1);
  await openCheckout(shop, js);
  await shop.getByLabel("Código promocional").fill(code.toLowerCase());
  await shop.getByRole("button", { name: "Aplicar" }).click();
  await expect(shop.getByText(`Código «${code}» aplicado.`)).toBeVisible();
  const cents = Math.round(Number(paella.price_options[0].actual_price) * 100);
  await expect(shop.getByTestId("checkout-total")).toHaveText(`${(Math.round(cents * 0.75) / 100).toFixed(2).replace(".", ",")} €`);
  await shopper.close();

  // Edit: the same form, filled in.
  await row.getByRole("link", { name: `Editar ${code}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Código ${code}` })).toBeVisible();
  await ready(page, js);
  await expect(page.getByLabel("Valor del descuento")).toHaveValue("25.00");
  await page.getByLabel("Valor del descuento").fill("30");
  await page.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(page.getByText(`Código ${code} guardado.`).first()).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(code) })).toContainText("30 %");

  // Delete asks first; «Cancelar» keeps it, «Sí, borrar» removes it.
  await page.getByRole("link", { name: `Borrar ${code}` }).click();
  await expect(page.getByRole("heading", { name: `¿Borrar el código ${code}?` })).toBeVisible();
  await page.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByRole("heading", { name: `¿Borrar el código ${code}?` })).toBeHidden();
  await page.goto("/socios/codigos");
  await page.getByRole("link", { name: `Borrar ${code}` }).click();
  await page.getByRole("button", { name: "Sí, borrar el código" }).click();
  await expect(page.getByText("Código promocional borrado.").first()).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(code) })).toHaveCount(0);
});
