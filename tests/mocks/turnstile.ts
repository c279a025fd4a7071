/**
 * Cloudflare Turnstile's siteverify for msw: form-encoded secret/response/remoteip in, the
 * documented JSON out. "valid-token" passes once (tokens are single-use), anything else fails
 * with invalid-input-response; `down` makes the endpoint unreachable, `status` answers an error.
 */
import { http, HttpResponse, type HttpHandler } from "msw";
import { TURNSTILE_VERIFY_URL } from "#rules/captcha";

export const TURNSTILE_TEST_SECRET = "1x0000000000000000000000000000000AA";

export type TurnstileMockState = { calls: URLSearchParams[]; used: Set<string>; down: boolean; status: number };
export const createTurnstileMockState = (): TurnstileMockState => ({ calls: [], used: new Set(), down: false, status: 200 });

export function turnstileHandlers(state: TurnstileMockState): HttpHandler[] {
  return [
    http.post(TURNSTILE_VERIFY_URL, async ({ request }) => {
      if (state.down) return HttpResponse.error();
      const form = new URLSearchParams(await request.text());
      state.calls.push(form);
      if (state.status !== 200) return new HttpResponse("upstream error", { status: state.status });
      if (form.get("secret") !== TURNSTILE_TEST_SECRET)
        return HttpResponse.json({ success: false, "error-codes": ["invalid-input-secret"] });
      const token = form.get("response") ?? "";
      if (token === "valid-token" && !state.used.has(token)) {
        state.used.add(token);
        return HttpResponse.json({ success: true, challenge_ts: new Date().toISOString(), hostname: "localhost", "error-codes": [] });
      }
      return HttpResponse.json({
        success: false,
        "error-codes": [state.used.has(token) ? "timeout-or-duplicate" : "invalid-input-response"],
      });
    }),
  ];
}
