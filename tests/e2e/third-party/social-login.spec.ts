/**
 * «Continuar con Google / Apple / Facebook» end to end, on the third-party server (its client ids
 * are in playwright.config.ts). The providers' consent pages are page.route stand-ins: they show
 * what the real ones do after the person picks an account — a way back to our callback with a
 * code, or with an error when they cancel (Apple: a form that posts back, its form_post). The
 * code they hand out is redeemed by the server at the providers' token endpoints, which msw
 * answers inside that server (server-with-social-mocks.ts), checking the PKCE verifier, the
 * redirect_uri and our secrets; the API then checks the ID token's signature, issuer, audience,
 * expiry and nonce against the mocked key sets, or Facebook's token with the mocked Graph API.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import type { BrowserContext, Page } from "@playwright/test";
import { THIRD_PARTY_ENV, THIRD_PARTY_URL } from "../../../playwright.config";
import { FUZZ_SEED, hostileText, problemWith, queryString } from "#tests/support/fuzz";
import { mockAuthorizationCode } from "#tests/mocks/social";
import { expectLoggedInAs } from "../support/auth";
import { check, test, VIEWPORTS, type Problem } from "../support/axe";
import { chooseCookies, expect, ready, roomyOffer, uniqueEmail } from "../support/fixtures";
import { mockVendors } from "./mock-vendors";

type Provider = "google" | "apple" | "facebook";
const NAMES: Record<Provider, string> = { google: "Google", apple: "Apple", facebook: "Facebook" };
const CLIENT_IDS: Record<Provider, string> = {
  google: THIRD_PARTY_ENV.GOOGLE_CLIENT_ID,
  apple: THIRD_PARTY_ENV.APPLE_CLIENT_ID,
  facebook: THIRD_PARTY_ENV.FACEBOOK_APP_ID,
};
const AUTHORIZE: Record<Provider, RegExp> = {
  google: /^https:\/\/accounts\.google\.com\/o\/oauth2\/v2\/auth\?/,
  apple: /^https:\/\/appleid\.apple\.com\/auth\/authorize\?/,
  facebook: /^https:\/\/www\.facebook\.com\/v[\d.]+\/dialog\/oauth\?/,
};

/**
 * Who consents on the next consent page, whether the provider's token endpoint is down then, and
 * a nonce to put in the ID token instead of the one the authorization request carried.
 */
type Consent = { email: string; outage?: boolean; nonce?: string };
let consent: Consent;
/** Every authorization request the browser made, as the provider received it. */
let authorizations: URL[];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

