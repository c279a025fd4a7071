import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { validCodes } from "./support/till-codes";
import { check, test, VIEWPORTS } from "./support/axe";
import { expect, ready } from "./support/fixtures";

/**
 * The till at the counter: a queue of codes, the verdict of the last one kept above an empty field,
 * «Hoy: N canjeados», and the search for a lost code. A tool: no region, categories or shop footer.
 */
test("the till redeems a queue of coupons and lists today's", async ({ page, js, helper, request, loginAs }, info) => {
  test.setTimeout(120_000);
  const codes = await validCodes(request);
  // Each project takes its own two, so the js and no-js runs never share a coupon.
  const [first, second] = js ? codes.slice(0, 2) : codes.slice(-2);
  await loginAs(DEMO_PARTNER);
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto("/socios");
  await ready(page, js);
  await expect(page.getByRole("navigation", { name: "Categorías" })).toHaveCount(0);
  await expect(page.locator(".site-footer")).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: /provincia|región/i })).toHaveCount(0);
  const count = async () => Number(/Hoy: (\d+)/.exec(await page.locator("#till-today-title").innerText())![1]);
  const before = await count();

  await page.getByLabel("Código del cupón").fill(first);
  await page.getByRole("button", { name: "Comprobar" }).click();
  await page.getByRole("button", { name: "Canjear", exact: true }).click();
  await expect(page.getByText("Cupón canjeado")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Canjear otro" })).toBeVisible();
  const field = page.getByLabel("Código del cupón");
  await expect(field).toHaveValue("");
  if (js) await expect(field).toBeFocused();
  await expect(page.locator(".coupon-details")).toContainText(first);
  expect(await count()).toBeGreaterThanOrEqual(before + 1); // the other project redeems at the same partner meanwhile
  await expect(page.locator(".till-today tbody tr").first()).toContainText(first.slice(-4));
  await expect(page.locator(".till-today tbody tr").first()).toContainText(DEMO_PARTNER.email);

  const problems: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: info.outputPath(`till-queue-${viewport.width}.png`), fullPage: true });
    await check(page, js, `/socios after a redemption at ${viewport.width}`, problems, helper);
  }

  // The next in the queue.
  await field.fill(second);
  await page.getByRole("button", { name: "Comprobar" }).click();
  await expect(page.getByText("Cupón válido")).toBeVisible();
  await page.getByRole("button", { name: "Canjear", exact: true }).click();
  // The second's «Cupón válido» already named it: wait for its redemption's verdict, then the list.
  await expect(page.getByText("Cupón canjeado")).toBeVisible();
  await expect(page.locator(".coupon-details")).toContainText(second);
  await expect.poll(count).toBeGreaterThanOrEqual(before + 2); // the other project redeems at the same partner meanwhile
  // A wrong one in the queue: «Deshacer» takes it back, and it is valid again.
  await page.getByRole("button", { name: "Deshacer" }).click();
  await expect(page.getByText("Canjeo deshecho: el cupón vuelve a ser válido.")).toBeVisible();
  await expect(page.getByText("Cupón válido")).toBeVisible();
  expect(await count()).toBeGreaterThanOrEqual(before + 1); // the other project redeems at the same partner meanwhile

  // The code is lost: a too short search is explained, an unknown buyer finds nothing.
  await page.getByLabel("Nombre o email del cliente").fill("ab");
  await page.getByRole("button", { name: "Buscar sus cupones" }).click();
  await expect(page.getByText("Escribe al menos 3 letras del nombre o del email.")).toBeVisible();
  await page.getByLabel("Nombre o email del cliente").fill("nadie-compro-esto");
  await page.getByRole("button", { name: "Buscar sus cupones" }).click();
  await expect(page.getByText("Ningún cupón por canjear de tus ofertas para «nadie-compro-esto».")).toBeVisible();
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: info.outputPath(`till-search-${viewport.width}.png`), fullPage: true });
    await check(page, js, `/socios search at ${viewport.width}`, problems, helper);
  }
  expect(problems).toEqual([]);
});
