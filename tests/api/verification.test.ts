import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { loginCodes, sales, users } from "#api/db/schema";
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { issueTokens } from "#api/auth/tokens";
import { messages } from "#api/mail/messages";
import { PermanentMailError } from "#api/mail/context";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";
import { buy, makeOption, newEmail } from "./_helpers";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

let address = 0;
/** Each test speaks from its own client address, so the per-address limit is its own. */
const from = () => ({ "X-Forwarded-For": `10.9.${Math.floor(++address / 250)}.${address % 250}` });

/** The newest code mailed to this address, read from the outbox the mail worker sends from. */
async function mailedCode(email: string, kind = "login-code"): Promise<string> {
  const rows = await query<{ data: { code: string } | string }>(
    api.db,
    sql`SELECT data FROM mail_outbox WHERE recipient = ${email} AND kind = ${kind} ORDER BY created_at DESC LIMIT 1`,
  );
  const data = typeof rows[0].data === "string" ? JSON.parse(rows[0].data) : rows[0].data;
  return data.code;
}

/** A fresh login code for this address, as a person gets it: asked, then read from the mail. */
async function codeFor(email: string): Promise<string> {
  expect((await call(api, "/verification/send-code/", { body: { email }, headers: from() })).status).toBe(200);
  return mailedCode(email);
}

/** The kinds of mail queued to this address, oldest first. */
async function mailKinds(email: string): Promise<string[]> {
  const rows = await query<{ kind: string }>(api.db, sql`SELECT kind FROM mail_outbox WHERE recipient = ${email} ORDER BY created_at, id`);
  return rows.map((r) => r.kind);
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("login by emailed code", () => {
  it("send-code mails a 6-digit code; otp-login creates the customer with a proven email", async () => {
    const email = newEmail("codigo");
    const sent = await call(api, "/verification/send-code/", { body: { email: `  ${email.toUpperCase()} ` }, headers: from() });
    expect(sent.status).toBe(200);
    expect(sent.body.detail).toBe("Te hemos enviado un código.");
    const code = await mailedCode(email);
    expect(code).toMatch(/^\d{6}$/);
    // Only a keyed hash is stored.
    const [row] = await api.db.select().from(loginCodes).where(eq(loginCodes.email, email));
    expect(row.codeHash).not.toContain(code);

    expect((await call(api, "/verification/verify-code/", { body: { email, code } })).body).toEqual({ valid: true });
    const login = await call(api, "/verification/otp-login/", { body: { email, code } });
    expect(login.status).toBe(200);
    const me = await call(api, "/auth/users/me/", { headers: { Authorization: `JWT ${login.body.access}` } });
    expect(me.body).toMatchObject({ email, role: "customer", is_active: true, email_verified: true, has_password: false });
    // Spent: the same code cannot log in twice.
    expect((await call(api, "/verification/otp-login/", { body: { email, code } })).status).toBe(400);
  });

  it("allows 5 tries per code: after that even the right code is refused", async () => {
    const email = newEmail("intentos");
    await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    const code = await mailedCode(email);
    const first = await call(api, "/verification/verify-code/", { body: { email, code: wrong(code) } });
    expect(first.body).toEqual({ valid: false, detail: "El código no es correcto. Te quedan 4 intentos." });
    for (let i = 0; i < 3; i++) await call(api, "/verification/otp-login/", { body: { email, code: wrong(code) } });
    const fifth = await call(api, "/verification/otp-login/", { body: { email, code: wrong(code) } });
    expect(fifth.body.detail).toBe("Has agotado los intentos para este código. Pide uno nuevo.");
    const right = await call(api, "/verification/otp-login/", { body: { email, code } });
    expect(right.status).toBe(400);
    expect(right.body.detail).toMatch(/agotado los intentos/);
  });

  it("a code expires after 10 minutes, and a newer code replaces the older one", async () => {
    const email = newEmail("caduca");
    await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    const old = await mailedCode(email);
    await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    const newer = await mailedCode(email);
    if (old !== newer) expect((await call(api, "/verification/verify-code/", { body: { email, code: old } })).body.valid).toBe(false);
    const [row] = await api.db
      .select()
      .from(loginCodes)
      .where(eq(loginCodes.email, email))
      .orderBy(sql`created_at DESC`)
      .limit(1);
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 10 * 60_000)).toBeLessThan(2000);
    await api.db
      .update(loginCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginCodes.id, row.id));
    const late = await call(api, "/verification/otp-login/", { body: { email, code: newer } });
    expect(late.status).toBe(400);
    expect(late.body.detail).toBe("El código ha caducado o ya se ha usado. Pide uno nuevo.");
  });

  it("refuses malformed input in Spanish", async () => {
    expect((await call(api, "/verification/send-code/", { body: { email: "no-es-correo" }, headers: from() })).status).toBe(400);
    const badCode = await call(api, "/verification/otp-login/", { body: { email: newEmail(), code: "12ab" } });
    expect(badCode.status).toBe(400);
    expect(badCode.body.detail).toMatch(/6 cifras/);
  });

  it("guest purchases with that email join the account at the first code login", async () => {
    const email = newEmail("invitado");
    const option = await makeOption(api, { available: 5 });
    const { purchase } = await buy(api, [{ option }], email);
    await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    const login = await call(api, "/verification/otp-login/", { body: { email, code: await mailedCode(email) } });
    const list = await call(api, "/customer/purchases/", { headers: { Authorization: `JWT ${login.body.access}` } });
    expect(list.body.results.map((p: { sale_id: string }) => p.sale_id)).toContain(purchase.sale_id);
    const [user] = await api.db.select().from(users).where(eq(users.email, email));
    const [sale] = await api.db.select().from(sales).where(eq(sales.id, purchase.sale_id));
    expect(sale.userId).toBe(user.id);
  });
});

