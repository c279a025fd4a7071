/**
 * The tokens themselves: logging in for a pair, what makes an access token valid, verifying and
 * rotating, how long a token lives, and the account a sale made while logged in belongs to.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_STAFF } from "#api/db/demo-accounts";
import { refreshTokens, sales, users } from "#api/db/schema";
import { JWT_AUDIENCE, JWT_ISSUER } from "#api/auth/tokens";
import { hashPassword } from "#api/auth/passwords";
import { call, startTestApi } from "#tests/support/api-server";
import { auth, login, sessionOf, withTokenApi } from "./_auth-tokens";
import { api } from "./_file-api";
import { makeOption, newEmail, startSale } from "./_helpers";

withTokenApi();

describe("POST /auth/jwt/create/", () => {
  it("gives the demo customer an access and a refresh token", async () => {
    const { status, body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect(status).toBe(200);
    expect(body.access.split(".")).toHaveLength(3);
    expect(body.refresh.split(".")).toHaveLength(3);
    const me = await call(api, "/auth/users/me/", { headers: auth(body.access) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: DEMO_CUSTOMER.email, role: "customer", is_active: true });
  });

  it("takes the email in any case and with spaces", async () => {
    const { status } = await login(`  ${DEMO_CUSTOMER.email.toUpperCase()} `, DEMO_CUSTOMER.password);
    expect(status).toBe(200);
  });

  it("answers the same 401 for a wrong password, an unknown email and an inactive account", async () => {
    const wrong = await login(DEMO_CUSTOMER.email, "no-es-esta");
    const unknown = await login("nadie@correo.es", DEMO_CUSTOMER.password);
    await api.db.insert(users).values({ email: "inactiva@correo.es", passwordHash: await hashPassword("clave-segura-1"), isActive: false });
    const inactive = await login("inactiva@correo.es", "clave-segura-1");
    for (const r of [wrong, unknown, inactive]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("no_active_account");
    }
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  // 210 password checks, each a deliberate key derivation: its own time limit.
  it("counts only wrong passwords against a connection: many right logins pass, the 101st wrong one in 15 minutes is a 429", async () => {
    const office = { "X-Forwarded-For": "10.61.0.1" };
    for (let i = 0; i < 105; i++) expect((await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, office)).status).toBe(200);
    const guesser = { "X-Forwarded-For": "10.61.0.2" };
    // A different address each time, so no account's own lock comes first.
    for (let i = 0; i < 100; i++) expect((await login(`adivina-${i}@correo.es`, "no-es-esta", guesser)).status).toBe(401);
    const refused = await login("adivina-100@correo.es", "no-es-esta", guesser);
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/Demasiados intentos/);
    expect((await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, guesser)).status).toBe(429);
    expect((await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password, office)).status).toBe(200);
  }, 120_000);

  it("refuses a body without the fields with a Spanish 400", async () => {
    const { status, body } = await call(api, "/auth/jwt/create/", { body: { email: "x" } });
    expect(status).toBe(400);
    expect(body.detail).toMatch(/correo|obligatorio/i);
  });
});

describe("access tokens", () => {
  it("a staff token carries the staff role", async () => {
    const { body } = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    const session = await call(api, "/customer/session/", { headers: auth(body.access) });
    expect(session.body).toMatchObject({ is_authenticated: true, user: { email: DEMO_STAFF.email, role: "staff" } });
  });

  it("anonymous callers get 401 not_authenticated where a user is needed, and a session answer that says so", async () => {
    const me = await call(api, "/auth/users/me/");
    expect(me.status).toBe(401);
    expect(me.body.code).toBe("not_authenticated");
    const session = await call(api, "/customer/session/");
    expect(session.body).toEqual({ is_authenticated: false, anonymous: false, user: null });
  });

  it("refuses tampered tokens and tokens with another algorithm, issuer or audience", async () => {
    const { body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const [h, p, s] = body.access.split(".");
    const payload = JSON.parse(Buffer.from(p, "base64url").toString());
    const forgedPayload = Buffer.from(JSON.stringify({ ...payload, role: "staff" })).toString("base64url");
    const key = new TextEncoder().encode(api.config.jwtSecret);
    const claims = { email: DEMO_CUSTOMER.email, role: "staff", typ: "access", sid: payload.sid };
    const sign = (alg: string, iss: string, aud: string) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg })
        .setIssuer(iss)
        .setAudience(aud)
        .setSubject(payload.sub)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(key);
    const bad = [
      `${h}.${forgedPayload}.${s}`, // payload changed, old signature
      `${h}.${p}.${s.slice(0, -4)}AAAA`, // signature changed
      new UnsecuredJWT(claims).setIssuer(JWT_ISSUER).setAudience(JWT_AUDIENCE).setSubject(payload.sub).setExpirationTime("5m").encode(), // alg none
      await sign("HS512", JWT_ISSUER, JWT_AUDIENCE),
      await sign("HS256", "otro-emisor", JWT_AUDIENCE),
      await sign("HS256", JWT_ISSUER, "otra-audiencia"),
      body.refresh, // a refresh token is not an access token
      "no-es-un-jwt",
    ];
    for (const token of bad) {
      const me = await call(api, "/auth/users/me/", { headers: auth(token) });
      expect(me.status, token).toBe(401);
      expect(me.body.code).toBe("token_not_valid");
    }
    // The right recipe with our key is accepted: the refusals above are about the pinned values.
    const right = await call(api, "/auth/users/me/", { headers: auth(await sign("HS256", JWT_ISSUER, JWT_AUDIENCE)) });
    expect(right.status).toBe(200);
    // … and the role is the account's, whatever the token says.
    expect(right.body.role).toBe("customer");
    expect((await call(api, "/offers/", { headers: auth(await sign("HS256", JWT_ISSUER, JWT_AUDIENCE)) })).status).toBe(403);
  });

  it("refuses a token without an expiry, without iat, or without a session, even signed with our key", async () => {
    const { body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const payload = JSON.parse(Buffer.from(body.access.split(".")[1], "base64url").toString());
    const key = new TextEncoder().encode(api.config.jwtSecret);
    const base = () =>
      new SignJWT({ email: DEMO_CUSTOMER.email, role: "customer", typ: "access", sid: payload.sid })
        .setProtectedHeader({ alg: "HS256" })
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setSubject(payload.sub);
    const forever = await base().setIssuedAt().sign(key);
    const noIat = await base().setExpirationTime("5m").sign(key);
    const noSession = await new SignJWT({ email: DEMO_CUSTOMER.email, role: "customer", typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(payload.sub)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key);
    const otherSession = await new SignJWT({ email: DEMO_CUSTOMER.email, role: "customer", typ: "access", sid: randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(payload.sub)
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key);
    for (const token of [forever, noIat, noSession, otherSession]) {
      const me = await call(api, "/auth/users/me/", { headers: auth(token) });
      expect(me.status).toBe(401);
      expect(me.body.code).toBe("token_not_valid");
    }
    expect((await call(api, "/auth/jwt/verify/", { body: { token: forever } })).status).toBe(401);
    // The same recipe with an expiry passes: what was refused is the missing claim.
    expect(
      (await call(api, "/auth/users/me/", { headers: auth(await base().setIssuedAt().setExpirationTime("5m").sign(key)) })).status,
    ).toBe(200);
  });

  it("a malformed Authorization header is a 401, not a 500", async () => {
    const me = await call(api, "/auth/users/me/", { headers: { Authorization: "JWT" } });
    expect(me.status).toBe(401);
  });

  it("public calls ignore a bad token instead of failing", async () => {
    const { status } = await call(api, "/public/offers/?page_size=1", { headers: auth("basura") });
    expect(status).toBe(200);
  });
});

describe("POST /auth/jwt/verify/", () => {
  it("says 200 for a good token and 401 token_not_valid for a bad one", async () => {
    const { body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await call(api, "/auth/jwt/verify/", { body: { token: body.access } })).status).toBe(200);
    expect((await call(api, "/auth/jwt/verify/", { body: { token: body.refresh } })).status).toBe(200);
    const bad = await call(api, "/auth/jwt/verify/", { body: { token: body.access.slice(0, -2) + "xx" } });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe("token_not_valid");
  });
});

describe("POST /auth/jwt/refresh/", () => {
  it("rotates: a new pair each time, and a replayed refresh token revokes the whole family", async () => {
    const first = (await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).body;
    const second = await call(api, "/auth/jwt/refresh/", { body: { refresh: first.refresh } });
    expect(second.status).toBe(200);
    expect(second.body.access).toBeTruthy();
    expect(second.body.refresh).not.toBe(first.refresh);
    expect((await call(api, "/auth/users/me/", { headers: auth(second.body.access) })).status).toBe(200);

    // The first refresh token comes back (stolen): refused, and the legitimate successor dies too.
    const replay = await call(api, "/auth/jwt/refresh/", { body: { refresh: first.refresh } });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("token_not_valid");
    const successor = await call(api, "/auth/jwt/refresh/", { body: { refresh: second.body.refresh } });
    expect(successor.status).toBe(401);

    // Another login (another family) is unaffected.
    const other = (await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password)).body;
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: other.refresh } })).status).toBe(200);
  });

  it("refuses an access token, a tampered token and a missing field", async () => {
    const { body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: body.access } })).status).toBe(401);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: body.refresh + "x" } })).status).toBe(401);
    expect((await call(api, "/auth/jwt/refresh/", { body: {} })).status).toBe(400);
  });

  it("within the grace window a replay is not taken for theft, and gets the very successor the first use got", async () => {
    const graceful = await startTestApi({ env: { JWT_REFRESH_REUSE_GRACE_SECONDS: "30" } });
    try {
      const pair = (await call(graceful, "/auth/jwt/create/", { body: { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password } }))
        .body;
      const [a, b] = await Promise.all([
        call(graceful, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } }),
        call(graceful, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      // One successor, not two branches: the same refresh and access tokens, byte for byte.
      expect(b.body).toEqual(a.body);
      const late = await call(graceful, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } });
      expect(late.body).toEqual(a.body);
      const rows = await graceful.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.familyId, sessionOf(pair.access)));
      expect(rows).toHaveLength(2);
      // The successor rotates as usual, once; its own replay in the window gets its own successor again.
      const next = await call(graceful, "/auth/jwt/refresh/", { body: { refresh: a.body.refresh } });
      expect(next.status).toBe(200);
      expect((await call(graceful, "/auth/jwt/refresh/", { body: { refresh: a.body.refresh } })).body).toEqual(next.body);
      expect((await call(graceful, "/auth/users/me/", { headers: auth(next.body.access) })).status).toBe(200);
    } finally {
      await graceful.close();
    }
  });
});

describe("token lifetimes", () => {
  it("an access token stops working after JWT_ACCESS_SECONDS, and the refresh token gets a new one", async () => {
    // exp is in whole seconds from a floored now, so a token lives between LIFETIME - 1 and
    // LIFETIME seconds: with 1, a renewed token could expire before the next request on a busy
    // machine (seen with two test workers on two cores). With 3 each check has 2 s to spare.
    const LIFETIME = 3;
    const short = await startTestApi({ env: { JWT_ACCESS_SECONDS: String(LIFETIME) } });
    try {
      const pair = (await call(short, "/auth/jwt/create/", { body: { email: DEMO_CUSTOMER.email, password: DEMO_CUSTOMER.password } }))
        .body;
      expect((await call(short, "/auth/users/me/", { headers: auth(pair.access) })).status).toBe(200);
      await new Promise((r) => setTimeout(r, LIFETIME * 1000 + 100));
      const expired = await call(short, "/auth/users/me/", { headers: auth(pair.access) });
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ code: "token_not_valid", detail: "El token ha caducado." });
      const renewed = await call(short, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } });
      expect(renewed.status).toBe(200);
      expect((await call(short, "/auth/users/me/", { headers: auth(renewed.body.access) })).status).toBe(200);
    } finally {
      await short.close();
    }
  });
});

describe("purchases and accounts", () => {
  it("a sale created while logged in belongs to that account, whatever email it goes to", async () => {
    const { body } = await login(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    const option = await makeOption(api, { available: 10 });
    const token = (
      await call(api, "/sales/validate/", {
        body: {
          items: [{ offer_price_uuid: option.uuid, quantity: 1, saved_price: option.price, slot_id: null, promo_codes: [] }],
          checkout_data: { subs_agreement: true, email: newEmail(), need_receipt: false, for_present: [] },
        },
      })
    ).body.checkout_data.session_token;
    const created = await call(api, "/sales/create/", { body: { session_token: token }, headers: auth(body.access) });
    expect(created.status).toBe(201);
    const [sale] = await api.db.select().from(sales).where(eq(sales.id, created.body.payment.sale_id));
    const [customer] = await api.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    expect(sale.userId).toBe(customer.id);

    const guest = await startSale(api, [{ option }], newEmail());
    const [guestSale] = await api.db.select().from(sales).where(eq(sales.id, guest.sale_id));
    expect(guestSale.userId).toBeNull();
  });

  it("the demo seed gives the customer a paid purchase and a staff user", async () => {
    const [customer] = await api.db.select().from(users).where(eq(users.email, DEMO_CUSTOMER.email));
    const owned = await api.db.select().from(sales).where(eq(sales.userId, customer.id));
    expect(owned.some((s) => s.status === "paid")).toBe(true);
    const [staff] = await api.db.select().from(users).where(eq(users.email, DEMO_STAFF.email));
    expect(staff.role).toBe("staff");
  });
});

it("the stored demo password hash matches the published demo password", async () => {
  const { checkPassword } = await import("#api/auth/passwords");
  const { DEMO_PASSWORD, DEMO_PASSWORD_HASH } = await import("#api/db/demo-accounts");
  expect(await checkPassword(DEMO_PASSWORD_HASH, DEMO_PASSWORD)).toBe(true);
});
