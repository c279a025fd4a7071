import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { check, test, VIEWPORTS } from "./support/axe";
import { expect, ready } from "./support/fixtures";

/**
 * «Ventas»: every row names its buyer (the name given at checkout, or a hint of the address), and
 * the chart of sales and redemptions per day is drawn by the server, so it shows without JS and
 * adds up to the page's totals. axe-clean at phone and desktop width.
 */
test("ventas names each buyer and draws the sales and redemptions per day", async ({ page, js, helper, loginAs }, info) => {
  test.setTimeout(120_000);
  await loginAs(DEMO_PARTNER);
  await page.goto("/socios/ventas");
  await ready(page, js);
  await expect(page.getByRole("heading", { level: 1, name: "Ventas" })).toBeVisible();

  const buyers = await page.locator('table tbody td[data-label="Cliente"]').allInnerTexts();
  expect(buyers.length).toBeGreaterThan(0);
  for (const buyer of buyers) expect(buyer.trim()).toMatch(/^(\p{L}[\p{L}'-]*|\S{1,2}…@\S+)$/u);

  const totals = page.getByRole("definition");
  const sold = (await page.locator(".stat-row div", { hasText: "Cupones vendidos" }).locator("dd").innerText()).trim();
  const redeemed = (await page.locator(".stat-row div", { hasText: "Canjeados" }).locator("dd").innerText()).trim();
  await expect(totals.first()).toBeVisible();
  await expect(page.locator(".stat-row div", { hasText: "Reembolsados" })).toBeVisible();

  const chart = page.getByRole("img", { name: /^Del \d{2}\/\d{2}\/\d{4} al \d{2}\/\d{2}\/\d{4}: / });
  await expect(chart).toBeVisible();
  // The drawing's words say what the bars add up to: the page's own totals.
  await expect(chart).toHaveAccessibleName(
    new RegExp(`: ${sold.replace(/\./g, "\\.")} cupones vendidos y ${redeemed.replace(/\./g, "\\.")} canjeados\\.`),
  );
  expect(await chart.locator("rect.sales-chart-sold").count()).toBeGreaterThan(0);

  const problems: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: info.outputPath(`ventas-${viewport.width}.png`), fullPage: true });
    await check(page, js, `/socios/ventas at ${viewport.width}`, problems, helper);
  }
  expect(problems).toEqual([]);
});