describe("send-code rate limits", () => {
  it("per email: 5 codes an hour, then a Spanish 429", async () => {
    const email = newEmail("limite");
    for (let i = 0; i < 5; i++)
      expect((await call(api, "/verification/send-code/", { body: { email }, headers: from() })).status).toBe(200);
    const sixth = await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.detail).toMatch(/Espera un rato/);
  });

  it("per email, 30 requests at once: at most 5 codes are mailed (counted and sent in one step)", async () => {
    const email = newEmail("rafaga");
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => call(api, "/verification/send-code/", { body: { email }, headers: from() })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const [mails] = await query<{ n: number }>(
      api.db,
      sql`SELECT count(*)::int AS n FROM mail_outbox WHERE recipient = ${email} AND kind = 'login-code'`,
    );
    expect(Number(mails.n)).toBe(statuses.filter((s) => s === 200).length);
    expect(Number(mails.n)).toBeGreaterThan(0);
  });

  it("per client address: 30 codes an hour, whatever the emails", async () => {
    const headers = { "X-Forwarded-For": "10.250.0.1" };
    for (let i = 0; i < 30; i++)
      expect((await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers })).status).toBe(200);
    const over = await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBeTruthy();
    // Another address is not affected.
    expect(
      (await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers: { "X-Forwarded-For": "10.250.0.2" } }))
        .status,
    ).toBe(200);
  });
});

