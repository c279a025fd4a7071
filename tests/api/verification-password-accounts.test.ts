/**
 * Accounts with a password: registration and activation by code, a forgotten password, a new
 * password, a new address; and the notices mailed where a code cannot be.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#api/db/schema";
import { messages } from "#api/mail/messages";
import { PermanentMailError } from "#api/mail/context";
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";
import { newEmail } from "./_helpers";
import { codeFor, from, mailedCode, wrong } from "./_verification";

withFileApi();

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
