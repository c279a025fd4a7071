import type { Browser, Page } from "@playwright/test";
import { expectLoggedInAs, loginWithForm, type Credentials } from "./support/auth";
import { acceptCookies, expect, ready, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? "")?.[1] ?? "";

const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** Another device of the same person, logged in through the login form like a person would. */
async function otherDevice(browser: Browser, js: boolean, customer: Credentials, userAgent?: string) {
  const context = await browser.newContext({ javaScriptEnabled: js, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await loginWithForm(page, js, customer, "/cuenta");
  return { page, context };
}

/** That device's session is over: its next visit to /cuenta asks it to log in. */
async function expectLoggedOut(device: { page: Page }) {
  await device.page.goto("/cuenta");
  await expect(device.page).toHaveURL(/\/login\?redirectTo=%2Fcuenta/);
}

test("/cuenta: change the password, subscribe (with the box ticked on purpose) and unsubscribe, log out", async ({
  page,
  js,
  browser,
  newCustomer,
  loginAs,
}) => {
  const customer = await newCustomer();
  const laptop = await otherDevice(browser, js, customer);
  await loginAs(customer);
  await page.goto("/cuenta");
  await ready(page, js);
  await acceptCookies(page);

  const password = page.getByRole("region", { name: "Contraseña" });
  await password.getByText("Cambiar la contraseña").click();
  await password.getByLabel("Contraseña actual").fill("no-es-esta");
  await password.getByLabel("Contraseña nueva", { exact: true }).fill("clave-cambiada-1");
  await password.getByLabel("Repite la contraseña nueva").fill("clave-cambiada-1");
  await password.getByRole("button", { name: "Guardar la contraseña" }).click();
  await expect(page.getByText("La contraseña actual no es correcta.")).toBeVisible();
  await page.getByRole("region", { name: "Contraseña" }).getByLabel("Contraseña actual").fill(customer.password);
  await page.getByRole("region", { name: "Contraseña" }).getByLabel("Contraseña nueva", { exact: true }).fill("clave-cambiada-1");
  await page.getByRole("region", { name: "Contraseña" }).getByLabel("Repite la contraseña nueva").fill("clave-cambiada-1");
  await page.getByRole("region", { name: "Contraseña" }).getByRole("button", { name: "Guardar la contraseña" }).click();
  await expect(page.getByText("Hemos guardado tu contraseña.", { exact: false }).first()).toBeAttached();
  expect(
    (await page.request.post("/api/v0/auth/jwt/create/", { data: { email: customer.email, password: "clave-cambiada-1" } })).status(),
  ).toBe(200);
  // A new password ends every other session; this browser carries on.
  await expectLoggedOut(laptop);
  await laptop.context.close();
  await expect(page.getByRole("region", { name: "Dispositivos con sesión abierta" }).getByTestId("device-session")).toHaveCount(1);

  const mail = page.getByRole("region", { name: "Ofertas por correo" });
  await expect(mail.getByText("No recibes nuestras ofertas por correo.")).toBeVisible();
  await expect(mail.getByLabel(/Quiero recibir ofertas por correo/)).not.toBeChecked();
  if (!js) {
    // Without the box ticked the server refuses (with JavaScript the browser does not even send it).
    await mail.getByRole("button", { name: "Suscribirme" }).click();
    await expect(page.getByText("Marca la casilla para recibir nuestras ofertas por correo.")).toBeVisible();
  }
  await page
    .getByRole("region", { name: "Ofertas por correo" })
    .getByLabel(/Quiero recibir ofertas por correo/)
    .check();
  await page.getByRole("region", { name: "Ofertas por correo" }).getByRole("button", { name: "Suscribirme" }).click();
  await expect(page.getByRole("region", { name: "Ofertas por correo" }).getByText("Recibes nuestras ofertas por correo.")).toBeVisible();
  await page.getByRole("region", { name: "Ofertas por correo" }).getByRole("button", { name: "Darme de baja" }).click();
  await expect(page.getByRole("region", { name: "Ofertas por correo" }).getByText("No recibes nuestras ofertas por correo.")).toBeVisible();

  await ready(page, js);
  await page.getByRole("main").getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
});

test("/cuenta: a code-only account creates a password; the email changes by a code sent to the new address", async ({ page, js }) => {
  const email = uniqueEmail("solo-codigo");
  await page.goto("/login?redirectTo=%2Fcuenta");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await page.getByLabel("Código de 6 cifras").fill(codeIn((await waitForMail(E2E_INBOX, email, { subject: /código para entrar/ })).text));
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await ready(page, js);

  // No password yet: «Crear contraseña», without asking for a current one.
  const password = page.getByRole("region", { name: "Contraseña" });
  await password.getByText("Crear contraseña", { exact: true }).first().click();
  await expect(password.getByLabel("Contraseña actual")).toHaveCount(0);
  await password.getByLabel("Contraseña nueva", { exact: true }).fill("mi-primera-clave");
  await password.getByLabel("Repite la contraseña nueva").fill("mi-primera-clave");
  await password.getByRole("button", { name: "Crear contraseña" }).click();
  await expect(page.getByText("Hemos guardado tu contraseña.").first()).toBeAttached();
  expect((await page.request.post("/api/v0/auth/jwt/create/", { data: { email, password: "mi-primera-clave" } })).status()).toBe(200);

  const next = uniqueEmail("correo-nuevo");
  const section = page.getByRole("region", { name: "Correo electrónico" });
  await section.getByText("Cambiar el correo").click();
  await section.getByLabel("Correo nuevo").fill(next);
  await section.getByLabel("Tu contraseña actual").fill("mi-primera-clave");
  await section.getByRole("button", { name: "Enviar código" }).click();
  await expect(page.getByText(`Te hemos enviado un código a ${next}`)).toBeVisible();
  const code = codeIn((await waitForMail(E2E_INBOX, next, { subject: /confirmar tu nuevo correo/ })).text);
  await page.getByLabel("Código de 6 cifras").fill(code);
  await page.getByRole("button", { name: "Confirmar el nuevo correo" }).click();
  await expect(page.getByTestId("account-email")).toHaveText(next);
  // Still logged in, now as the new address.
  await expectLoggedInAs(page, next);
});

test("«Eliminar mi cuenta» asks first; confirmed, the account is gone and the browser logged out", async ({
  page,
  js,
  newCustomer,
  loginAs,
}) => {
  const customer = await newCustomer();
  await loginAs(customer);
  await page.goto("/cuenta");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("link", { name: "Eliminar mi cuenta" }).click();
  await expect(page.getByText(/¿Seguro\?/)).toBeVisible();
  // Cancelling keeps everything.
  await page.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByText(/¿Seguro\?/)).toHaveCount(0);
  await page.getByRole("link", { name: "Eliminar mi cuenta" }).click();

  await page.getByLabel("Tu contraseña, para confirmar").fill("equivocada");
  await page.getByRole("button", { name: "Sí, eliminar mi cuenta" }).click();
  await expect(page.getByText("La contraseña actual no es correcta.")).toBeVisible();
  await page.getByLabel("Tu contraseña, para confirmar").fill(customer.password);
  await page.getByRole("button", { name: "Sí, eliminar mi cuenta" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Hemos eliminado tu cuenta.", { exact: false }).first()).toBeAttached();
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
  expect(
    (await page.request.post("/api/v0/auth/jwt/create/", { data: { email: customer.email, password: customer.password } })).status(),
  ).toBe(401);
});

test("«Dispositivos con sesión abierta»: end the phone's session, then every session but this one", async ({
  page,
  js,
  browser,
  newCustomer,
  loginAs,
}) => {
  const customer = await newCustomer();
  const phone = await otherDevice(browser, js, customer, PHONE);
  await loginAs(customer);
  await page.goto("/cuenta");
  await ready(page, js);
  await acceptCookies(page);
  const devices = page.getByRole("region", { name: "Dispositivos con sesión abierta" });
  await expect(devices.getByTestId("device-session")).toHaveCount(2);
  await expect(devices.getByTestId("device-session").filter({ hasText: "Este dispositivo" })).toHaveCount(1);
  await expect(devices.getByText("Chrome en Android")).toBeVisible();
  await expect(devices.getByText(/Última actividad: \d/).first()).toBeVisible();

  await devices.getByRole("button", { name: /^Cerrar la sesión de Chrome en Android/ }).click();
  await expect(page.getByText("Hemos cerrado esa sesión.").first()).toBeAttached();
  await expect(devices.getByTestId("device-session")).toHaveCount(1);
  await expect(devices.getByText("No tienes la sesión abierta en ningún otro dispositivo.")).toBeVisible();
  await expectLoggedOut(phone);
  await phone.context.close();

  // Two more devices, then «Cerrar las demás sesiones»: they are logged out, this one is not.
  const others = [await otherDevice(browser, js, customer), await otherDevice(browser, js, customer)];
  await page.goto("/cuenta");
  await ready(page, js);
  await expect(devices.getByTestId("device-session")).toHaveCount(3);
  await devices.getByRole("button", { name: "Cerrar las demás sesiones" }).click();
  await expect(page.getByText("Hemos cerrado la sesión en los demás dispositivos.").first()).toBeAttached();
  await expect(devices.getByTestId("device-session")).toHaveCount(1);
  for (const other of others) {
    await expectLoggedOut(other);
    await other.context.close();
  }
  await page.goto("/order/history");
  await expect(page.getByRole("heading", { name: "Mis pedidos", level: 1 })).toBeVisible();
});