describe("password accounts (djoser)", () => {
  it("register → inactive → activation code → login; reset password by code; set_password", async () => {
    const email = newEmail("registro");
    const created = await call(api, "/auth/users/", {
      body: { email, password: "una-clave-larga", re_password: "una-clave-larga" },
      headers: from(),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, is_active: false });
    expect(created.body.registration_token).toMatch(/^[\w-]{43}$/);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "una-clave-larga" } })).status).toBe(401);
    const mismatch = await call(api, "/auth/users/", {
      body: { email: newEmail(), password: "una-clave-larga", re_password: "otra-clave" },
      headers: from(),
    });
    expect(mismatch.body.detail).toMatch(/no coinciden/);
    expect(mismatch.body).toEqual({ detail: expect.any(String), errors: { re_password: [expect.stringMatching(/no coinciden/)] } });
    expect(
      (await call(api, "/auth/users/", { body: { email: newEmail(), password: "corta", re_password: "corta" }, headers: from() })).status,
    ).toBe(400);

    const code = await mailedCode(email, "account-activation");
    expect((await call(api, "/auth/users/activation/", { body: { uid: created.body.id, token: wrong(code) } })).status).toBe(400);
    const activated = await call(api, "/auth/users/activation/", {
      body: { uid: created.body.id, token: code, registration_token: created.body.registration_token },
    });
    // The code proves the address: activation logs the person in, like a code login, and the
    // client that registered (it holds the ticket) keeps its password.
    expect(activated.status).toBe(200);
    expect(activated.body.access.split(".")).toHaveLength(3);
    expect(activated.body.has_password).toBe(true);
    const again = await call(api, "/auth/users/activation/", { body: { uid: created.body.id, token: code } });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe("El código ha caducado o ya se ha usado. Pide uno nuevo.");
    const pair = (await call(api, "/auth/jwt/create/", { body: { email, password: "una-clave-larga" } })).body;
    expect(pair.access).toBeTruthy();

    // Forgotten password: a code by mail, then a new password; old sessions end.
    expect((await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() })).status).toBe(204);
    expect((await call(api, "/auth/users/reset_password/", { body: { email: newEmail("nadie") }, headers: from() })).status).toBe(204);
    const reset = await mailedCode(email, "password-reset");
    const confirmed = await call(api, "/auth/users/reset_password_confirm/", {
      body: { uid: created.body.id, token: reset, new_password: "otra-clave-larga", re_new_password: "otra-clave-larga" },
    });
    expect(confirmed.status).toBe(204);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } })).status).toBe(401);
    const fresh = (await call(api, "/auth/jwt/create/", { body: { email, password: "otra-clave-larga" } })).body;

    const auth = { Authorization: `JWT ${fresh.access}` };
    const badCurrent = await call(api, "/auth/users/set_password/", {
      body: { current_password: "mal", new_password: "tercera-clave", re_new_password: "tercera-clave" },
      headers: auth,
    });
    expect(badCurrent.status).toBe(400);
    expect(badCurrent.body).toEqual({
      detail: "La contraseña actual no es correcta.",
      errors: { current_password: ["La contraseña actual no es correcta."] },
    });
    expect(
      (
        await call(api, "/auth/users/set_password/", {
          body: { current_password: "otra-clave-larga", new_password: "tercera-clave", re_new_password: "tercera-clave" },
          headers: auth,
        })
      ).status,
    ).toBe(200);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "tercera-clave" } })).status).toBe(200);
  });

  it("activation and reset_password_confirm take the email instead of the uid (the mailed links name the email)", async () => {
    const email = newEmail("porcorreo");
    expect(
      (await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() }))
        .status,
    ).toBe(201);
    const code = await mailedCode(email, "account-activation");
    expect((await call(api, "/auth/users/activation/", { body: { email: newEmail("nadie"), token: code } })).status).toBe(400);
    expect((await call(api, "/auth/users/activation/", { body: { token: code } })).status).toBe(400);
    const activated = await call(api, "/auth/users/activation/", { body: { email: email.toUpperCase(), token: code } });
    expect(activated.status).toBe(200);
    expect((await call(api, "/auth/jwt/verify/", { body: { token: activated.body.access } })).status).toBe(200);
    // From the mailed link on another device there is no registration ticket: the address is
    // proven, the password chosen before it is not kept (a new one can be set on /cuenta).
    expect(activated.body.has_password).toBe(false);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "una-clave-larga" } })).status).toBe(401);

    expect((await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() })).status).toBe(204);
    const reset = await mailedCode(email, "password-reset");
    const body = { email, token: reset, new_password: "clave-nueva-larga", re_new_password: "clave-nueva-larga" };
    expect((await call(api, "/auth/users/reset_password_confirm/", { body: { ...body, token: wrong(reset) } })).status).toBe(400);
    expect((await call(api, "/auth/users/reset_password_confirm/", { body })).status).toBe(204);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "clave-nueva-larga" } })).status).toBe(200);
  });

  it("set_email sends a code to the new address; reset_email_confirm applies it", async () => {
    const email = newEmail("cambio");
    await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    const pair = (await call(api, "/verification/otp-login/", { body: { email, code: await mailedCode(email) } })).body;
    const auth = { Authorization: `JWT ${pair.access}` };
    const me = (await call(api, "/auth/users/me/", { headers: auth })).body;
    const next = newEmail("nuevo");
    const otherDevice = (await call(api, "/verification/otp-login/", { body: { email, code: await codeFor(email) } })).body;
    const asked = await call(api, "/auth/users/set_email/", {
      body: { new_email: next, re_new_email: next },
      headers: { ...auth, ...from() },
    });
    expect(asked.status).toBe(202);
    // Nothing changes before the new address proves itself.
    expect((await call(api, "/auth/users/me/", { headers: auth })).body.email).toBe(email);
    const code = await mailedCode(next, "email-change");
    expect(
      (
        await call(api, "/auth/users/reset_email_confirm/", {
          body: { uid: me.id, token: code, new_email: newEmail("otro"), re_new_email: "x@y.es" },
        })
      ).status,
    ).toBe(400);
    const done = await call(api, "/auth/users/reset_email_confirm/", {
      body: { uid: me.id, token: code, new_email: next, re_new_email: next },
    });
    // A fresh pair for the new address (the old family is revoked), so /cuenta stays logged in.
    expect(done.status).toBe(200);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } })).status).toBe(401);
    // Every session of the account ends with the change, access tokens included.
    expect((await call(api, "/auth/users/me/", { headers: auth })).status).toBe(401);
    expect((await call(api, "/auth/users/me/", { headers: { Authorization: `JWT ${otherDevice.access}` } })).status).toBe(401);
    expect((await call(api, "/auth/users/me/", { headers: { Authorization: `JWT ${done.body.access}` } })).body.email).toBe(next);
    const [row] = await api.db.select().from(users).where(eq(users.id, me.id));
    expect(row.email).toBe(next);
  });
});

