import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "#platform/config.server";
import { enabledSocialProviders, SOCIAL_MESSAGES } from "#rules/social";
import { sales, users } from "#api/db/schema";
import { hashPassword } from "#api/auth/passwords";
import { createSocialMockState, facebookToken, signIdToken, socialHandlers, type SocialMockState } from "#tests/mocks/social";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, makeOption, newEmail } from "./_helpers";

// Only Google, Apple and Facebook are mocked; our own API on 127.0.0.1 is reached for real.
const server = setupServer();
let api: TestApi;
let providers: SocialMockState;

const SOCIAL_ENV = {
  GOOGLE_CLIENT_ID: "google-client-test",
  GOOGLE_CLIENT_SECRET: "google-secret-test",
  APPLE_CLIENT_ID: "es.ofertas.web",
  APPLE_CLIENT_SECRET: "apple-client-secret-jwt",
  FACEBOOK_APP_ID: "1234567890",
  FACEBOOK_APP_SECRET: "facebook-secret-test",
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: (req, print) => (new URL(req.url).hostname === "127.0.0.1" ? undefined : print.error()) });
  providers = await createSocialMockState();
  api = await startTestApi({ env: SOCIAL_ENV });
});
afterAll(async () => {
  server.close();
  await api.close();
});
beforeEach(() => {
  server.resetHandlers();
  providers.down = false;
  server.use(...socialHandlers(providers));
});

const userBy = async (email: string) => (await api.db.select().from(users).where(eq(users.email, email)))[0];
const session = (access: string) => call(api, "/customer/session/", { headers: { Authorization: `JWT ${access}` } });
const hour = 3600;
const now = () => Math.floor(Date.now() / 1000);

// First in the file: jose keeps a fetched key set (and waits 30 s before fetching it again), so
// the outage is seen only before any test has fetched the keys.
describe("a provider that cannot be reached", () => {
  for (const provider of ["google", "apple"] as const) {
    it(`${provider}: its key set unreachable is a 503 with a Spanish message, not a 500 and no account`, async () => {
      const email = newEmail(provider);
      const idToken = await signIdToken(providers, provider, { email });
      providers.down = true;
      const res = await call(api, `/auth/jwt/${provider}/`, { body: { id_token: idToken } });
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe(SOCIAL_MESSAGES.unavailable(provider));
      expect(await userBy(email)).toBeUndefined();
    });
  }
});

