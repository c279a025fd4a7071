import type { Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { DEMO_CUSTOMER } from "./support/auth";
import { chooseCookies, expect, ready, roomyOffer, test } from "./support/fixtures";
import { smallTargets } from "./support/tap-targets";

// The till, the back office and the shop on a phone (375 px), JavaScript on and off.
test.use({ viewport: { width: 375, height: 812 } });

/** Fields side by side in the back office's form grid have their controls' tops in line. */
async function expectFieldsInLine(page: Page) {
  const tops = await page
    .locator(".form-grid .field")
    .evaluateAll((fields) =>
      fields.map((f) => [f.getBoundingClientRect().top, f.querySelector("input, select")!.getBoundingClientRect().top]),
    );
  for (const [fieldTop, controlTop] of tops) {
    for (const [otherTop, otherControl] of tops) if (otherTop === fieldTop) expect(otherControl).toBe(controlTop);
  }
}

test("the till keeps the code it checked, normalised, and the verdict repeats it", async ({ page, js, loginAs }) => {
  await loginAs(DEMO_PARTNER);
  await page.goto("/socios");
  await ready(page, js);
  const field = page.getByLabel("Código del cupón");
  await expect(field).toHaveAttribute("placeholder", "p. ej. ABCD-EFGH-JKLM");
  await field.fill("hjkm npqr stuv");
  await page.getByRole("button", { name: "Comprobar" }).click();
  await expect(page.getByRole("alert")).toContainText("No existe ningún cupón HJKM-NPQR-STUV");
  await expect(field).toHaveValue("HJKM-NPQR-STUV");
  // The code in the verdict is read as one word: never broken at a dash.
  const repeated = page.getByRole("alert").getByText("HJKM-NPQR-STUV", { exact: true });
  expect(await repeated.evaluate((el) => new Set([...el.getClientRects()].map((r) => Math.round(r.top))).size)).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("«Mis ofertas» is one card per offer with its actions on screen; form fields line up", async ({ page, js, loginAs }) => {
  await loginAs(DEMO_PARTNER);
  await page.goto("/socios/ofertas/");
  await ready(page, js);
  const rows = page.locator("table.stack-table tbody tr");
  expect(await rows.count()).toBeGreaterThan(0);
  for (const button of await rows.getByRole("button").all()) {
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, "an action inside the screen").toBeLessThanOrEqual(375);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  // «Crear un código» at desktop width, where fields share rows: one control height, tops in line
  // even with the hint under «Usos en total».
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/socios/codigos");
  await ready(page, js);
  const controls = page.locator(".form-grid .field").locator("input:not([type=checkbox]):not([type=hidden]), select");
  const boxes = await controls.evaluateAll((els) =>
    els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })),
  );
  expect(boxes.length).toBeGreaterThan(3);
  for (const box of boxes) expect(box.height).toBe(44);
  await expectFieldsInLine(page);
});

