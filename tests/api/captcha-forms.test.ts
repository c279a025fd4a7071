import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { loginCodes, partnerLeads, users } from "#api/db/schema";
import { CAPTCHA_MESSAGES } from "#rules/captcha";
import { noScriptFormProof } from "#platform/signatures.server";
import { createTurnstileMockState, TURNSTILE_TEST_SECRET, turnstileHandlers, type TurnstileMockState } from "#tests/mocks/turnstile";
import { call, startTestApi, type TestApi } from "#tests/support/api-server";

// Only Turnstile is mocked; our own API on 127.0.0.1 is reached for real.
const server = setupServer();
let api: TestApi;
let turnstile: TurnstileMockState;
let seq = 0;
const lead = () => ({
  business_name: "Bar Pepe",
  contact_name: "Pepe Ruiz",
  email: `pepe${++seq}@barpepe.es`,
  phone: "912 345 678",
  province: "Sevilla",
  category: "restaurants",
  message: "",
});

beforeAll(async () => {
  server.listen({ onUnhandledRequest: (req, print) => (new URL(req.url).hostname === "127.0.0.1" ? undefined : print.error()) });
  api = await startTestApi({ env: { CAPTCHA_SITE_KEY: "1x00000000000000000000AA", CAPTCHA_SECRET: TURNSTILE_TEST_SECRET } });
});
afterAll(async () => {
  server.close();
  await api.close();
});
beforeEach(() => {
  server.resetHandlers();
  turnstile = createTurnstileMockState();
  server.use(...turnstileHandlers(turnstile));
});

const leads = async () => (await api.db.select().from(partnerLeads)).map((r) => r.email);

describe("the become-partner form's captcha (Turnstile, verified by the API)", () => {
  it("a valid token passes and the lead is stored", async () => {
    const body = lead();
    expect((await call(api, "/sales/become_partner/", { body: { ...body, captcha_token: "valid-token" } })).status).toBe(201);
    expect(await leads()).toContain(body.email);
    expect(turnstile.calls[0].get("remoteip")).toBe("127.0.0.1");
  });

  it("an invalid token is refused with a Spanish 400 and nothing is stored", async () => {
    const body = lead();
    const res = await call(api, "/sales/become_partner/", { body: { ...body, captcha_token: "forged" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(CAPTCHA_MESSAGES.invalid);
    expect(await leads()).not.toContain(body.email);
  });

  it("the provider being down fails closed: 503 with a clear Spanish message, nothing stored", async () => {
    turnstile.down = true;
    const body = lead();
    const res = await call(api, "/sales/become_partner/", { body: { ...body, captcha_token: "valid-token" } });
    expect(res.status).toBe(503);
    expect(res.body.detail).toBe(CAPTCHA_MESSAGES.unavailable);
    expect(await leads()).not.toContain(body.email);
  });

  it("without a token, only the storefront's no-JavaScript form gets through: a bare API call is refused", async () => {
    const bare = lead();
    const refused = await call(api, "/sales/become_partner/", { body: bare });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(CAPTCHA_MESSAGES.missing);
    // A proof made for another address, or by someone without our secret, is no proof.
    const tried = [bare.email];
    for (const proofFor of [
      () => noScriptFormProof(api.config.sessionSecrets, "otra@correo.es"),
      (email: string) => noScriptFormProof(["un-secreto-que-no-es-el-nuestro"], email),
      () => "123.abc",
    ]) {
      const body = lead();
      tried.push(body.email);
      expect((await call(api, "/sales/become_partner/", { body: { ...body, captcha_noscript: proofFor(body.email) } })).status).toBe(400);
    }
    for (const email of tried) expect(await leads()).not.toContain(email);
    const noScript = lead();
    expect(
      (
        await call(api, "/sales/become_partner/", {
          body: { ...noScript, captcha_noscript: noScriptFormProof(api.config.sessionSecrets, noScript.email) },
        })
      ).status,
    ).toBe(201);
    expect(await leads()).toContain(noScript.email);
    expect(turnstile.calls).toHaveLength(0);
  });
});

describe("the send-code and registration forms' captcha", () => {
  const codesFor = async (email: string) => (await api.db.select().from(loginCodes).where(eq(loginCodes.email, email))).length;

  it("send-code: a valid token sends the code, a forged one is a Spanish 400, a provider down a 503; no code either way", async () => {
    const ok = `codigo${++seq}@correo.es`;
    expect((await call(api, "/verification/send-code/", { body: { email: ok, captcha_token: "valid-token" } })).status).toBe(200);
    expect(await codesFor(ok)).toBe(1);
    const forged = `codigo${++seq}@correo.es`;
    const refused = await call(api, "/verification/send-code/", { body: { email: forged, captcha_token: "forged" } });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(CAPTCHA_MESSAGES.invalid);
    turnstile.down = true;
    const down = await call(api, "/verification/send-code/", { body: { email: forged, captcha_token: "valid-token" } });
    expect(down.status).toBe(503);
    expect(down.body.detail).toBe(CAPTCHA_MESSAGES.unavailable);
    expect(await codesFor(forged)).toBe(0);
  });

  it("send-code without a token: a bare call (curl) mails nothing; the storefront's no-JavaScript form does", async () => {
    const bare = `codigo${++seq}@correo.es`;
    const refused = await call(api, "/verification/send-code/", { body: { email: bare } });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(CAPTCHA_MESSAGES.missing);
    expect(await codesFor(bare)).toBe(0);
    const noScript = `codigo${++seq}@correo.es`;
    expect(
      (
        await call(api, "/verification/send-code/", {
          body: { email: noScript, captcha_noscript: noScriptFormProof(api.config.sessionSecrets, noScript) },
        })
      ).status,
    ).toBe(200);
    expect(await codesFor(noScript)).toBe(1);
  });

  it("registration: a forged token or none creates no user; a valid one and the no-JavaScript form's proof both register", async () => {
    const body = (email: string) => ({ email, password: "clave-segura-2026", re_password: "clave-segura-2026" });
    const forged = `alta${++seq}@correo.es`;
    expect((await call(api, "/auth/users/", { body: { ...body(forged), captcha_token: "forged" } })).status).toBe(400);
    expect((await call(api, "/auth/users/", { body: body(forged) })).status).toBe(400);
    expect(await api.db.select().from(users).where(eq(users.email, forged))).toHaveLength(0);
    expect((await call(api, "/auth/users/", { body: { ...body(`alta${++seq}@correo.es`), captcha_token: "valid-token" } })).status).toBe(
      201,
    );
    const noScript = `alta${++seq}@correo.es`;
    expect(
      (
        await call(api, "/auth/users/", {
          body: { ...body(noScript), captcha_noscript: noScriptFormProof(api.config.sessionSecrets, noScript) },
        })
      ).status,
    ).toBe(201);
  });
});