async function mockConsentPages(context: BrowserContext) {
  await mockVendors(context);
  // Our /login/social/{provider} answers a 302 to the provider's host. The headless shell sends a
  // redirect's next request out to DNS, never to context.route: the browser gets that very answer
  // (its cookies and Location) as a page that goes on to the Location, a request of its own.
  await context.route(
    (url) => /^\/login\/social\/\w+$/.test(url.pathname),
    async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const location = response.headers()["location"] ?? "";
      if (response.status() !== 302 || !Object.values(AUTHORIZE).some((to) => to.test(location))) return route.fulfill({ response });
      const cookies = response.headersArray().filter(({ name }) => name.toLowerCase() === "set-cookie");
      await route.fulfill({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8", "set-cookie": cookies.map(({ value }) => value).join("\n") },
        body: `<!doctype html><meta http-equiv="refresh" content="0;url=${esc(location)}">`,
      });
    },
  );
  for (const provider of Object.keys(AUTHORIZE) as Provider[]) {
    await context.route(AUTHORIZE[provider], async (route) => {
      const url = new URL(route.request().url());
      authorizations.push(url);
      const q = url.searchParams;
      const back = q.get("redirect_uri")!;
      const code = mockAuthorizationCode({
        email: consent.email,
        givenName: "Lucía",
        nonce: consent.nonce ?? q.get("nonce") ?? undefined,
        codeChallenge: q.get("code_challenge")!,
        redirectUri: back,
        outage: consent.outage,
      });
      const state = q.get("state") ?? "";
      let body: string;
      if (q.get("response_mode") === "form_post") {
        const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${esc(value)}">`;
        body =
          `<form method="post" action="${esc(back)}">${field("code", code)}${field("state", state)}` +
          `${field("user", JSON.stringify({ name: { firstName: "Lucía", lastName: "Martín" }, email: consent.email }))}<button>Continuar</button></form>` +
          `<form method="post" action="${esc(back)}">${field("error", "user_cancelled_authorize")}${field("state", state)}<button>Cancelar</button></form>`;
      } else {
        body =
          `<a href="${esc(`${back}?${new URLSearchParams({ code, state })}`)}">Continuar</a> ` +
          `<a href="${esc(`${back}?${new URLSearchParams({ error: "access_denied", error_description: "Permissions error", state })}`)}">Cancelar</a>`;
      }
      await route.fulfill({
        status: 200,
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="es"><title>${provider}</title><main>${body}</main></html>`,
      });
    });
  }
}

test.beforeEach(async ({ context }) => {
  authorizations = [];
  consent = { email: uniqueEmail("social") };
  await mockConsentPages(context);
});

/** From an offer page to /login through the header, then the provider's button. */
async function startAt(page: Page, js: boolean, provider: Provider) {
  const offer = await roomyOffer(page);
  const start = `/ofertas/${offer.uuid}/`;
  await page.goto(start);
  await ready(page, js);
  await chooseCookies(page, "Rechazar todo");
  await page.getByRole("link", { name: "Entrar", exact: true }).click();
  await expect(page).toHaveURL(/\/login\?redirectTo=/);
  await ready(page, js);
  await page.getByRole("link", { name: `Continuar con ${NAMES[provider]}` }).click();
  await expect(page).toHaveURL(AUTHORIZE[provider]);
  return start;
}

for (const js of [true, false]) {
  test.describe(js ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: js });

    for (const provider of ["google", "apple", "facebook"] as Provider[]) {
      test(`«Continuar con ${NAMES[provider]}» logs in and comes back to the page where the customer started`, async ({ page }) => {
        const start = await startAt(page, js, provider);
        // The authorization request: our client id, PKCE S256, a state, a nonce for OpenID
        // Connect, and the callback on this server's public origin.
        const asked = authorizations[0].searchParams;
        expect(asked.get("client_id")).toBe(CLIENT_IDS[provider]);
        expect(asked.get("response_type")).toBe("code");
        expect(asked.get("code_challenge_method")).toBe("S256");
        expect(asked.get("code_challenge")).toMatch(/^[\w-]{43}$/);
        expect(asked.get("state")).toMatch(/^[\w-]{43}$/);
        expect(asked.get("redirect_uri")).toBe(`${THIRD_PARTY_URL}/login/social/${provider}/callback`);
        if (provider !== "facebook") expect(asked.get("nonce")).toMatch(/^[\w-]{43}$/);
        if (provider === "apple") expect(asked.get("response_mode")).toBe("form_post");

        await page
          .getByRole("button", { name: "Continuar" })
          .or(page.getByRole("link", { name: "Continuar" }))
          .click();
        await expect(page).toHaveURL(new RegExp(`${start}$`));
        await expectLoggedInAs(page, consent.email);
        await expect(page.getByText("Has iniciado sesión.").first()).toBeAttached();
      });
    }

    test("cancelling at the provider comes back to /login with a clear message, not logged in", async ({ page }) => {
      await startAt(page, js, "apple");
      await page.getByRole("button", { name: "Cancelar" }).click();
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fofertas%2F/);
      await expect(page.getByText("Has cancelado el inicio de sesión con Apple.", { exact: false }).first()).toBeAttached();
      await expect(page.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();

      await page.goto("/login");
      await ready(page, js);
      await page.getByRole("link", { name: "Continuar con Google" }).click();
      await page.getByRole("link", { name: "Cancelar" }).click();
      await expect(page.getByText("Has cancelado el inicio de sesión con Google.", { exact: false }).first()).toBeAttached();
    });

    test("a callback whose state is not the one this browser started with is refused with a message", async ({ page }) => {
      await startAt(page, js, "google");
      const state = authorizations[0].searchParams.get("state")!;
      const code = mockAuthorizationCode({ email: consent.email, codeChallenge: "x", redirectUri: "x" });
      // An attacker's link carrying their own code and a state of their own making.
      const response = await page.goto(
        `/login/social/google/callback?code=${code}&state=${state.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
      );
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fofertas%2F/);
      await expect(page.getByText(/El inicio de sesión con Google ha caducado o no viene de esta web/).first()).toBeAttached();
      await expect(page.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();
      // The state is single-use: the right one, replayed after that, is refused too.
      await page.goto(`/login/social/google/callback?code=${code}&state=${state}`);
      await expect(page.getByText(/ha caducado o no viene de esta web/).first()).toBeAttached();
      await expect(page.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();
    });

    test("an ID token minted for another login (not our nonce) is refused with a message, not logged in", async ({ page }) => {
      consent.nonce = "the-nonce-of-an-earlier-login";
      await startAt(page, js, "google");
      await page.getByRole("link", { name: "Continuar" }).click();
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fofertas%2F/);
      await expect(page.getByText(/Google no ha confirmado tu identidad/).first()).toBeAttached();
      await expect(page.getByRole("link", { name: "Entrar", exact: true })).toBeVisible();
    });

    test("/login with the three buttons, and with a social login's error message, has no axe violations at 375 and 1280", async ({
      page,
      helper,
    }) => {
      test.setTimeout(120_000);
      const problems: Problem[] = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const path of ["/login", "/login?metodo=contrasena"]) {
          await page.goto(path);
          await ready(page, js);
          await expect(page.getByRole("link", { name: /^Continuar con / })).toHaveCount(3);
          await check(page, js, `${path} at ${viewport.width}`, problems, helper);
        }
        await page.getByRole("link", { name: "Continuar con Google" }).click();
        await page.getByRole("link", { name: "Cancelar" }).click();
        await expect(page.getByText(/Has cancelado el inicio de sesión con Google/).first()).toBeAttached();
        await check(page, js, `/login after a cancelled login at ${viewport.width}`, problems, helper);
      }
      expect(problems, problems.join("\n")).toEqual([]);
    });

    test("the provider's token endpoint being down is a clear message on /login, never a 500", async ({ page }) => {
      consent.outage = true;
      await startAt(page, js, "facebook");
      await page.getByRole("link", { name: "Continuar" }).click();
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await expect(page.getByText(/No hemos podido comprobar tu cuenta con Facebook ahora mismo/).first()).toBeAttached();
    });
  });
}

