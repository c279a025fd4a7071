import { pdfText } from "#tests/support/pdf";
import { DEMO_CUSTOMER, expectLoggedInAs, loginWithForm } from "./support/auth";
import {
  acceptCookies,
  addToCart,
  expect,
  fillCheckout,
  openCheckout,
  ready,
  roomyOffer,
  test,
  type OfferSummary,
} from "./support/fixtures";

async function offers(page: import("@playwright/test").Page): Promise<OfferSummary[]> {
  const response = await page.request.get("/api/v0/public/offers/?page_size=40");
  return ((await response.json()) as { results: OfferSummary[] }).results;
}

/** With JavaScript the heart flips before the server answers: wait for the answer before leaving the page. */
async function clickHeart(page: import("@playwright/test").Page, name: string) {
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/favorite"));
  await page.getByRole("button", { name }).click();
  await answered;
}

test("two favourites as a guest → login → /favorite shows both, synced to the account", async ({ page, js }, info) => {
  // Each project takes its own offers: both log in as the demo customer at the same time.
  const all = await offers(page);
  const picked = info.project.name === "js" ? all.slice(20, 22) : all.slice(22, 24);
  for (const offer of picked) {
    await page.goto(`/ofertas/${offer.uuid}/`);
    await ready(page, js);
    await acceptCookies(page);
    await clickHeart(page, `Guardar «${offer.title}» en favoritos`);
    await expect(page.getByRole("button", { name: `Quitar «${offer.title}» de favoritos` })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: /^Favoritos, \d+/ })).toHaveAccessibleName("Favoritos, 2");
  await page.goto("/favorite");
  for (const offer of picked) await expect(page.getByRole("heading", { name: offer.title })).toBeVisible();

  await loginWithForm(page, js, DEMO_CUSTOMER, "/favorite");
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
  for (const offer of picked) await expect(page.getByRole("heading", { name: offer.title })).toBeVisible();

  await page.goto(`/ofertas/${picked[0].uuid}/`);
  await expect(page.getByRole("button", { name: `Quitar «${picked[0].title}» de favoritos` })).toBeVisible();
  // Unfavourite one on the account: the heart and the list follow.
  await ready(page, js);
  await clickHeart(page, `Quitar «${picked[0].title}» de favoritos`);
  await expect(page.getByRole("button", { name: `Guardar «${picked[0].title}» en favoritos` })).toBeVisible();
  await page.goto("/favorite");
  await expect(page.getByRole("heading", { name: picked[1].title })).toBeVisible();
  await expect(page.getByRole("heading", { name: picked[0].title })).toHaveCount(0);
});

