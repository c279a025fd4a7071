import { expectLoggedInAs } from "./support/auth";
import { acceptCookies, expect, ready, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test("login by code: email → «Te hemos enviado un código» → the code from the mail → back where the customer was", async ({ page, js }) => {
  const email = uniqueEmail("codigo");
  await page.goto("/favorite");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("link", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Ffavorite/);
  await ready(page, js);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await expect(page.getByText("Te hemos enviado un código")).toBeVisible();

  const mail = await waitForMail(E2E_INBOX, email, { subject: /código para entrar/ });
  const code = /\b(\d{6})\b/.exec(mail.text ?? "")?.[1];
  expect(code).toMatch(/^\d{6}$/);

  // A wrong code first: the form says so and keeps the customer on the step.
  await page.getByLabel("Código de 6 cifras").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(/El código no es correcto. Te quedan 4 intentos./)).toBeVisible();

  await page.getByLabel("Código de 6 cifras").fill(code!);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page).toHaveURL(/\/favorite$/);
  await expectLoggedInAs(page, email);
});

test("an unsafe redirectTo after login goes home instead of to another site", { tag: "@js-covers" }, async ({ page }) => {
  await page.goto("/login?metodo=contrasena&redirectTo=%2F%2Fevil.example");
  await expect(page.locator('#login-password input[name="redirectTo"]')).toHaveValue("/");
});
