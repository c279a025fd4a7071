import { expectLoggedInAs } from "./support/auth";
import { acceptCookies, expect, ready, test, uniqueEmail } from "./support/fixtures";
import { E2E_INBOX, waitForMail } from "./support/mail";

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? "")?.[1] ?? "";

test("registration with activation: email and password → the code from the mail → logged in, back where the customer was", async ({
  page,
  js,
}) => {
  const email = uniqueEmail("registro");
  await page.goto("/login?redirectTo=%2Ffavorite");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("link", { name: "Crear una cuenta con contraseña" }).click();
  await expect(page.getByRole("heading", { name: "Crear una cuenta" })).toBeVisible();
  await ready(page, js);

  // Passwords that differ: the form says so and nothing is sent.
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill("una-clave-larga");
  await page.getByLabel("Repite la contraseña").fill("otra-clave-larga");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByText("Las contraseñas no coinciden.")).toBeVisible();
  await expect(page.getByLabel("Correo electrónico")).toHaveValue(email);

  await page.getByLabel("Contraseña", { exact: true }).fill("una-clave-larga");
  await page.getByLabel("Repite la contraseña").fill("una-clave-larga");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByRole("heading", { name: "Activa tu cuenta" })).toBeVisible();
  await expect(page.getByText(`Te hemos enviado un código de activación a ${email}`)).toBeVisible();

  const mail = await waitForMail(E2E_INBOX, email, { subject: /activar tu cuenta/ });
  const code = codeIn(mail.text);
  expect(code).toMatch(/^\d{6}$/);
  // The mail's link opens this very step; it names the address with a token, never in clear.
  expect(mail.html).toMatch(/\/login\/registro\?paso=activar&amp;t=[A-Za-z0-9_-]+"/);
  expect(mail.html).not.toContain(encodeURIComponent(email));

  await page.getByLabel("Código de 6 cifras").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Activar mi cuenta" }).click();
  await expect(page.getByText(/El código no es correcto/)).toBeVisible();
  await page.getByLabel("Código de 6 cifras").fill(code);
  await page.getByRole("button", { name: "Activar mi cuenta" }).click();
  await expect(page).toHaveURL(/\/favorite$/);
  await expectLoggedInAs(page, email);

  // The password works from now on.
  await page.context().clearCookies();
  const login = await page.request.post("/api/v0/auth/jwt/create/", { data: { email, password: "una-clave-larga" } });
  expect(login.status()).toBe(200);
});

/** The path and query of the mail's link to `path`. */
function mailLink(html: string, path: string): string {
  const href = new RegExp(`href="(https?://[^"]*${path}[^"]*)"`).exec(html)?.[1];
  if (!href) throw new Error(`sin enlace ${path} en el correo`);
  const url = new URL(href.replace(/&amp;/g, "&"));
  return `${url.pathname}${url.search}`;
}

test("the activation link from the mail works on another device (the link's token names the address)", async ({ page, browser, js }) => {
  const email = uniqueEmail("activar-enlace");
  const created = await page.request.post("/api/v0/auth/users/", {
    data: { email, password: "una-clave-larga", re_password: "una-clave-larga" },
  });
  expect(created.status()).toBe(201);
  const mail = await waitForMail(E2E_INBOX, email, { subject: /activar tu cuenta/ });
  const other = await browser.newContext({ javaScriptEnabled: js, baseURL: test.info().project.use.baseURL });
  const phone = await other.newPage();
  await phone.goto(mailLink(mail.html as string, "/login/registro"));
  await ready(phone, js);
  // The token leaves the address bar once read: the step is the same, the address comes with it.
  await expect(phone).toHaveURL(/\/login\/registro\?paso=activar(&redirectTo=[^&]*)?$/);
  await expect(phone.getByText(`Te hemos enviado un código de activación a ${email}`)).toBeVisible();
  await phone.getByLabel("Código de 6 cifras").fill(codeIn(mail.text));
  await phone.getByRole("button", { name: "Activar mi cuenta" }).click();
  await expectLoggedInAs(phone, email);
  // Whoever chose the password is not known to own the address: activated elsewhere, it is not kept.
  await expect(
    phone.getByText(/La contraseña solo se guarda si activas la cuenta en el navegador donde la elegiste/).first(),
  ).toBeAttached();
  expect((await phone.request.post("/api/v0/auth/jwt/create/", { data: { email, password: "una-clave-larga" } })).status()).toBe(401);
  await other.close();
});

test("registering an address that already has an account looks the same; its owner gets «Ya tienes una cuenta»", async ({
  page,
  js,
  newCustomer,
}) => {
  const owner = await newCustomer();
  await page.goto("/login/registro");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByLabel("Correo electrónico").fill(owner.email);
  await page.getByLabel("Contraseña", { exact: true }).fill("clave-de-otra-persona");
  await page.getByLabel("Repite la contraseña").fill("clave-de-otra-persona");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByRole("heading", { name: "Activa tu cuenta" })).toBeVisible();
  await expect(page.getByText(`Te hemos enviado un código de activación a ${owner.email}`)).toBeVisible();
  const notice = await waitForMail(E2E_INBOX, owner.email, { subject: /Ya tienes una cuenta/ });
  expect(notice.text).not.toMatch(/\b\d{6}\b/);
  // The account is as it was.
  expect((await page.request.post("/api/v0/auth/jwt/create/", { data: owner })).status()).toBe(200);
  expect(
    (await page.request.post("/api/v0/auth/jwt/create/", { data: { email: owner.email, password: "clave-de-otra-persona" } })).status(),
  ).toBe(401);
});