test("a purchase while logged in → /order/history shows it → its coupon PDF downloads", async ({ page, js, newCustomer, loginAs }) => {
  test.setTimeout(90_000);
  const customer = await newCustomer();
  await loginAs(customer);
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  // The account's email is already there.
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(customer.email);
  await fillCheckout(page, customer.email);
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
  await page.getByRole("button", { name: "Pagar" }).click();
  await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
  const [code] = await page.getByTestId("coupon-code").allTextContents();

  await page.goto("/order/history");
  await ready(page, js);
  await expect(page.getByRole("heading", { name: "Mis pedidos" })).toBeVisible();
  const row = page.locator(".coupon-row", { hasText: code.trim() });
  await expect(row).toContainText("Válido");
  // Newest first: the purchase just made is the first one on the page.
  await expect(page.getByTestId("history-coupon-code").first()).toHaveText(code.trim());
  // The order's number as the mail and the PDF write it.
  const order = page.getByRole("article").first();
  await expect(order.locator(".order-number")).toHaveText(/^Pedido nº [0-9A-F]{8}$/);
  const number = (await order.locator(".order-number").textContent())!.replace("Pedido nº ", "");

  // The visible words are in the button's name (voice control: «pulsa Descargar PDF»).
  const downloading = page.waitForEvent("download");
  await row.getByRole("button", { name: `Descargar PDF del cupón ${code.trim()}` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`cupon-${code.trim()}.pdf`);
  const { readFile } = await import("node:fs/promises");
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  const text = await pdfText(pdf);
  expect(text).toContain(`Pedido nº ${number}`);
  expect(text).toMatch(/Cupón 1 de 1/);

  // One star group, each star a 44 px target on a phone, and «Valorar» sends the chosen one.
  await page.setViewportSize({ width: 375, height: 812 });
  const stars = order.getByRole("group", { name: /^Tu valoración de «/ }).first();
  await expect(stars.getByRole("radio")).toHaveCount(5);
  for (const star of await stars.locator("label").all()) {
    const box = (await star.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
  }
  const tops = await stars.locator("label").evaluateAll((labels) => new Set(labels.map((l) => l.getBoundingClientRect().top)).size);
  expect(tops, "the five stars on one line").toBe(1);
  await stars.locator("label").nth(3).click();
  await expect(stars.getByRole("radio", { name: "4 estrellas" })).toBeChecked();
  await order.getByRole("button", { name: "Valorar" }).first().click();
  await expect(page).toHaveURL(/\/feedback\?rate=4&offer=/);
});

test("logout on the payment step lands on /checkout", async ({ page, js, newCustomer, loginAs }) => {
  const customer = await newCustomer();
  await loginAs(customer);
  const offer = await roomyOffer(page);
  await addToCart(page, js, offer, 1);
  await openCheckout(page, js);
  await fillCheckout(page, customer.email);
  await ready(page, js);
  await page.getByRole("button", { name: "Salir" }).click();
  await expect(page).toHaveURL(/\/checkout\/?$/);
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
  if (js) {
    // The payment step's history entry was replaced (spec section 4): «Atrás» does not return to it.
    await page.goBack();
    await expect(page).not.toHaveURL(/\/order\/?$/);
  }
});

test("/order/history when anonymous redirects to the main page", { tag: "@js-covers" }, async ({ page }) => {
  await page.goto("/order/history");
  await expect(page).toHaveURL(/\/$/);
});

test(
  "the demo customer's history lists the seeded purchase; /cuenta shows the account",
  { tag: "@js-covers" },
  async ({ page, loginAs }) => {
    await loginAs();
    await page.goto("/order/history");
    await expect(page.getByTestId("history-coupon-code").first()).toBeVisible();
    await page.goto("/cuenta");
    await expect(page.getByRole("heading", { name: "Mi cuenta", exact: true })).toBeVisible();
    await expect(page.getByRole("main").getByText(DEMO_CUSTOMER.email, { exact: true })).toBeVisible();
  },
);

test("with JavaScript the purchases list is kept a minute under ORDER_HISTORY; a page load starts afresh", async ({
  page,
  js,
  loginAs,
}) => {
  test.skip(!js, "without JavaScript every page is a fresh server page: nothing is cached in the browser");
  await loginAs();
  const asked: string[] = [];
  page.on("request", (r) => {
    // Single fetch asks a route with a clientLoader on its own (?_routes=routes/order.history).
    const url = new URL(r.url());
    if (url.pathname === "/order/history.data" && url.searchParams.get("_routes")?.includes("order.history")) asked.push(r.url());
  });
  const toHistory = async () => {
    await page.getByRole("main").getByRole("link", { name: "Mis pedidos" }).click();
    await expect(page.getByRole("heading", { name: "Mis pedidos", level: 1 })).toBeVisible();
    await expect(page.getByTestId("history-coupon-code").first()).toBeVisible();
  };
  await page.goto("/cuenta");
  await ready(page, js);
  await toHistory();
  expect(asked).toHaveLength(1);
  // Away and back within the minute: the list comes from memory.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Mi cuenta", exact: true })).toBeVisible();
  await toHistory();
  expect(asked).toHaveLength(1);
  // A reload starts empty (every payment comes back through one); the unit test covers the
  // rule that any submitted form empties it (tests/unit/query-cache.test.ts).
  await page.reload();
  await ready(page, js);
  await page.goBack();
  await toHistory();
  expect(asked).toHaveLength(2);
});
