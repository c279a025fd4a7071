import type { Page } from "@playwright/test";
import { DEMO_PARTNER } from "#api/db/demo-accounts";
import { DEFERRED_TYPE } from "#app/document/defer-scripts.server";
import { DEMO_CUSTOMER, DEMO_STAFF } from "./support/auth";
import { check, test, VIEWPORTS, type Problem } from "./support/axe";
import { expect, openRoomyOffer, ready, roomyOffer, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

/** Pages with a bundle are checked once hydrated; reading pages and the widget ship none. */
async function visit(page: Page, js: boolean, path: string, problems: Problem[], helper: () => Promise<Page>, name = path) {
  await page.goto(path);
  if (js && (await page.locator(BUNDLE_SCRIPTS).count())) await ready(page, js);
  await check(page, js, name, problems, helper);
}

const PAGES = [
  "/",
  "/ofertas/",
  "/ofertas/category/restaurants/",
  "/ofertas/category/restaurants/?region=Barcelona",
  "offer",
  "/buscar",
  "/buscar?q=paella",
  "/favorite",
  "/contacts",
  "/agreement",
  "/marketing-agreement",
  "/privacy-policy",
  "/cookie-policy",
  "/login",
  "/login?metodo=contrasena",
  "/login/registro",
  "/login/recuperar",
  "/empresas",
  "/feedback?rate=5",
  "/unsubscribe?email=nadie%40example.es&sig=mala",
  "/no-existe/de-verdad",
  "/iframe/",
  "/iframe/?region=Madrid&category=restaurants",
  "/iframe/routes",
];

/**
 * Reading pages and the widget ship no JavaScript (handle.noScripts): a
 * visitor gets the same document with JavaScript on or off, so it is checked once, in the "js"
 * project, which also makes sure it still ships none.
 */
const WITHOUT_BUNDLE = new Set([
  "/contacts",
  "/agreement",
  "/marketing-agreement",
  "/privacy-policy",
  "/cookie-policy",
  "/iframe/",
  "/iframe/?region=Madrid&category=restaurants",
]);
const BUNDLE_SCRIPTS = `script[type=module], script[type="${DEFERRED_TYPE}"]`;

// One test per page, so the pages are checked in parallel; each loads once per viewport.
for (const path of PAGES) {
  test(`${path}: no axe violations at 375 and 1280, no sideways scroll`, async ({ page, js, helper }) => {
    test.skip(!js && WITHOUT_BUNDLE.has(path), "ships no JavaScript: checked once, with the same document, in the js project");
    test.setTimeout(120_000);
    const problems: Problem[] = [];
    const target = path === "offer" ? `/ofertas/${(await roomyOffer(page)).uuid}/` : path;
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await visit(page, js, target, problems, helper, `${path} at ${viewport.width}`);
      if (WITHOUT_BUNDLE.has(path)) expect(await page.locator(BUNDLE_SCRIPTS).count(), `${path} ships no JavaScript`).toBe(0);
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });
}

// What a customer, a partner and the staff see once logged in.
const ACCOUNT_PAGES = [
  { user: DEMO_CUSTOMER, paths: ["/cuenta", "/order/history", "/favorite"] },
  {
    user: DEMO_PARTNER,
    paths: ["/socios", "/socios/ofertas/", "/socios/ofertas/nueva", "/socios/ventas", "/socios/codigos", "/socios/equipo"],
  },
  {
    user: DEMO_STAFF,
    paths: ["/admin", "/admin/codigos", "/admin/organizaciones", "/admin/usuarios", "/admin/reembolsos", "/admin/solicitudes"],
  },
];
for (const { user, paths } of ACCOUNT_PAGES) {
  test(`logged in as ${user.email}: ${paths.join(", ")} have no axe violations and no sideways scroll`, async ({
    page,
    js,
    helper,
    loginAs,
  }) => {
    test.setTimeout(180_000);
    await loginAs(user);
    const problems: Problem[] = [];
    for (const path of paths) {
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        await visit(page, js, path, problems, helper, `${path} at ${viewport.width}`);
      }
    }
    expect(problems, problems.join("\n")).toEqual([]);
  });
}

