/**
 * Logging in by a code mailed to the address, and the limits on asking for codes and on guessing
 * passwords: per address, per client address and per person.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { loginCodes, sales, users } from "#api/db/schema";
import { DEMO_PASSWORD } from "#api/db/demo-accounts";
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";
import { buy, makeOption, newEmail } from "./_helpers";
import { codeFor, from, mailedCode, mailKinds, passwordLogin, provenAccount, wrong } from "./_verification";

withFileApi();

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
