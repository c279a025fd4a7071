// @vitest-environment node
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireCaptcha, verifyCaptcha } from "#api/captcha";
import { HttpError } from "#api/http";
import { CAPTCHA_MESSAGES } from "#rules/captcha";
import { NOSCRIPT_PROOF_SECONDS, noScriptFormProof } from "#platform/signatures.server";
import { createTurnstileMockState, TURNSTILE_TEST_SECRET, turnstileHandlers, type TurnstileMockState } from "#tests/mocks/turnstile";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let turnstile: TurnstileMockState;
const secrets = ["un-secreto-de-prueba-largo", "el-secreto-anterior-largo"];
const keys = { CAPTCHA_SECRET: TURNSTILE_TEST_SECRET, sessionSecrets: secrets };
const EMAIL = "ana@correo.es";
/** requireCaptcha as an endpoint calls it: the configuration, the posted body, its address. */
const check = (token: unknown, c: { CAPTCHA_SECRET?: string; sessionSecrets: string[] } = keys) =>
  requireCaptcha(c, { captcha_token: token }, EMAIL);
beforeEach(() => {
  turnstile = createTurnstileMockState();
  server.use(...turnstileHandlers(turnstile));
});

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error("expected the form to be refused");
}

describe("captcha verification (Turnstile siteverify)", () => {
  it("accepts a valid token, sending the secret, the token and the visitor's address", async () => {
    expect(await verifyCaptcha(TURNSTILE_TEST_SECRET, "valid-token", "203.0.113.7")).toBe("ok");
    expect(turnstile.calls[0].get("secret")).toBe(TURNSTILE_TEST_SECRET);
    expect(turnstile.calls[0].get("response")).toBe("valid-token");
    expect(turnstile.calls[0].get("remoteip")).toBe("203.0.113.7");
    await expect(check("valid-token")).rejects.toThrow(); // single use
  });

  it("refuses an invalid token with a Spanish 400", async () => {
    expect(await verifyCaptcha(TURNSTILE_TEST_SECRET, "forged")).toBe("invalid");
    const error = await refusal(check("forged"));
    expect(error.status).toBe(400);
    expect(error.detail).toBe(CAPTCHA_MESSAGES.invalid);
  });

  it.each([
    ["unreachable", (s: TurnstileMockState) => (s.down = true)],
    ["answering 500", (s: TurnstileMockState) => (s.status = 500)],
  ])("fails closed when the provider is %s: 503 with a clear Spanish message", async (_label, breakIt) => {
    breakIt(turnstile);
    expect(await verifyCaptcha(TURNSTILE_TEST_SECRET, "valid-token")).toBe("unavailable");
    const error = await refusal(check("valid-token"));
    expect(error.status).toBe(503);
    expect(error.detail).toMatch(/no responde ahora mismo.*no hemos enviado el formulario/);
  });

  it("without keys it leaves the form to the rate limits and the honeypot", async () => {
    await expect(check("anything", { sessionSecrets: secrets })).resolves.toBeUndefined();
    await expect(check(undefined, { sessionSecrets: secrets })).resolves.toBeUndefined();
    expect(turnstile.calls).toHaveLength(0);
  });

  it("with keys, no token is accepted only with the storefront's no-script proof for that address, while fresh", async () => {
    for (const token of [undefined, null, ""]) {
      const error = await refusal(check(token));
      expect(error.status).toBe(400);
      expect(error.detail).toBe(CAPTCHA_MESSAGES.missing);
    }
    const now = Date.now();
    const proof = noScriptFormProof(secrets, EMAIL, now);
    await expect(requireCaptcha(keys, { captcha_noscript: proof }, EMAIL)).resolves.toBeUndefined();
    // Signed under the previous secret (rotation), for the same address written otherwise.
    await expect(
      requireCaptcha(keys, { captcha_noscript: noScriptFormProof(secrets.slice(1), EMAIL, now) }, " ANA@correo.es"),
    ).resolves.toBeUndefined();
    const refused = [
      noScriptFormProof(secrets, "otra@correo.es", now),
      noScriptFormProof(["un-secreto-que-no-es-el-nuestro"], EMAIL, now),
      noScriptFormProof(secrets, EMAIL, now - (NOSCRIPT_PROOF_SECONDS + 5) * 1000),
      noScriptFormProof(secrets, EMAIL, now + 120_000),
      "1",
      `${Math.floor(now / 1000)}.`,
      "x".repeat(500),
    ];
    for (const bad of refused)
      expect((await refusal(requireCaptcha(keys, { captcha_noscript: bad }, EMAIL))).detail).toBe(CAPTCHA_MESSAGES.missing);
    expect((await refusal(requireCaptcha(keys, { captcha_noscript: 7 }, EMAIL))).status).toBe(400);
    expect(turnstile.calls).toHaveLength(0);
  });

  it("refuses a token that is not text without asking the provider", async () => {
    expect((await refusal(check(["a", "b"]))).status).toBe(400);
    expect((await refusal(check("x".repeat(3000)))).status).toBe(400);
    expect(turnstile.calls).toHaveLength(0);
  });
});