describe("POST /auth/jwt/google/ and /apple/: ID tokens checked against the provider's keys", () => {
  for (const provider of ["google", "apple"] as const) {
    it(`${provider}: a valid ID token logs in, creating an active customer with a proven email`, async () => {
      const email = newEmail(provider);
      const idToken = await signIdToken(providers, provider, { email, given_name: "Lucía", family_name: "Martín", nonce: "n-123" });
      const res = await call(api, `/auth/jwt/${provider}/`, { body: { id_token: idToken, nonce: "n-123" } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(["access", "refresh"]);
      expect((await session(res.body.access)).body.user).toMatchObject({ email, role: "customer" });
      const user = await userBy(email);
      expect(user.isActive).toBe(true);
      expect(user.emailVerifiedAt).not.toBeNull();
      expect(user.passwordHash).toBeNull();
      if (provider === "google") expect([user.firstName, user.lastName]).toEqual(["Lucía", "Martín"]);
      // The pair is our usual one: the refresh token rotates like any other.
      expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: res.body.refresh } })).status).toBe(200);
    });

    const spoiled: [string, (email: string) => Promise<string>][] = [
      [
        "another audience (a token for some other app)",
        (email) => signIdToken(providers, provider, { email, aud: "someone-elses-client-id" }),
      ],
      ["another issuer", (email) => signIdToken(providers, provider, { email, iss: "https://evil.example" })],
      ["an expired token", (email) => signIdToken(providers, provider, { email, iat: now() - 3 * hour, exp: now() - 2 * hour })],
      [
        "a key the provider never published",
        async (email) => {
          const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
          return signIdToken(
            providers,
            provider,
            { email },
            { keys: { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: providers[provider].keys.jwk.kid } } },
          );
        },
      ],
      [
        "HS256 signed with the public key (algorithm confusion)",
        (email) =>
          new SignJWT({
            email,
            email_verified: true,
            iss: provider === "google" ? "https://accounts.google.com" : "https://appleid.apple.com",
            aud: providers[provider].clientId,
            sub: "x",
          })
            .setProtectedHeader({ alg: "HS256", kid: providers[provider].keys.jwk.kid })
            .setIssuedAt()
            .setExpirationTime("1h")
            .sign(new TextEncoder().encode(JSON.stringify(providers[provider].keys.jwk))),
      ],
      [
        "a tampered payload",
        async (email) => {
          const [h, , s] = (await signIdToken(providers, provider, { email })).split(".");
          return [
            h,
            Buffer.from(JSON.stringify({ email: "victima@correo.es", aud: providers[provider].clientId })).toString("base64url"),
            s,
          ].join(".");
        },
      ],
    ];
    for (const [what, make] of spoiled) {
      it(`${provider}: ${what} is refused with a Spanish 401 and no account`, async () => {
        const email = newEmail(`${provider}-mal`);
        const res = await call(api, `/auth/jwt/${provider}/`, { body: { id_token: await make(email) } });
        expect(res.status).toBe(401);
        expect(res.body.detail).toBe(SOCIAL_MESSAGES.invalidToken(provider));
        expect(await userBy(email)).toBeUndefined();
      });
    }

    it(`${provider}: the nonce of our authorization request must match`, async () => {
      const email = newEmail(provider);
      const idToken = await signIdToken(providers, provider, { email, nonce: "the-real-one" });
      expect((await call(api, `/auth/jwt/${provider}/`, { body: { id_token: idToken, nonce: "another" } })).status).toBe(401);
      expect(await userBy(email)).toBeUndefined();
    });

    it(`${provider}: an address the provider has not confirmed is refused (400)`, async () => {
      const email = newEmail(provider);
      const idToken = await signIdToken(providers, provider, { email, email_verified: provider === "apple" ? "false" : false });
      const res = await call(api, `/auth/jwt/${provider}/`, { body: { id_token: idToken } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(SOCIAL_MESSAGES.noEmail(provider));
    });
  }

  it("apple: the name sent beside the token (Apple gives it once) fills an empty profile", async () => {
    const email = newEmail("apple-nombre");
    const idToken = await signIdToken(providers, "apple", { email });
    expect((await call(api, "/auth/jwt/apple/", { body: { id_token: idToken, first_name: "Pablo", last_name: "Ruiz" } })).status).toBe(200);
    expect([(await userBy(email)).firstName, (await userBy(email)).lastName]).toEqual(["Pablo", "Ruiz"]);
  });

  it("an existing account with that email is the one logged into, and its guest purchases join it", async () => {
    const email = newEmail("invitado-social");
    const option = await makeOption(api, { available: 5 });
    const { purchase } = await buy(api, [{ option }], email);
    const res = await call(api, "/auth/jwt/google/", { body: { id_token: await signIdToken(providers, "google", { email }) } });
    expect(res.status).toBe(200);
    const user = await userBy(email);
    const [sale] = await api.db.select().from(sales).where(eq(sales.id, purchase.sale_id));
    expect(sale.userId).toBe(user.id);
    const again = await call(api, "/auth/jwt/apple/", {
      body: { id_token: await signIdToken(providers, "apple", { email: email.toUpperCase() }) },
    });
    expect((await session(again.body.access)).body.user.email).toBe(email);
    expect((await api.db.select().from(users).where(eq(users.email, email))).length).toBe(1);
  });

  it("a registration never activated is activated, and the password its unproven registrant chose stops working", async () => {
    const email = newEmail("prehijack");
    await api.db.insert(users).values({ email, passwordHash: await hashPassword("clave-del-intruso-123"), isActive: false });
    expect((await call(api, "/auth/jwt/google/", { body: { id_token: await signIdToken(providers, "google", { email }) } })).status).toBe(
      200,
    );
    const user = await userBy(email);
    expect(user.isActive).toBe(true);
    expect(user.passwordHash).toBeNull();
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "clave-del-intruso-123" } })).status).toBe(401);
  });

  it("bad bodies are a Spanish 400", async () => {
    expect((await call(api, "/auth/jwt/google/", { body: {} })).status).toBe(400);
    expect((await call(api, "/auth/jwt/facebook/", { body: { id_token: "x".repeat(20) } })).status).toBe(400);
  });
});