test("forgotten password: «¿Has olvidado tu contraseña?» → a code by mail → a new password → logged in", async ({ page, js }) => {
  const email = uniqueEmail("recuperar");
  const created = await page.request.post("/api/v0/auth/users/", {
    data: { email, password: "la-clave-vieja", re_password: "la-clave-vieja" },
  });
  expect(created.status()).toBe(201);

  await page.goto("/login?metodo=contrasena&redirectTo=%2Fcuenta");
  await ready(page, js);
  await acceptCookies(page);
  await page.getByRole("link", { name: "¿Has olvidado tu contraseña?" }).click();
  await expect(page.getByRole("heading", { name: "Recuperar la contraseña" })).toBeVisible();
  await ready(page, js);
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByRole("button", { name: "Enviar código" }).click();
  await expect(page.getByText(`Si ${email} tiene una cuenta, le hemos enviado un código.`)).toBeVisible();

  const mail = await waitForMail(E2E_INBOX, email, { subject: /cambiar la contraseña/ });
  const code = codeIn(mail.text);
  await page.getByLabel("Código de 6 cifras").fill(code);
  await page.getByLabel("Contraseña nueva", { exact: true }).fill("la-clave-nueva");
  await page.getByLabel("Repite la contraseña nueva").fill("la-clave-nueva");
  await page.getByRole("button", { name: "Cambiar la contraseña" }).click();
  await expect(page).toHaveURL(/\/cuenta$/);
  await expectLoggedInAs(page, email);
  await expect(page.getByText("Has cambiado tu contraseña y has iniciado sesión.")).toBeVisible();

  expect((await page.request.post("/api/v0/auth/jwt/create/", { data: { email, password: "la-clave-vieja" } })).status()).toBe(401);
  expect((await page.request.post("/api/v0/auth/jwt/create/", { data: { email, password: "la-clave-nueva" } })).status()).toBe(200);
});

test("the password-reset link from the mail opens the code step for that address on another device; a link from an older mail too", async ({
  page,
  browser,
  js,
}) => {
  const email = uniqueEmail("recuperar-enlace");
  const created = await page.request.post("/api/v0/auth/users/", {
    data: { email, password: "la-clave-vieja", re_password: "la-clave-vieja" },
  });
  expect(created.status()).toBe(201);
  expect((await page.request.post("/api/v0/auth/users/reset_password/", { data: { email } })).status()).toBeLessThan(300);
  const mail = await waitForMail(E2E_INBOX, email, { subject: /cambiar la contraseña/ });
  const link = mailLink(mail.html as string, "/login/recuperar");
  expect(link).toMatch(/^\/login\/recuperar\?paso=codigo&t=[A-Za-z0-9_-]+$/);
  for (const path of [link, `/login/recuperar?paso=codigo&email=${encodeURIComponent(email)}`]) {
    const other = await browser.newContext({ javaScriptEnabled: js, baseURL: test.info().project.use.baseURL });
    const phone = await other.newPage();
    await phone.goto(path);
    await ready(phone, js);
    await expect(phone).toHaveURL(/\/login\/recuperar\?paso=codigo$/);
    await expect(phone.getByText(`Si ${email} tiene una cuenta, le hemos enviado un código.`)).toBeVisible();
    await other.close();
  }
  // A token that does not open only loses the prefill: the step asks for the address.
  await page.goto("/login/recuperar?paso=codigo&t=AXNvbG8tdW4tZW5zYXlv");
  await expect(page).toHaveURL(/\/login\/recuperar\?paso=codigo$/);
  await expect(page.getByLabel("Correo electrónico")).toBeVisible();
});

test(
  "the public forms carry a honeypot: a bot that fills it (or leaves it out) is refused, a person is not",
  { tag: "@js-covers" },
  async ({ page, request }) => {
    await page.goto("/login");
    await expect(page.locator('input[name="name__confirm"]')).toBeHidden();
    await expect(page.locator('input[name="name__confirm"]')).toHaveValue("");
    const email = uniqueEmail("bot");
    const post = (path: string, form: Record<string, string>) =>
      request.post(path, { form, maxRedirects: 0, headers: { "Sec-Fetch-Site": "same-origin" } });
    for (const path of ["/login", "/login/registro", "/login/recuperar"]) {
      const filled = await post(path, { intent: "send-code", email, name__confirm: "http://spam.example" });
      expect(filled.status(), path).toBe(400);
      expect(await filled.text()).toContain("No hemos podido enviar el formulario");
      expect((await post(path, { intent: "send-code", email })).status(), path).toBe(400);
    }
    // The same request with the empty field goes through.
    expect((await post("/login", { intent: "send-code", email, name__confirm: "" })).status()).toBe(303);
  },
);
