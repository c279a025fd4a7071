import { expect, type Page } from "@playwright/test";
import { DEMO_CUSTOMER, DEMO_STAFF } from "#api/db/demo-accounts";
import { ready } from "./fixtures";
import { E2E_INBOX, waitForMail } from "./mail";

export { DEMO_CUSTOMER, DEMO_STAFF };
export type Credentials = { email: string; password: string };

/**
 * Logs the test browser in as a user with a password (the demo accounts, or one a test created),
 * through the storefront's real /login action: the session cookie lands in the page's context,
 * so the next page.goto is logged in, with JavaScript on or off.
 *
 *   await loginAs(page, DEMO_STAFF);
 */
export async function loginAs(page: Page, user: Credentials = DEMO_CUSTOMER) {
  const response = await page.request.post("/login", {
    // name__confirm: the empty honeypot every public form carries (app/components/honeypot.tsx).
    form: { intent: "password", email: user.email, password: user.password, redirectTo: "/", name__confirm: "" },
    maxRedirects: 0,
  });
  expect(response.status(), `login as ${user.email}`).toBe(303);
}

/**
 * Logs in through the password form, as a person does (the browser's own User-Agent names the
 * session's device), and waits to be back at `redirectTo`.
 */
export async function loginWithForm(page: Page, js: boolean, user: Credentials, redirectTo: string) {
  await page.goto(`/login?${new URLSearchParams({ metodo: "contrasena", redirectTo })}`);
  await ready(page, js);
  await page.getByLabel("Correo electrónico").fill(user.email);
  await page.getByLabel("Contraseña", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe(redirectTo);
}

/** The header of a logged-in page shows who it is. */
export async function expectLoggedInAs(page: Page, email: string) {
  await expect(page.getByRole("link", { name: `Mi cuenta (sesión iniciada como ${email})` })).toBeAttached();
}

let seq = 0;

/**
 * A fresh, active customer with a password, so tests that change an account (cart, favourites,
 * purchases) never share one. Made through the API as a real client would: registration, then
 * activation with the code from the mail and the registration's ticket (which keeps the password).
 */
export async function newCustomer(page: Page): Promise<Credentials> {
  const email = `cliente-${process.pid}-${Date.now()}-${++seq}@example.es`;
  const password = "clave-de-prueba-1";
  // Each customer from an address of its own, as real people are: the per-connection limit on
  // account mails would otherwise count every test's registrations against one loopback address.
  const from = `10.${100 + (process.pid % 100)}.${Math.floor(seq / 250)}.${(seq % 250) + 1}`;
  const created = await page.request.post("/api/v0/auth/users/", {
    data: { email, password, re_password: password },
    headers: { "X-Forwarded-For": from },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { registration_token } = (await created.json()) as { registration_token: string };
  const mail = await waitForMail(E2E_INBOX, email, { subject: /activar tu cuenta/ });
  const code = /\b(\d{6})\b/.exec(mail.text ?? "")?.[1];
  const activated = await page.request.post("/api/v0/auth/users/activation/", { data: { email, token: code, registration_token } });
  expect(activated.status(), await activated.text()).toBe(200);
  // Activation logs in; this helper only makes the account, so it leaves no session behind.
  const { refresh } = (await activated.json()) as { refresh: string };
  expect((await page.request.post("/api/v0/auth/jwt/logout/", { data: { refresh } })).status()).toBe(204);
  return { email, password };
}