describe("POST /auth/jwt/facebook/: the token checked with the Graph API", () => {
  it("a token issued to our app logs in with the email /me gives", async () => {
    const email = newEmail("facebook");
    const token = facebookToken(providers, { email, firstName: "Marta" });
    providers.calls.length = 0;
    const res = await call(api, "/auth/jwt/facebook/", { body: { access_token: token } });
    expect(res.status).toBe(200);
    expect((await session(res.body.access)).body.user.email).toBe(email);
    expect((await userBy(email)).firstName).toBe("Marta");
    // debug_token was asked with our app token, then /me with appsecret_proof (the mock checks both).
    expect(providers.calls.map((c) => new URL(c.url).pathname)).toEqual(["/v21.0/debug_token", "/v21.0/me"]);
  });

  it("a valid token for another app is refused (401) and /me is never asked", async () => {
    const email = newEmail("facebook-otra-app");
    providers.calls.length = 0;
    const res = await call(api, "/auth/jwt/facebook/", { body: { access_token: facebookToken(providers, { email, appId: "999999" }) } });
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe(SOCIAL_MESSAGES.invalidToken("facebook"));
    expect(providers.calls.map((c) => new URL(c.url).pathname)).toEqual(["/v21.0/debug_token"]);
    expect(await userBy(email)).toBeUndefined();
  });

  it("an unknown or expired token is refused (401)", async () => {
    expect((await call(api, "/auth/jwt/facebook/", { body: { access_token: "EAAnotatoken0123" } })).status).toBe(401);
    const expired = facebookToken(providers, { email: newEmail(), expiresAt: now() - hour });
    expect((await call(api, "/auth/jwt/facebook/", { body: { access_token: expired } })).status).toBe(401);
  });

  it("a person who did not share an email gets a Spanish 400", async () => {
    const res = await call(api, "/auth/jwt/facebook/", { body: { access_token: facebookToken(providers, {}) } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(SOCIAL_MESSAGES.noEmail("facebook"));
  });

  it("the Graph API being down is a 503 with a Spanish message", async () => {
    const token = facebookToken(providers, { email: newEmail() });
    providers.down = true;
    const res = await call(api, "/auth/jwt/facebook/", { body: { access_token: token } });
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe(SOCIAL_MESSAGES.unavailable("facebook"));
  });
});

describe("a provider is enabled only when configured", () => {
  it("without client ids every social path answers 404 and no provider is called", async () => {
    const bare = await startTestApi({ seed: false });
    try {
      providers.calls.length = 0;
      for (const provider of ["google", "apple", "facebook"]) {
        const res = await call(bare, `/auth/jwt/${provider}/`, { body: { id_token: "x".repeat(40), access_token: "x".repeat(40) } });
        expect(res.status).toBe(404);
      }
      expect(providers.calls).toHaveLength(0);
    } finally {
      await bare.close();
    }
  });

  it("half a provider's settings stops the start with a message; complete ones enable it", () => {
    const base = { NODE_ENV: "test", SESSION_SECRET: "a-test-secret-0123456789", DATA_DIR: "/tmp/ofertas-test-unused" } as const;
    expect(() => loadConfig({ ...base, GOOGLE_CLIENT_ID: "x" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, FACEBOOK_APP_SECRET: "x" })).toThrow(/FACEBOOK_APP_ID/);
    expect(() => loadConfig({ ...base, APPLE_CLIENT_ID: "x", APPLE_TEAM_ID: "T" })).toThrow(/APPLE_/);
    expect(() =>
      loadConfig({ ...base, APPLE_CLIENT_ID: "x", APPLE_TEAM_ID: "T", APPLE_KEY_ID: "K", APPLE_PRIVATE_KEY: "not a key" }),
    ).toThrow(/\.p8/);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const apple = loadConfig({
      ...base,
      APPLE_CLIENT_ID: "x",
      APPLE_TEAM_ID: "T",
      APPLE_KEY_ID: "K",
      APPLE_PRIVATE_KEY: pem.replace(/\n/g, "\\n"),
    });
    expect(enabledSocialProviders(apple)).toEqual(["apple"]);
    expect(enabledSocialProviders(loadConfig({ ...base, ...SOCIAL_ENV }))).toEqual(["google", "apple", "facebook"]);
    expect(enabledSocialProviders(loadConfig(base))).toEqual([]);
  });
});
