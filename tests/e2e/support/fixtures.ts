import { expect, test as base, type Cookie, type Page } from "@playwright/test";
import { DEMO_CUSTOMER, DEMO_STAFF } from "#api/db/demo-accounts";
import { E2E_INBOX, waitForMail } from "./mail";

export type OfferSummary = {
  uuid: string;
  title: string;
  region: string;
  price_options: {
    uuid: string;
    title: string;
    actual_price: string;
    regular_price: string;
    available: number;
    per_customer: number | null;
  }[];
  rating?: { average: number; count: number } | null;
};

export type Credentials = { email: string; password: string };

let seq = 0;

export const test = base.extend<{
  js: boolean;
  loginAs: (user?: Credentials, on?: Page) => Promise<void>;
  newCustomer: () => Promise<Credentials>;
}>({
  js: async ({ javaScriptEnabled }, use) => {
    await use(javaScriptEnabled !== false);
  },

  /**
   * `await loginAs(DEMO_STAFF)` logs the test's page in (another page: `loginAs(user, page)`)
   * through the storefront's real /login action: the session cookie lands in the page's context,
   * so the next page.goto is logged in, with JavaScript on or off.
   *
   * When the test ends, every session it opened is closed through /logout, as «Cerrar sesión»
   * does, even when the page has gone or another login replaced it in the cookie: the demo
   * accounts would otherwise pile up open sessions, run after run. Logout with the cookie of the
   * moment of login ends the whole session, token refreshes since included.
   */
  loginAs: async ({ page, playwright }, use) => {
    const opened: { origin: string; cookies: Cookie[] }[] = [];
    await use(async (user = DEMO_CUSTOMER, on = page) => {
      const response = await on.request.post("/login", {
        // name__confirm: the empty honeypot every public form carries (app/components/honeypot.tsx).
        form: { intent: "password", email: user.email, password: user.password, redirectTo: "/", name__confirm: "" },
        maxRedirects: 0,
      });
      expect(response.status(), `login as ${user.email}`).toBe(303);
      const origin = new URL(response.url()).origin;
      opened.push({ origin, cookies: await on.context().cookies(origin) });
    });
    for (const { origin, cookies } of opened) {
      const browserOfThen = await playwright.request.newContext({ baseURL: origin, storageState: { cookies, origins: [] } });
      try {
        const loggedOut = await browserOfThen.post("/logout", { form: { redirectTo: "/" }, maxRedirects: 0 });
        expect(loggedOut.status(), "logout").toBe(303);
      } finally {
        await browserOfThen.dispose();
      }
    }
  },

  /**
   * `await newCustomer()`: a fresh, active customer with a password, so tests that change an
   * account (cart, favourites, purchases, sessions, teams) never share one; call it again for
   * another. Made through the API as a real client would: registration, then activation with the
   * code from the mail and the registration's ticket (which keeps the password).
   *
   * When the test ends, staff erase each account it made, as «Borrar» in /admin/usuarios does:
   * its sessions, memberships and subscriptions go with it and its orders keep no address, so
   * the shop's lists (users, a partner's team, the digest's subscribers) do not grow with every
   * run. One the test erased itself is already gone.
   */
  newCustomer: async ({ request }, use) => {
    const made: string[] = [];
    await use(async () => {
      const email = `cliente-${process.pid}-${Date.now()}-${++seq}@example.es`;
      const password = "clave-de-prueba-1";
      // Each customer from an address of its own, as real people are: the per-connection limit on
      // account mails would otherwise count every test's registrations against one loopback address.
      const from = `10.${100 + (process.pid % 100)}.${Math.floor(seq / 250)}.${(seq % 250) + 1}`;
      const created = await request.post("/api/v0/auth/users/", {
        data: { email, password, re_password: password },
        headers: { "X-Forwarded-For": from },
      });
      expect(created.status(), await created.text()).toBe(201);
      const { id, registration_token } = (await created.json()) as { id: string; registration_token: string };
      made.push(id);
      const mail = await waitForMail(E2E_INBOX, email, { subject: /activar tu cuenta/ });
      const code = /\b(\d{6})\b/.exec(mail.text ?? "")?.[1];
      const activated = await request.post("/api/v0/auth/users/activation/", { data: { email, token: code, registration_token } });
      expect(activated.status(), await activated.text()).toBe(200);
      // Activation logs in; the account is only made here, so it leaves no session behind.
      const { refresh } = (await activated.json()) as { refresh: string };
      expect((await request.post("/api/v0/auth/jwt/logout/", { data: { refresh } })).status()).toBe(204);
      return { email, password };
    });
    if (!made.length) return;
    const staff = await request.post("/api/v0/auth/jwt/create/", { data: { email: DEMO_STAFF.email, password: DEMO_STAFF.password } });
    expect(staff.status(), await staff.text()).toBe(200);
    const tokens = (await staff.json()) as { access: string; refresh: string };
    try {
      for (const id of made) {
        const erased = await request.delete(`/api/v0/users/${id}/`, { headers: { Authorization: `JWT ${tokens.access}` } });
        expect([204, 404], `erase customer ${id}: ${await erased.text()}`).toContain(erased.status());
      }
    } finally {
      await request.post("/api/v0/auth/jwt/logout/", { data: { refresh: tokens.refresh } });
    }
  },
});
export { expect };

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.es`;
}

/** An offer whose first option has plenty of stock and no tight per-customer limit. */
export async function roomyOffer(page: Page, search?: string): Promise<OfferSummary> {
  const response = await page.request.get(`/api/v0/public/offers/?page_size=100${search ? `&search=${encodeURIComponent(search)}` : ""}`);
  const { results } = (await response.json()) as { results: OfferSummary[] };
  const offer = results.find((o) => o.price_options[0].available >= 100 && (o.price_options[0].per_customer ?? 99) >= 3);
  if (!offer) throw new Error("no roomy offer in the demo catalogue");
  return offer;
}

/** The page has loaded; with JS, React has hydrated too (the layout then marks <html class="js">). */
export async function ready(page: Page, js: boolean) {
  // The stylesheet first: until it has loaded, parts the CSS hides (the phones' buy bar) count as
  // visible, and a form post's new page can be read before it has.
  await page.waitForLoadState("load");
  if (js) await expect(page.locator("html.js")).toHaveCount(1);
}

/**
 * Consent first, so the banner never covers what a test clicks. A choice reloads the page (the
 * consented tools start only from a fresh document): wait for the new document to load, then with
 * JS for its hydration. Waiting only for the banner to go passed on the old page, and the next click
 * landed there and was lost to the reload (seen in CI: «Entrar» clicked, the offer page reloaded).
 */
export async function chooseCookies(page: Page, choice: "Aceptar todo" | "Rechazar todo") {
  const banner = page.getByRole("region", { name: "Tu privacidad" });
  if (await banner.isVisible()) {
    const js = (await page.locator("html.js").count()) > 0;
    const reloaded = page.waitForEvent("load");
    await banner.getByRole("button", { name: choice }).click();
    await reloaded;
    await expect(banner).toBeHidden();
    await ready(page, js);
  }
}

export const acceptCookies = (page: Page) => chooseCookies(page, "Aceptar todo");

/**
 * With JS the cart opens a dropdown with «Ir a pagar» (already open right after an add); without JS
 * the cart is a link to /checkout. Either way the page's title is Spanish.
 */
export async function openCheckout(page: Page, js: boolean) {
  const cart = page.getByRole("link", { name: /^Carrito/ });
  if (!js || !(await page.locator("#cart-panel").isVisible())) await cart.click();
  if (js) {
    await expect(page.getByRole("heading", { name: "Tu carrito" })).toBeVisible();
    await page.locator("#cart-panel").getByRole("link", { name: "Ir a pagar" }).click();
  }
  await expect(page).toHaveURL(/\/checkout\/?$/);
  await expect(page).toHaveTitle("Tu carrito | ofertas");
  await ready(page, js);
}

/** The offer's page, ready (hydrated with JS) and with the cookie choice made. */
export async function openOffer(page: Page, js: boolean, offer: OfferSummary) {
  await page.goto(`/ofertas/${offer.uuid}/`);
  await ready(page, js);
  await acceptCookies(page);
}

/** A roomy offer's page (roomyOffer), opened as openOffer does; answers the offer. */
export async function openRoomyOffer(page: Page, js: boolean): Promise<OfferSummary> {
  const offer = await roomyOffer(page);
  await openOffer(page, js, offer);
  return offer;
}

/** Adds tickets of the offer's first option from its page, with JS or without. */
export async function addToCart(page: Page, js: boolean, offer: OfferSummary, tickets: number) {
  await openOffer(page, js, offer);
  await page.locator(`input[type=radio][value="${offer.price_options[0].uuid}"]`).check();
  await page.getByRole("spinbutton", { name: "Entradas" }).fill(String(tickets));
  // On a phone the sticky bar repeats the button: the box's comes first.
  await page.getByRole("button", { name: "Añadir al carrito" }).first().click();
  await expect(page.getByText("Añadido al carrito.")).toBeVisible();
  // With JS the cart panel opens, «Ir a pagar» focused; without JS the page comes back at the box.
  if (js) await expect(page).toHaveURL(new RegExp(`/ofertas/${offer.uuid}/$`));
  if (js) await expect(page.locator("#cart-panel").getByRole("link", { name: "Ir a pagar" })).toBeFocused();
  await expect(page.getByRole("link", { name: /^Carrito/ }).locator(".count-badge")).toHaveText(String(tickets));
}

/** Email, agreement, "Continuar": lands on the payment step. */
export async function fillCheckout(page: Page, email: string) {
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel(/He leído y acepto/).check();
  await page.getByRole("button", { name: "Continuar" }).click();
  await expect(page).toHaveURL(/\/order\/$/);
  await expect(page.getByRole("heading", { name: "Revisa y paga" })).toBeVisible();
  await expect(page).toHaveTitle("Revisa y paga | ofertas");
}