const bearer = (access: string) => ({ Authorization: `JWT ${access}` });
const passwordLogin = (email: string, password: string) => call(api, "/auth/jwt/create/", { body: { email, password }, headers: from() });

/** An account with a proven address and the demo password (a precomputed hash: fast). */
async function provenAccount(tag: string) {
  const email = newEmail(tag);
  const [user] = await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, emailVerifiedAt: new Date() }).returning();
  return user;
}

describe("an address is a way in only once its owner proves it", () => {
  it("reset_email_confirm cannot give an account an address nobody proved: the code for it goes to that address", async () => {
    const attacker = await provenAccount("atacante");
    const victim = newEmail("victima");
    expect((await call(api, "/auth/users/reset_email/", { body: { email: attacker.email }, headers: from() })).status).toBe(204);
    const own = await mailedCode(attacker.email, "email-change");
    const asked = await call(api, "/auth/users/reset_email_confirm/", {
      body: { uid: attacker.id, token: own, new_email: victim, re_new_email: victim },
    });
    // The code from the current address proves the account, not the new address.
    expect(asked.status).toBe(202);
    expect((await api.db.select().from(users).where(eq(users.id, attacker.id)))[0].email).toBe(attacker.email);
    expect(await mailKinds(victim)).toEqual(["email-change"]);
    expect((await passwordLogin(victim, DEMO_PASSWORD)).status).toBe(401);
    // The old code is spent, and a guess at the new address's code is just a wrong code.
    const victimCode = await mailedCode(victim, "email-change");
    expect(
      (
        await call(api, "/auth/users/reset_email_confirm/", {
          body: { uid: attacker.id, token: own, new_email: victim, re_new_email: victim },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(api, "/auth/users/reset_email_confirm/", {
          body: { uid: attacker.id, token: wrong(victimCode), new_email: victim, re_new_email: victim },
        })
      ).status,
    ).toBe(400);
    expect((await api.db.select().from(users).where(eq(users.id, attacker.id)))[0].email).toBe(attacker.email);
    // Only the code that reached the new address applies it.
    const applied = await call(api, "/auth/users/reset_email_confirm/", {
      body: { uid: attacker.id, token: victimCode, new_email: victim, re_new_email: victim },
    });
    expect(applied.status).toBe(200);
    expect((await call(api, "/auth/users/me/", { headers: bearer(applied.body.access) })).body).toMatchObject({
      email: victim,
      email_verified: true,
    });
  });

  it("password login refuses an address never proven, with the answer of a wrong password", async () => {
    const email = newEmail("sin-probar");
    await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, isActive: true });
    const refused = await passwordLogin(email, DEMO_PASSWORD);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual((await passwordLogin(newEmail("nadie"), DEMO_PASSWORD)).body);
  });

  it("the first proof of an address ends every session issued before it and drops the password chosen before it", async () => {
    // An account given the victim's address without proof, with the attacker's password and a
    // session, as a database from before this rule could hold one.
    const email = newEmail("preapropiada");
    const [row] = await api.db.insert(users).values({ email, passwordHash: DEMO_PASSWORD_HASH, isActive: true }).returning();
    const attacker = await issueTokens(api.db, api.config, row, "curl/8");
    expect((await call(api, "/auth/users/me/", { headers: bearer(attacker.access) })).status).toBe(200);

    // The victim buys as a guest, then logs in by code (the default).
    const option = await makeOption(api, { available: 5 });
    const { purchase } = await buy(api, [{ option }], email);
    const victim = (await call(api, "/verification/otp-login/", { body: { email, code: await codeFor(email) } })).body;
    expect(
      (await call(api, "/customer/purchases/", { headers: bearer(victim.access) })).body.results.map((p: { sale_id: string }) => p.sale_id),
    ).toContain(purchase.sale_id);

    // The attacker's session and password are gone: no coupons, no voucher, no later purchases.
    for (const path of ["/customer/purchases/", "/auth/users/me/"])
      expect((await call(api, path, { headers: bearer(attacker.access) })).status, path).toBe(401);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: attacker.refresh } })).status).toBe(401);
    expect((await passwordLogin(email, DEMO_PASSWORD)).status).toBe(401);
    expect((await call(api, "/auth/users/me/", { headers: bearer(victim.access) })).body).toMatchObject({
      email_verified: true,
      has_password: false,
    });
  });

  it("activation keeps the registered password only for the client that registered; a stranger's registration gives way", async () => {
    // A stranger registers the owner's address first; the owner then registers it too.
    const email = newEmail("registro-ajeno");
    const register = (password: string) => call(api, "/auth/users/", { body: { email, password, re_password: password }, headers: from() });
    const stranger = await register("clave-del-extrano");
    const owner = await register("clave-de-la-duena");
    expect([stranger.status, owner.status]).toEqual([201, 201]);
    // The stranger's ticket is worth nothing now, even with the code (which only the owner has).
    const code = await mailedCode(email, "account-activation");
    const withStrangersTicket = await call(api, "/auth/users/activation/", {
      body: { email, token: code, registration_token: stranger.body.registration_token },
    });
    expect(withStrangersTicket.body.has_password).toBe(false);
    expect((await passwordLogin(email, "clave-del-extrano")).status).toBe(401);
    expect((await passwordLogin(email, "clave-de-la-duena")).status).toBe(401);

    // The owner's own registration, activated with its own ticket, keeps the owner's password.
    const other = newEmail("registro-propio");
    const mine = await call(api, "/auth/users/", {
      body: { email: other, password: "clave-de-la-duena", re_password: "clave-de-la-duena" },
      headers: from(),
    });
    const activated = await call(api, "/auth/users/activation/", {
      body: { email: other, token: await mailedCode(other, "account-activation"), registration_token: mine.body.registration_token },
    });
    expect(activated.body.has_password).toBe(true);
    expect((await passwordLogin(other, "clave-de-la-duena")).status).toBe(200);
  });

  it("a deactivated account stays so: a code login or a password reset does not bring it back", async () => {
    const user = await provenAccount("desactivada");
    await api.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const login = await call(api, "/verification/otp-login/", { body: { email: user.email, code: await codeFor(user.email) } });
    expect(login.status).toBe(403);
    expect(login.body.code).toBe("account_deactivated");
    await call(api, "/auth/users/reset_password/", { body: { email: user.email }, headers: from() });
    const reset = await call(api, "/auth/users/reset_password_confirm/", {
      body: {
        email: user.email,
        token: await mailedCode(user.email, "password-reset"),
        new_password: "clave-nueva-larga",
        re_new_password: "clave-nueva-larga",
      },
    });
    expect(reset.status).toBe(403);
    expect((await api.db.select().from(users).where(eq(users.id, user.id)))[0].isActive).toBe(false);
  });
});