test("the buttons are only where the provider is configured: the shop without client ids shows none and answers 404", async ({ page }) => {
  const plain = `http://localhost:${Number(new URL(THIRD_PARTY_URL).port) - 1}`;
  await page.goto(`${plain}/login`);
  await expect(page.getByRole("heading", { name: "Entrar", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /Continuar con/ })).toHaveCount(0);
  for (const provider of ["google", "apple", "facebook"]) {
    expect((await page.request.get(`${plain}/login/social/${provider}`, { maxRedirects: 0 })).status()).toBe(404);
    expect((await page.request.post(`${plain}/api/v0/auth/jwt/${provider}/`, { data: { id_token: "x".repeat(40) } })).status()).toBe(404);
  }
  await page.goto("/login");
  await expect(page.getByRole("link", { name: /Continuar con/ })).toHaveCount(3);
});

test("the PKCE verifier never reaches the browser: no cookie holds a value whose S256 is the code_challenge", async ({ page, context }) => {
  await startAt(page, true, "google"); // this project runs with JavaScript: wait for hydration before clicking, as the others do
  const challenge = authorizations[0].searchParams.get("code_challenge")!;
  const cookies = await context.cookies();
  expect(cookies.map((c) => c.name)).toContain("__session");
  const seen: string[] = [];
  for (const { value } of cookies) {
    // A Remix cookie is base64(JSON) + "." + signature, URL-encoded.
    const raw = decodeURIComponent(value);
    const decoded = Buffer.from(raw.includes(".") ? raw.slice(0, raw.lastIndexOf(".")) : raw, "base64").toString("utf8");
    for (const text of [raw, decoded]) seen.push(...(text.match(/[\w-]{43,128}/g) ?? []));
  }
  // The state is in the session cookie (it must be, to be checked); the verifier is not.
  expect(seen).toContain(authorizations[0].searchParams.get("state"));
  expect(seen.filter((s) => createHash("sha256").update(s).digest("base64url") === challenge)).toEqual([]);
});

test("after logging in the customer lands only on a path of this shop, whatever redirectTo said", async ({ page }) => {
  for (const target of ["//evil.example/robar", "https://evil.example/robar", "/\\evil.example"]) {
    await page.context().clearCookies();
    consent = { email: uniqueEmail("social-redirect") };
    // A crafted link to the start of the flow (the /login page itself would already have cleaned it).
    await page.goto("/login");
    const button = page.getByRole("link", { name: "Continuar con Facebook" });
    await button.evaluate(
      (a, href) => a.setAttribute("href", href),
      `/login/social/facebook?${new URLSearchParams({ redirectTo: target })}`,
    );
    await button.click();
    await expect(page).toHaveURL(AUTHORIZE.facebook);
    await page.getByRole("link", { name: "Continuar" }).click();
    await expect(page).toHaveURL(`${THIRD_PARTY_URL}/`);
    await expectLoggedInAs(page, consent.email);
  }
});

test("hostile callbacks (any query, Apple's POST with any body, with or without a flow under way) never answer a 5xx", async ({ page }) => {
  test.setTimeout(180_000);
  /** Starts a flow in this browser's cookie jar, as the button would, and returns its state. */
  const begin = async (provider: Provider) => {
    const location = (await page.request.get(`/login/social/${provider}`, { maxRedirects: 0 })).headers().location ?? "";
    return new URL(location).searchParams.get("state") ?? "";
  };
  const code = mockAuthorizationCode({ email: uniqueEmail("fuzz"), codeChallenge: "x", redirectUri: "x" });
  const value = fc.oneof(fc.constantFrom("STATE", "", code, "access_denied", "user_cancelled_authorize", "{}"), hostileText());
  const pairs = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom("code", "state", "error", "user", "first_name", "last_name"), hostileText()), value),
    { maxLength: 5 },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom<Provider>("google", "apple", "facebook"),
      fc.boolean(),
      fc.boolean(),
      pairs,
      async (provider, started, post, fields) => {
        // With a flow under way, "STATE" is its real state: the checks after the state's are reached.
        const state = started ? await begin(provider) : "STATE";
        const body = queryString(fields.map(([k, v]) => [k, v === "STATE" ? state : v]));
        const path = `/login/social/${provider}/callback`;
        const response = post
          ? await page.request.post(path, {
              headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
              data: body,
              maxRedirects: 0,
            })
          : await page.request.get(`${path}?${body}`, { maxRedirects: 0 });
        const problem = problemWith(response.status(), await response.text());
        if (problem) throw new Error(`${post ? "POST" : "GET"} ${path} ${body.slice(0, 200)}\n→ ${problem}`);
      },
    ),
    { seed: FUZZ_SEED, numRuns: 150 },
  );
});
