import { DEMO_CUSTOMER, expectLoggedInAs, loginAs } from "./auth";
import { acceptCookies, expect, ready, test } from "./fixtures";

test("login with password → back where the customer was → logout", async ({ page, js }) => {
  await page.goto("/ofertas/");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("link", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fofertas%2F/);
  await ready(page, js);
  await page.getByRole("link", { name: "Entrar con contraseña" }).click();
  // The code step has an email field too: wait for the password step before typing.
  await expect(page).toHaveURL(/metodo=contrasena/);
  await expect(page.getByLabel("Contraseña", { exact: true })).toBeVisible();
  await page.getByLabel("Correo electrónico").fill(DEMO_CUSTOMER.email);
  await page.getByLabel("Contraseña", { exact: true }).fill("equivocada");
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(/El correo o la contraseña no son correctos/)).toBeVisible();

  await page.getByLabel("Contraseña", { exact: true }).fill(DEMO_CUSTOMER.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page).toHaveURL(/\/ofertas\/$/);
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
  await expect(page.getByText("Has iniciado sesión.").first()).toBeAttached();

  await ready(page, js);
  await page.getByRole("button", { name: "Salir" }).click();
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
  await expect(page).toHaveURL(/\/ofertas\/$/);
});

test("loginAs helper: the browser is logged in", async ({ page }) => {
  await loginAs(page);
  await page.goto("/");
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
});

test("an expired access token is renewed without the customer noticing", async ({ page }) => {
  // The E2E server issues access tokens of a few seconds (JWT_ACCESS_SECONDS in playwright.config.ts).
  await loginAs(page);
  const before = (await page.context().cookies()).find((c) => c.name === "__session")?.value;
  await page.waitForTimeout(4_500);
  await page.goto("/");
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
  const after = (await page.context().cookies()).find((c) => c.name === "__session")?.value;
  expect(after).not.toBe(before);
});
