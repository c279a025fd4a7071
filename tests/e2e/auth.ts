import { expect, type Page } from "@playwright/test";
import { DEMO_CUSTOMER, DEMO_STAFF } from "#api/db/demo-accounts";

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

/** The header of a logged-in page shows who it is. */
export async function expectLoggedInAs(page: Page, email: string) {
  await expect(page.getByRole("link", { name: `Mi cuenta (sesión iniciada como ${email})` })).toBeAttached();
}

let seq = 0;

/**
 * A fresh, active customer with a password, so tests that change an account (cart, favourites,
 * purchases) never share one. Made through the API as a real client would: registration, then
 * the demo staff user activates it (staff may; the activation mail is for people).
 */
export async function newCustomer(page: Page): Promise<Credentials> {
  const email = `cliente-${process.pid}-${Date.now()}-${++seq}@example.es`;
  const password = "clave-de-prueba-1";
  const created = await page.request.post("/api/v0/auth/users/", { data: { email, password, re_password: password } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const staff = (await (await page.request.post("/api/v0/auth/jwt/create/", { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } })).json()) as { access: string };
  const activated = await page.request.patch(`/api/v0/auth/users/${id}/`, { data: { is_active: true }, headers: { Authorization: `JWT ${staff.access}` } });
  expect(activated.status()).toBe(200);
  return { email, password };
}
