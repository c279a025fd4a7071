import { CAPTCHA_MESSAGES, TURNSTILE_VERIFY_URL } from "#lib/captcha";
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
 * For the API endpoints behind the send-code, registration and become-partner forms. With no
 * keys configured, or no token (the visitor has no JavaScript, so no widget ran), the rate
 * limits and the honeypot stand alone. A token that is sent must verify; a provider that cannot
 * answer fails closed, with a message that says so.
 */
export async function requireCaptcha(secret: string | undefined, token: unknown, remoteIp?: string): Promise<void> {
  if (!secret || token === undefined || token === null || token === "") return;
  if (typeof token !== "string" || token.length > 2048) throw new HttpError(400, CAPTCHA_MESSAGES.invalid);
  const result = await verifyCaptcha(secret, token, remoteIp);
  if (result === "invalid") throw new HttpError(400, CAPTCHA_MESSAGES.invalid);
  if (result === "unavailable") throw new HttpError(503, CAPTCHA_MESSAGES.unavailable);
}
