// @vitest-environment node
import { afterAll, expect, it } from "vitest";

// The cookie modules read the environment once, so it is set before they are first imported.
const saved = {
  PUBLIC_URL: process.env.PUBLIC_URL,
  SESSION_SECRET: process.env.SESSION_SECRET,
  PAYMENT_PROVIDER: process.env.PAYMENT_PROVIDER,
  MAIL_TO_FILES: process.env.MAIL_TO_FILES,
};
process.env.PUBLIC_URL = "https://ofertas.es";
process.env.PAYMENT_PROVIDER = "sandbox";
process.env.MAIL_TO_FILES = "1";
process.env.SESSION_SECRET = "unit-test-secret-0123456789abcdef";
const { consentCookie, cookies } = await import("#app/state/cookies.server");

afterAll(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

it("the consent cookie follows the same Secure rule as the cart and session cookies", async () => {
  const consent = await consentCookie().serialize("x");
  const cart = await cookies().cart.serialize({ v: 1, i: [], p: [] });
  expect(cart).toMatch(/; Secure/);
  expect(consent).toMatch(/; Secure/);
  expect(consent).toMatch(/HttpOnly/);
  expect(consent).toMatch(/SameSite=Lax/);
});
