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
    form: { email: user.email, password: user.password, redirectTo: "/" },
    maxRedirects: 0,
  });
  expect(response.status(), `login as ${user.email}`).toBe(303);
}

/** The header of a logged-in page shows who it is. */
export async function expectLoggedInAs(page: Page, email: string) {
  await expect(page.getByText(`Sesión iniciada como ${email}`)).toBeAttached();
}
