import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { loginCodes, sales, users } from "#api/db/schema";
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
    const [row] = await api.db.select().from(loginCodes).where(eq(loginCodes.email, email)).orderBy(sql`created_at DESC`).limit(1);
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 10 * 60_000)).toBeLessThan(2000);
    await api.db.update(loginCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(loginCodes.id, row.id));
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
    for (let i = 0; i < 5; i++) expect((await call(api, "/verification/send-code/", { body: { email }, headers: from() })).status).toBe(200);
    const sixth = await call(api, "/verification/send-code/", { body: { email }, headers: from() });
    expect(sixth.status).toBe(429);
    expect(sixth.body.detail).toMatch(/Espera un rato/);
  });

  it("per client address: 30 codes an hour, whatever the emails", async () => {
    const headers = { "X-Forwarded-For": "10.250.0.1" };
    for (let i = 0; i < 30; i++) expect((await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers })).status).toBe(200);
    const over = await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBeTruthy();
    // Another address is not affected.
    expect((await call(api, "/verification/send-code/", { body: { email: newEmail("ip") }, headers: { "X-Forwarded-For": "10.250.0.2" } })).status).toBe(200);
  });
});

describe("password accounts (djoser)", () => {
  it("register → inactive → activation code → login; reset password by code; set_password", async () => {
    const email = newEmail("registro");
    const created = await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, is_active: false });
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "una-clave-larga" } })).status).toBe(401);
    const dup = await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() });
    expect(dup.status).toBe(400);
    // Field errors are always under `errors`, whether the schema or the service found them.
    expect(dup.body).toEqual({ detail: expect.any(String), errors: { email: [expect.any(String)] } });
    const mismatch = await call(api, "/auth/users/", { body: { email: newEmail(), password: "una-clave-larga", re_password: "otra-clave" }, headers: from() });
    expect(mismatch.body.detail).toMatch(/no coinciden/);
    expect(mismatch.body).toEqual({ detail: expect.any(String), errors: { re_password: [expect.stringMatching(/no coinciden/)] } });
    expect((await call(api, "/auth/users/", { body: { email: newEmail(), password: "corta", re_password: "corta" }, headers: from() })).status).toBe(400);

    const code = await mailedCode(email, "account-activation");
    expect((await call(api, "/auth/users/activation/", { body: { uid: created.body.id, token: wrong(code) } })).status).toBe(400);
    const activated = await call(api, "/auth/users/activation/", { body: { uid: created.body.id, token: code } });
    // The code proves the address: activation logs the person in, like a code login.
    expect(activated.status).toBe(200);
    expect(activated.body.access.split(".")).toHaveLength(3);
    expect((await call(api, "/auth/users/activation/", { body: { uid: created.body.id, token: code } })).status).toBe(403);
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
    const badCurrent = await call(api, "/auth/users/set_password/", { body: { current_password: "mal", new_password: "tercera-clave", re_new_password: "tercera-clave" }, headers: auth });
    expect(badCurrent.status).toBe(400);
    expect(badCurrent.body).toEqual({ detail: "La contraseña actual no es correcta.", errors: { current_password: ["La contraseña actual no es correcta."] } });
    expect((await call(api, "/auth/users/set_password/", { body: { current_password: "otra-clave-larga", new_password: "tercera-clave", re_new_password: "tercera-clave" }, headers: auth })).status).toBe(204);
    expect((await call(api, "/auth/jwt/create/", { body: { email, password: "tercera-clave" } })).status).toBe(200);
  });

  it("activation and reset_password_confirm take the email instead of the uid (the mailed links name the email)", async () => {
    const email = newEmail("porcorreo");
    expect((await call(api, "/auth/users/", { body: { email, password: "una-clave-larga", re_password: "una-clave-larga" }, headers: from() })).status).toBe(201);
    const code = await mailedCode(email, "account-activation");
    expect((await call(api, "/auth/users/activation/", { body: { email: newEmail("nadie"), token: code } })).status).toBe(400);
    expect((await call(api, "/auth/users/activation/", { body: { token: code } })).status).toBe(400);
    const activated = await call(api, "/auth/users/activation/", { body: { email: email.toUpperCase(), token: code } });
    expect(activated.status).toBe(200);
    expect((await call(api, "/auth/jwt/verify/", { body: { token: activated.body.access } })).status).toBe(200);

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
    const asked = await call(api, "/auth/users/set_email/", { body: { new_email: next, re_new_email: next }, headers: { ...auth, ...from() } });
    expect(asked.status).toBe(202);
    const code = await mailedCode(next, "email-change");
    expect((await call(api, "/auth/users/reset_email_confirm/", { body: { uid: me.id, token: code, new_email: newEmail("otro"), re_new_email: "x@y.es" } })).status).toBe(400);
    const done = await call(api, "/auth/users/reset_email_confirm/", { body: { uid: me.id, token: code, new_email: next, re_new_email: next } });
    // A fresh pair for the new address (the old family is revoked), so /cuenta stays logged in.
    expect(done.status).toBe(200);
    expect((await call(api, "/auth/jwt/refresh/", { body: { refresh: pair.refresh } })).status).toBe(401);
    expect((await call(api, "/auth/users/me/", { headers: { Authorization: `JWT ${done.body.access}` } })).body.email).toBe(next);
    const [row] = await api.db.select().from(users).where(eq(users.id, me.id));
    expect(row.email).toBe(next);
  });
});
