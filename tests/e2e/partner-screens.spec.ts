import { readFile } from "node:fs/promises";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { loginAs } from "./auth";
import { expect, ready, test } from "./fixtures";

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
