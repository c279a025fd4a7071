import { expect, type Page } from "@playwright/test";
import { DEMO_CUSTOMER, DEMO_STAFF } from "#api/db/demo-accounts";
import { ready, type Credentials } from "./fixtures";

// Logging in as one of these, or as a fresh customer: the `loginAs` and `newCustomer` fixtures of
// fixtures.ts's `test`, which log out what they logged in and erase what they made.
export { DEMO_CUSTOMER, DEMO_STAFF };
export type { Credentials };

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