test("login by code, its second step (the code field) and a wrong code have no axe violations", async ({ page, js, helper }) => {
  test.setTimeout(120_000);
  const problems: Problem[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.context().clearCookies();
    await page.goto("/login");
    await ready(page, js);
    await page.getByLabel("Correo electrónico").fill(uniqueEmail("axe-codigo"));
    await page.getByRole("button", { name: "Enviar código" }).click();
    await expect(page.getByText("Te hemos enviado un código")).toBeVisible();
    await check(page, js, `/login code step at ${viewport.width}`, problems, helper);
    await page.getByLabel("Código de 6 cifras").fill("000000");
    await page.getByRole("button", { name: "Entrar", exact: true }).click();
    await expect(page.getByText(/El código no es correcto/)).toBeVisible();
    await check(page, js, `/login wrong code at ${viewport.width}`, problems, helper);
  }
  expect(problems, problems.join("\n")).toEqual([]);
});

test("the search dialog has no axe violations, open and with results", async ({ page, js, helper }) => {
  test.skip(!js, "without JS, search is the /buscar page");
  test.setTimeout(120_000);
  const problems: Problem[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto("/");
    await ready(page, js);
    await page.getByRole("link", { name: "Buscar" }).click();
    const dialog = page.getByRole("dialog", { name: "Buscar ofertas" });
    await expect(dialog).toBeVisible();
    await check(page, js, `search dialog at ${viewport.width}`, problems, helper);
    await dialog.getByRole("searchbox").fill("paella");
    await expect(dialog.getByRole("link", { name: /Paella/ }).first()).toBeVisible();
    await check(page, js, `search dialog with results at ${viewport.width}`, problems, helper);
  }
  expect(problems, problems.join("\n")).toEqual([]);
});

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport });

    test("cart, checkout, payment and success have no axe violations and no sideways scroll", async ({ page, js, helper }) => {
      test.setTimeout(180_000);
      const problems: Problem[] = [];
      const offer = await openRoomyOffer(page, js);
      await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
      // The sticky bar on phones repeats the button: either one adds.
      await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
      await expect(page.getByText("Añadido al carrito.").first()).toBeVisible();
      await check(page, js, "offer after adding", problems, helper);

      const cart = page.getByRole("link", { name: /^Carrito/ });
      if (js) {
        // An add opens the panel by itself.
        await expect(page.getByRole("heading", { name: "Tu carrito" })).toBeVisible();
        await check(page, js, "cart panel open", problems, helper);
        await page.locator("#cart-panel").getByRole("link", { name: "Ir a pagar" }).click();
        await expect(page).toHaveURL(/\/checkout\/$/);
        await ready(page, js);
      } else {
        await cart.click();
        await expect(page).toHaveURL(/\/checkout\/$/);
      }
      await check(page, js, "/checkout/ with items", problems, helper);

      await page.getByLabel("Correo electrónico").fill("no-es-un-correo");
      await page.locator("form#checkout").evaluate((f) => f.setAttribute("novalidate", ""));
      await page.getByRole("button", { name: "Continuar" }).click();
      await expect(page.getByText("Escribe un correo electrónico válido, por ejemplo nombre@correo.es.").first()).toBeVisible();
      await check(page, js, "/checkout/ with errors", problems, helper);

      const email = uniqueEmail("axe");
      await page.getByLabel("Correo electrónico").fill(email);
      await page.getByLabel(/He leído y acepto/).check();
      await page.getByRole("button", { name: "Continuar" }).click();
      await expect(page).toHaveURL(/\/order\/$/);
      await ready(page, js);
      await check(page, js, "/order/", problems, helper);

      await page.getByRole("button", { name: "Pagar" }).click();
      await expect(page.getByRole("heading", { name: "Pasarela de pago de pruebas" })).toBeVisible();
      await check(page, js, "sandbox payment page", problems, helper);
      // Its own icon, so the browser does not ask for a /favicon.ico that is not there.
      await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
      // Its inline style applies: the API's policy allows nothing, and this page states its own.
      await expect(page.getByRole("button", { name: "Pagar" })).toHaveCSS("background-color", "rgb(15, 118, 110)");
      await page.getByRole("button", { name: "Pagar" }).click();
      await expect(page.getByRole("heading", { name: "¡Gracias por tu compra!" })).toBeVisible();
      await ready(page, js);
      await check(page, js, "/order/success", problems, helper);

      // The confirmation mail's signed link to the coupons.
      const mail = await waitForMail(E2E_INBOX, email, { subject: /Tus cupones/ });
      const link = /href="https?:\/\/[^"]*(\/order\/coupons\?[^"]+)"/.exec(mail.html as string);
      expect(link, "a coupons link in the mail").not.toBeNull();
      await page.goto(link![1].replace(/&amp;/g, "&"));
      await expect(page.getByRole("heading", { name: "Tus cupones", level: 1 })).toBeVisible();
      await ready(page, js);
      await check(page, js, "/order/coupons", problems, helper);
      expect(problems, problems.join("\n")).toEqual([]);
    });
  });
}
