// @vitest-environment node
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { requireCaptcha, verifyCaptcha } from "#api/captcha";
import { HttpError } from "#api/http";
import { CAPTCHA_MESSAGES } from "#lib/captcha";
import { createTurnstileMockState, TURNSTILE_TEST_SECRET, turnstileHandlers, type TurnstileMockState } from "#tests/mocks/turnstile";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

let turnstile: TurnstileMockState;
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
    await expect(requireCaptcha(TURNSTILE_TEST_SECRET, "valid-token")).rejects.toThrow(); // single use
  });

  it("refuses an invalid token with a Spanish 400", async () => {
    expect(await verifyCaptcha(TURNSTILE_TEST_SECRET, "forged")).toBe("invalid");
    const error = await refusal(requireCaptcha(TURNSTILE_TEST_SECRET, "forged"));
    expect(error.status).toBe(400);
    expect(error.detail).toBe(CAPTCHA_MESSAGES.invalid);
  });

  it.each([
    ["unreachable", (s: TurnstileMockState) => (s.down = true)],
    ["answering 500", (s: TurnstileMockState) => (s.status = 500)],
  ])("fails closed when the provider is %s: 503 with a clear Spanish message", async (_label, breakIt) => {
    breakIt(turnstile);
    expect(await verifyCaptcha(TURNSTILE_TEST_SECRET, "valid-token")).toBe("unavailable");
    const error = await refusal(requireCaptcha(TURNSTILE_TEST_SECRET, "valid-token"));
    expect(error.status).toBe(503);
    expect(error.detail).toMatch(/no responde ahora mismo.*no hemos enviado el formulario/);
  });

  it("without keys or without a token (no JavaScript) it leaves the form to the rate limits and the honeypot", async () => {
    await expect(requireCaptcha(undefined, "anything")).resolves.toBeUndefined();
    await expect(requireCaptcha(TURNSTILE_TEST_SECRET, undefined)).resolves.toBeUndefined();
    await expect(requireCaptcha(TURNSTILE_TEST_SECRET, "")).resolves.toBeUndefined();
    expect(turnstile.calls).toHaveLength(0);
  });

  it("refuses a token that is not text without asking the provider", async () => {
    expect((await refusal(requireCaptcha(TURNSTILE_TEST_SECRET, ["a", "b"]))).status).toBe(400);
    expect((await refusal(requireCaptcha(TURNSTILE_TEST_SECRET, "x".repeat(3000)))).status).toBe(400);
    expect(turnstile.calls).toHaveLength(0);
  });
});