describe("no answer tells whether an address has an account", () => {
  it("registering a taken address answers like a new one and mails its owner «ya tienes una cuenta»", async () => {
    const owner = await provenAccount("ya-registrada");
    const fresh = newEmail("libre");
    const body = (email: string) => ({ email, password: "otra-clave-larga", re_password: "otra-clave-larga" });
    const taken = await call(api, "/auth/users/", { body: body(owner.email), headers: from() });
    const free = await call(api, "/auth/users/", { body: body(fresh), headers: from() });
    expect(taken.status).toBe(201);
    expect(free.status).toBe(201);
    expect(Object.keys(taken.body).sort()).toEqual(Object.keys(free.body).sort());
    expect(taken.body).toMatchObject({ email: owner.email, is_active: false, email_verified: false, has_password: true });
    expect(taken.body.id).not.toBe(owner.id);
    expect(await mailKinds(owner.email)).toEqual(["account-exists"]);
    expect(await mailKinds(fresh)).toEqual(["account-activation"]);
    // The owner's account is untouched: same password, still the only account with the address.
    expect((await passwordLogin(owner.email, DEMO_PASSWORD)).status).toBe(200);
    expect(await api.db.select().from(users).where(eq(users.email, owner.email))).toHaveLength(1);
  });

  it("activation answers alike for an unknown address, an active account and a pending registration", async () => {
    const unknown = newEmail("desconocida");
    const active = await provenAccount("activa");
    const pending = newEmail("pendiente");
    await call(api, "/auth/users/", {
      body: { email: pending, password: "una-clave-larga", re_password: "una-clave-larga" },
      headers: from(),
    });
    const activate = (email: string, token: string) => call(api, "/auth/users/activation/", { body: { email, token } });
    // Nobody asked for a code for the first two: the same «caducado».
    const [a, b] = [await activate(unknown, "123456"), await activate(active.email, "123456")];
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(b.body).toEqual(a.body);
    // Once a code was asked for each (a resend), a wrong code reads the same for all three.
    for (const email of [unknown, active.email])
      expect((await call(api, "/auth/users/resend_activation/", { body: { email }, headers: from() })).status).toBe(204);
    const code = await mailedCode(pending, "account-activation");
    const answers = [await activate(unknown, wrong(code)), await activate(active.email, wrong(code)), await activate(pending, wrong(code))];
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(answers[0].body.detail).toBe("El código no es correcto. Te quedan 4 intentos.");
    // What each inbox got tells its owner what happened; the asker learns nothing.
    expect(await mailKinds(unknown)).toEqual(["no-account"]);
    expect(await mailKinds(active.email)).toEqual(["account-exists"]);
  });

  it("reset_password does the same work for every address, and reset_password_confirm answers alike", async () => {
    const account = await provenAccount("con-cuenta");
    const nobody = newEmail("sin-cuenta");
    for (const email of [account.email, nobody])
      expect((await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() })).status).toBe(204);
    // One code row and one mail each: a reset code for the account, a notice for the other.
    const codes = await query<{ email: string }>(
      api.db,
      sql`SELECT email FROM login_codes WHERE email IN (${account.email}, ${nobody}) AND purpose = 'reset_password'`,
    );
    expect(codes.map((c) => c.email).sort()).toEqual([account.email, nobody].sort());
    expect(await mailKinds(account.email)).toEqual(["password-reset"]);
    expect(await mailKinds(nobody)).toEqual(["no-account"]);
    const confirm = (email: string, token: string) =>
      call(api, "/auth/users/reset_password_confirm/", {
        body: { email, token, new_password: "clave-nueva-larga", re_new_password: "clave-nueva-larga" },
      });
    const code = await mailedCode(account.email, "password-reset");
    const [x, y] = [await confirm(account.email, wrong(code)), await confirm(nobody, wrong(code))];
    expect(x.status).toBe(400);
    expect(y.body).toEqual(x.body);
    const [p, q] = [await confirm(newEmail("nunca"), code), await confirm((await provenAccount("sin-pedir")).email, code)];
    expect(q.body).toEqual(p.body);
  });

  it("reset_password takes as long for an address with an account as for one without", async () => {
    const accounts = await Promise.all(Array.from({ length: 30 }, () => provenAccount("tiempo")));
    const timed = async (email: string) => {
      const start = performance.now();
      const { status } = await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() });
      expect(status).toBe(204);
      return performance.now() - start;
    };
    await timed(newEmail("calentar"));
    const [withAccount, without]: number[][] = [[], []];
    // Interleaved, so a busy moment of the machine weighs on both sides alike.
    for (const account of accounts) {
      withAccount.push(await timed(account.email));
      without.push(await timed(newEmail("sin-cuenta-tiempo")));
    }
    // Medians of interleaved requests, compared as a ratio: the machine's load moves both sides
    // alike, while work done on one side only shows as a multiple.
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
    const [a, b] = [median(withAccount), median(without)];
    const similar = Math.abs(a - b) <= 1.5 || Math.max(a, b) / Math.min(a, b) <= 1.6;
    expect(similar, `medians ${a.toFixed(1)} ms with an account, ${b.toFixed(1)} ms without`).toBe(true);
  });

  it("set_email to an address that has an account answers as for a free one; its owner is told, the asker gets no code", async () => {
    const asker = await provenAccount("pide-cambio");
    const owner = await provenAccount("duena-del-correo");
    const pair = (await passwordLogin(asker.email, DEMO_PASSWORD)).body;
    const ask = (email: string) =>
      call(api, "/auth/users/set_email/", {
        body: { current_password: DEMO_PASSWORD, new_email: email, re_new_email: email },
        headers: { ...bearer(pair.access), ...from() },
      });
    const [taken, free] = [await ask(owner.email), await ask(newEmail("libre-para-cambio"))];
    expect(taken.status).toBe(202);
    expect(free.body).toEqual(taken.body);
    expect(await mailKinds(owner.email)).toEqual(["account-exists"]);
    const confirmTaken = await call(api, "/auth/users/reset_email_confirm/", {
      body: { uid: asker.id, token: "123456", new_email: owner.email, re_new_email: owner.email },
    });
    expect(confirmTaken.status).toBe(400);
    expect((await api.db.select().from(users).where(eq(users.id, asker.id)))[0].email).toBe(asker.email);
  });
});

