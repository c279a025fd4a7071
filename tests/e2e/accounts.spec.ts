import { DEMO_CUSTOMER, expectLoggedInAs } from "./support/auth";
import { acceptCookies, expect, ready, test } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

test("login with password → back where the customer was → logout", async ({ page, js, browser }) => {
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
  // Whoever copied the cookie before the logout …
  const copied = await page.context().cookies();
  await page.getByRole("button", { name: "Salir" }).click();
  await expect(page.getByRole("link", { name: "Entrar" })).toBeVisible();
  await expect(page).toHaveURL(/\/ofertas\/$/);

  // … holds nothing after it: the session ended on the server, not only in this browser.
  const elsewhere = await browser.newContext({ javaScriptEnabled: js });
  await elsewhere.addCookies(copied);
  const thief = await elsewhere.newPage();
  await thief.goto("/cuenta");
  await expect(thief).toHaveURL(/\/login\?redirectTo=%2Fcuenta/);
  await expect(thief.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();
  await elsewhere.close();
});

test("after 10 wrong passwords the address logs in only by code; the owner is told, and a code login lifts it", async ({
  page,
  js,
  newCustomer,
}) => {
  const customer = await newCustomer();
  // From ten different connections: the limit is the address's, not the connection's.
  for (let i = 0; i < 10; i++) {
    await page.request.post("/api/v0/auth/jwt/create/", {
      data: { email: customer.email, password: `adivinanza-${i}` },
      headers: { "X-Forwarded-For": `10.77.${i}.1` },
    });
  }
  await page.goto("/login?metodo=contrasena");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(/solo puede entrar con un código/)).toBeVisible();
  await waitForMail(E2E_INBOX, customer.email, { subject: /Hemos protegido tu cuenta/ });

  await page.getByRole("link", { name: "Entrar con un código por correo" }).click();
  // The password step has an email field too: wait for the code step before typing.
  await expect(page.getByRole("button", { name: "Enviar código" })).toBeVisible();
  await ready(page, js);
  await page.getByLabel("Correo electrónico").fill(customer.email);
  await page.getByRole("button", { name: "Enviar código" }).click();
  const mail = await waitForMail(E2E_INBOX, customer.email, { subject: /código para entrar/ });
  await page.getByLabel("Código de 6 cifras").fill(/\b(\d{6})\b/.exec(mail.text ?? "")?.[1] ?? "");
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expectLoggedInAs(page, customer.email);
  expect((await page.request.post("/api/v0/auth/jwt/create/", { data: customer })).status()).toBe(200);
});

test("loginAs helper: the browser is logged in", { tag: "@js-covers" }, async ({ page, loginAs }) => {
  await loginAs();
  await page.goto("/");
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
});

test("an expired access token is renewed without the customer noticing", { tag: "@js-covers" }, async ({ page, loginAs }) => {
  // The E2E server issues access tokens of a few seconds (JWT_ACCESS_SECONDS in playwright.config.ts).
  await loginAs();
  const before = (await page.context().cookies()).find((c) => c.name === "__session")?.value;
  await page.waitForTimeout(4_500);
  await page.goto("/");
  await expectLoggedInAs(page, DEMO_CUSTOMER.email);
  const after = (await page.context().cookies()).find((c) => c.name === "__session")?.value;
  expect(after).not.toBe(before);
});
