/**
 * An address opens an account only once its owner proved it, and no answer tells a stranger
 * whether an address has an account: the inbox learns what happened, the asker does not.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { query } from "#api/db/client";
import { users } from "#api/db/schema";
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from "#api/db/demo-accounts";
import { issueTokens } from "#api/auth/tokens";
import { call } from "#tests/support/api-server";
import { api, withFileApi } from "./_file-api";
import { buy, makeOption, newEmail } from "./_helpers";
import { bearer, codeFor, from, mailedCode, mailKinds, passwordLogin, provenAccount, wrong } from "./_verification";

withFileApi();

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