describe("limits per person", () => {
  it("password-reset codes: at most 5 an hour per address, with or without an account, whatever the client address", async () => {
    for (const email of [(await provenAccount("reset-limite")).email, newEmail("reset-limite-sin")]) {
      for (let i = 0; i < 5; i++)
        expect((await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() })).status).toBe(204);
      const sixth = await call(api, "/auth/users/reset_password/", { body: { email }, headers: from() });
      expect(sixth.status).toBe(429);
      expect(sixth.body.detail).toMatch(/Espera un rato/);
      expect(sixth.headers.get("retry-after")).toBeTruthy();
      expect(await mailKinds(email)).toHaveLength(5);
    }
  });

  it("activation codes: at most 5 an hour per address, registration and resends together", async () => {
    const email = newEmail("activar-limite");
    expect(
      (await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() }))
        .status,
    ).toBe(201);
    for (let i = 0; i < 4; i++)
      expect((await call(api, "/auth/users/resend_activation/", { body: { email }, headers: from() })).status).toBe(204);
    expect((await call(api, "/auth/users/resend_activation/", { body: { email }, headers: from() })).status).toBe(429);
    expect(
      (await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() }))
        .status,
    ).toBe(429);
    expect(await mailKinds(email)).toHaveLength(5);
  });

  it("10 wrong passwords in 15 minutes: the address logs in only by code, its owner is told once, and a code login lifts it", async () => {
    const user = await provenAccount("adivinada");
    for (let i = 0; i < 9; i++) expect((await passwordLogin(user.email, `intento-${i}`)).body.code).toBe("no_active_account");
    const tenth = await passwordLogin(user.email, "intento-9");
    expect(tenth.status).toBe(401);
    expect(tenth.body.code).toBe("password_login_locked");
    // Now even the right password is refused, from any client address.
    const right = await passwordLogin(user.email, DEMO_PASSWORD);
    expect(right.status).toBe(401);
    expect(right.body).toEqual(tenth.body);
    expect(await mailKinds(user.email)).toEqual(["password-locked"]);
    await passwordLogin(user.email, "otro-intento");
    expect(await mailKinds(user.email)).toEqual(["password-locked"]);

    // The owner logs in by code: the password works again.
    expect((await call(api, "/verification/otp-login/", { body: { email: user.email, code: await codeFor(user.email) } })).status).toBe(
      200,
    );
    expect((await passwordLogin(user.email, DEMO_PASSWORD)).status).toBe(200);
  });

  it("an address without an account locks the same way (nothing to tell), and nobody is mailed", async () => {
    const email = newEmail("sin-cuenta-adivinada");
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await passwordLogin(email, `intento-${i}`));
    expect(answers.slice(9).map((a) => a.body.code)).toEqual(["password_login_locked", "password_login_locked"]);
    expect(await mailKinds(email)).toEqual([]);
  });

  it("a right password forgets earlier mistakes: a person who mistypes now and then is never locked", async () => {
    const user = await provenAccount("despistada");
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 6; i++) await passwordLogin(user.email, `mal-${i}`);
      expect((await passwordLogin(user.email, DEMO_PASSWORD)).status).toBe(200);
    }
  });
});

