import { CAPTCHA_MESSAGES, TURNSTILE_VERIFY_URL } from "#rules/captcha";
import type { Config } from "#platform/config.server";
import { verifyNoScriptFormProof } from "#platform/signatures.server";
import { HttpError } from "#api/http";

export type CaptchaResult = "ok" | "invalid" | "unavailable";

/** Asks Turnstile whether a token is genuine, fresh and unused. Never throws. */
export async function verifyCaptcha(secret: string, token: string, remoteIp?: string, timeoutMs = 5_000): Promise<CaptchaResult> {
  try {
    const body = new URLSearchParams({ secret, response: token });
    if (remoteIp) body.set("remoteip", remoteIp);
    const res = await fetch(TURNSTILE_VERIFY_URL, { method: "POST", body, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return "unavailable";
    const answer = (await res.json()) as { success?: unknown; "error-codes"?: unknown };
    if (answer.success === true) return "ok";
    // Cloudflare's own trouble is not the visitor's fault, but the form still does not go through.
    const codes = Array.isArray(answer["error-codes"]) ? answer["error-codes"] : [];
    return codes.includes("internal-error") ? "unavailable" : "invalid";
  } catch {
    return "unavailable";
  }
}

/**
 * For the API endpoints behind the send-code, registration and become-partner forms, when a
 * captcha is configured. A token must verify; a provider that cannot answer fails closed, with a
 * message that says so. No token is accepted only with the storefront's proof that its form came
 * in without JavaScript (no widget could run; the rate limits and the honeypot stand alone
 * there): a bare call to the API with neither is refused.
 */
export async function requireCaptcha(
  config: Pick<Config, "CAPTCHA_SECRET" | "sessionSecrets">,
  body: unknown,
  email: string,
  remoteIp?: string,
): Promise<void> {
  const secret = config.CAPTCHA_SECRET;
  if (!secret) return;
  const { captcha_token: token, captcha_noscript: proof } = (body ?? {}) as { captcha_token?: unknown; captcha_noscript?: unknown };
  if (token === undefined || token === null || token === "") {
    if (typeof proof === "string" && proof.length < 200 && verifyNoScriptFormProof(config.sessionSecrets, email, proof)) return;
    throw new HttpError(400, CAPTCHA_MESSAGES.missing);
  }
  if (typeof token !== "string" || token.length > 2048) throw new HttpError(400, CAPTCHA_MESSAGES.invalid);
  const result = await verifyCaptcha(secret, token, remoteIp);
  if (result === "invalid") throw new HttpError(400, CAPTCHA_MESSAGES.invalid);
  if (result === "unavailable") throw new HttpError(503, CAPTCHA_MESSAGES.unavailable);
}