test("back-office fields stay in line when one of them has an error", async ({ page, js, loginAs }) => {
  await loginAs(DEMO_PARTNER);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/socios/codigos");
  await ready(page, js);
  await page.getByLabel("Código", { exact: true }).fill(`LINEA${Date.now() % 100000}`);
  await page.getByLabel("Oferta", { exact: true }).selectOption({ index: 1 });
  await page.getByLabel("Tipo de descuento").selectOption("percent");
  await page.getByLabel("Valor del descuento").fill("150");
  await page.getByRole("button", { name: "Crear código" }).click();
  const value = page.getByLabel("Valor del descuento");
  await expect(value).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Un porcentaje va de 1 a 100.").first()).toBeVisible();
  await expectFieldsInLine(page);
  // On the phone the fields stack: one per row, none wider than the screen.
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("«Mis pedidos» on a phone: the order number, «Descargar PDF» named by its words, the header's tagline whole", async ({
  page,
  js,
  loginAs,
}) => {
  await loginAs(DEMO_CUSTOMER);
  await page.goto("/order/history");
  await ready(page, js);
  const order = page.getByRole("article").first();
  const number = order.locator(".order-number");
  await expect(number).toHaveText(/^Pedido nº [0-9A-F]{8}$/);
  expect((await number.boundingBox())!.height, "on one line").toBeLessThan(30);
  const download = order.getByRole("button", { name: /^Descargar PDF del cupón [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/ }).first();
  await expect(download).toHaveText("Descargar PDF");
  const box = (await download.boundingBox())!;
  expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  // Six icons leave no room for the tagline on an inner page: no words cut in half.
  const tagline = page.locator(".tagline");
  const clipped = await tagline.evaluate((el) =>
    [...el.querySelectorAll("span")].some((s) => s.getBoundingClientRect().width > el.clientWidth + 0.5),
  );
  expect(clipped).toBe(false);
  for (const icon of await page.locator(".header-actions").first().locator("a:visible, button:visible").all()) {
    const icon_ = (await icon.boundingBox())!;
    expect(icon_.x + icon_.width).toBeLessThanOrEqual(375);
  }
});

test("a sold-out card shows «Agotada» where the discount goes, clear of the heart, and is dimmed", async ({ page, js }) => {
  await page.goto("/ofertas/category/travel/");
  await ready(page, js);
  await chooseCookies(page, "Rechazar todo");
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const card = page.locator("article.card", { has: page.locator(".badge-soldout") }).first();
    await expect(card).toHaveClass(/is-sold-out/);
    const badge = (await card.locator(".badge-soldout").boundingBox())!;
    const heart = (await card.locator(".favorite-button").boundingBox())!;
    const overlap =
      badge.x < heart.x + heart.width &&
      heart.x < badge.x + badge.width &&
      badge.y < heart.y + heart.height &&
      heart.y < badge.y + badge.height;
    expect(overlap, `at ${width} px the badge is clear of the heart`).toBe(false);
    const media = (await card.locator(".card-media").boundingBox())!;
    expect(badge.x - media.x, "top left of the picture").toBeLessThan(20);
    await expect(card.locator(".card-media img")).toHaveCSS("filter", "grayscale(1)");
  }
});

test("every control on the main pages is at least 44 × 44 px", async ({ page, js, loginAs }) => {
  test.setTimeout(120_000);
  const offer = await roomyOffer(page);
  const problems: string[] = [];
  const visit = async (path: string) => {
    await page.goto(path);
    await ready(page, js);
    for (const small of await smallTargets(page)) problems.push(`${path}: ${small}`);
  };
  await visit("/");
  await chooseCookies(page, "Rechazar todo");
  for (const path of [
    "/",
    "/ofertas/",
    "/ofertas/category/restaurants/",
    `/ofertas/${offer.uuid}/`,
    "/buscar?q=paella",
    "/login",
    "/empresas",
    "/checkout/",
  ])
    await visit(path);
  await loginAs(DEMO_CUSTOMER);
  for (const path of ["/cuenta", "/order/history"]) await visit(path);
  await loginAs(DEMO_PARTNER);
  for (const path of ["/socios", "/socios/ofertas/", "/socios/codigos"]) await visit(path);
  expect(problems, problems.join("\n")).toEqual([]);
});

test("the consent banner: under 30 % of the screen, reached first by the keyboard, buttons stay put", async ({ page, js }) => {
  await page.goto("/ofertas/");
  await ready(page, js);
  const banner = page.getByRole("region", { name: "Tu privacidad" });
  await expect(banner).toBeVisible();
  expect((await banner.boundingBox())!.height).toBeLessThanOrEqual(0.3 * 812);
  expect(await smallTargets(page)).toEqual([]);

  // After the skip link, the banner's link and buttons come first.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(banner.getByRole("link", { name: "Política de cookies" })).toBeFocused();

  const buttons = [
    banner.getByText("Configurar", { exact: true }),
    banner.getByRole("button", { name: "Rechazar todo" }),
    banner.getByRole("button", { name: "Aceptar todo" }),
  ];
  const before = await Promise.all(buttons.map(async (b) => (await b.boundingBox())!));
  expect(new Set(before.map((b) => Math.round(b.y))).size, "one row").toBe(1);
  expect(before[0].x < before[1].x && before[1].x < before[2].x).toBe(true);
  await buttons[0].click();
  const analytics = banner.getByRole("switch", { name: "Analítica" });
  await expect(analytics).toBeVisible();
  const after = await Promise.all(buttons.map(async (b) => (await b.boundingBox())!));
  // The sheet grows upwards from the bottom: the row moves as one, in the same order, and the
  // switches open below it.
  expect(new Set(after.map((b) => Math.round(b.y))).size).toBe(1);
  after.forEach((b, i) => expect(Math.round(b.x)).toBe(Math.round(before[i].x)));
  expect((await analytics.boundingBox())!.y).toBeGreaterThan(after[1].y + after[1].height);
});