describe("account notices (the mails that replace a code)", () => {
  const ctx = () => ({ db: api.db, config: api.config, origin: "https://ofertas.example", to: "alguien@correo.es" });

  it.each([
    ["account-exists", { reason: "register" }, /Ya tienes una cuenta/, /crear una cuenta nueva/],
    ["account-exists", { reason: "email-change" }, /Ya tienes una cuenta/, /usar este correo en otra cuenta/],
    ["no-account", { reason: "reset_password" }, /No hay ninguna cuenta/, /cambiar la contraseña/],
    ["no-account", { reason: "activation" }, /No hay ninguna cuenta/, /pendiente de activar/],
    ["password-locked", { failures: 10, minutes: 15 }, /Hemos protegido tu cuenta/, /10 veces en 15 minutos/],
  ])("%s %j says why it came, links to /login and carries no code", async (kind, data, subject, why) => {
    const mail = await messages[kind](data, ctx());
    expect(mail?.subject).toMatch(subject);
    expect(mail?.text).toMatch(why);
    expect(mail?.html).toContain('href="https://ofertas.example/login"');
    expect(mail?.text).not.toMatch(/\b\d{6}\b/);
  });

  it("refuses data it cannot explain (a permanent failure, not a retry)", async () => {
    await expect(messages["account-exists"]({ reason: "otra" }, ctx())).rejects.toBeInstanceOf(PermanentMailError);
    await expect(messages["password-locked"]({}, ctx())).rejects.toBeInstanceOf(PermanentMailError);
  });
});
