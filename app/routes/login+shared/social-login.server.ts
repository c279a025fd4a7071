import { createHash, randomBytes } from "node:crypto";
import { redirect } from "@remix-run/node";
import { importPKCS8, SignJWT } from "jose";
import type { TokenPair } from "#contract/accounts";
import { sign } from "#platform/signatures.server";
import { isSocialProviderEnabled, SOCIAL_ENDPOINTS, SOCIAL_MESSAGES, type SocialProvider } from "#rules/social";
import { ApiError, authApi } from "#app/api-client/client.server";
import { config } from "#app/env.server";
import { viewer } from "#app/state/auth.server";
import { completeLogin } from "./login.server";
import { requestOrigin } from "#app/document/origin.server";
import { commitSession, field, flash, getSession } from "#app/state/session.server";
import { currentRequestId, logger } from "#platform/logger.server";
import { sameSecret } from "#platform/same-secret.server";

/**
 * The server side of «Continuar con Google / Apple / Facebook»: the OAuth 2.0 authorization-code
 * flow with PKCE (S256), a state and (OpenID Connect) a nonce. State and nonce are kept in the
 * signed session cookie, so it works with JavaScript off; the PKCE verifier is never stored nor
 * sent to the browser: it is an HMAC of the state under the session secret, made again here when
 * the code is exchanged. The browser only ever follows redirects; the code is exchanged here, and
 * the provider's token goes to the API (POST /auth/jwt/{provider}/), which checks it (signature,
 * audience, expiry, our nonce) and decides whether it proves an address.
 */

/** How long a started login may take at the provider before its state is refused. */
const FLOW_MAX_AGE_MS = 15 * 60_000;
const PROVIDER_TIMEOUT_MS = 10_000;

export const isEnabled = (provider: SocialProvider) => isSocialProviderEnabled(config(), provider);

/** Where the provider sends the person back; must be registered with it exactly (README). */
export const callbackUrl = (request: Request, provider: SocialProvider) => `${requestOrigin(request)}/login/social/${provider}/callback`;

const random = () => randomBytes(32).toString("base64url");

/** 43 base64url characters: a valid RFC 7636 verifier, known only to this server. */
const pkceVerifier = (state: string) => sign(config().sessionSecrets, "pkce", state);

/** GET /login/social/{provider}: remember state, verifier and nonce, then off to the provider. */
export async function startSocialLogin(request: Request, provider: SocialProvider, redirectTo: string) {
  const session = await getSession(request);
  const flow = { provider, state: random(), nonce: random(), redirectTo, startedAt: Date.now() };
  session.set("socialLogin", flow);
  const c = config();
  const params: Record<string, string> = {
    redirect_uri: callbackUrl(request, provider),
    response_type: "code",
    state: flow.state,
    code_challenge: createHash("sha256").update(pkceVerifier(flow.state)).digest("base64url"),
    code_challenge_method: "S256",
  };
  if (provider === "google")
    Object.assign(params, { client_id: c.GOOGLE_CLIENT_ID!, scope: "openid email profile", nonce: flow.nonce, prompt: "select_account" });
  // Apple posts its answer (form_post) whenever the name or email is asked for.
  if (provider === "apple")
    Object.assign(params, { client_id: c.APPLE_CLIENT_ID!, scope: "name email", response_mode: "form_post", nonce: flow.nonce });
  if (provider === "facebook") Object.assign(params, { client_id: c.FACEBOOK_APP_ID!, scope: "email public_profile" });
  return redirect(`${SOCIAL_ENDPOINTS[provider].authorize}?${new URLSearchParams(params)}`, {
    headers: { "Set-Cookie": await commitSession(session), "Cache-Control": "no-store" },
  });
}

/**
 * Apple's form_post arrives as a cross-site POST, which carries no SameSite=Lax cookie: the
 * answer is handed on as a same-site GET of the callback, which does carry the session with the
 * state to compare. Only the fields the GET reads are passed; Apple's `user` JSON (the name, sent
 * the first time only) becomes first_name/last_name.
 */
export function relayFormPost(provider: SocialProvider, form: FormData) {
  const out = new URLSearchParams();
  for (const key of ["code", "state", "error"]) {
    const value = form.get(key);
    if (typeof value === "string" && value) out.set(key, value.slice(0, 2000));
  }
  const user = form.get("user");
  if (typeof user === "string") {
    try {
      const name = (JSON.parse(user) as { name?: { firstName?: unknown; lastName?: unknown } }).name;
      if (typeof name?.firstName === "string") out.set("first_name", name.firstName.slice(0, 150));
      if (typeof name?.lastName === "string") out.set("last_name", name.lastName.slice(0, 150));
    } catch {
      // A name we cannot read is just not used.
    }
  }
  return redirect(`/login/social/${provider}/callback?${out}`, { status: 303, headers: { "Cache-Control": "no-store" } });
}

class SocialLoginFailure extends Error {}

/** GET /login/social/{provider}/callback: check state, exchange the code, log in through the API. */
export async function finishSocialLogin(request: Request, provider: SocialProvider) {
  const session = await getSession(request);
  const flow = field(session, "socialLogin");
  // One use: whatever happens next, this state cannot be replayed.
  session.unset("socialLogin");
  const redirectTo = flow?.redirectTo ?? "/";
  const query = new URL(request.url).searchParams;
  const fail = async (text: string) => {
    flash(session, { type: "error", text });
    return redirect(`/login?${new URLSearchParams({ redirectTo })}`, {
      status: 303,
      headers: { "Set-Cookie": await commitSession(session), "Cache-Control": "no-store" },
    });
  };

  const state = query.get("state") ?? "";
  // Someone already logged in coming back here (the back button after a login) has nothing to fix.
  if (!flow && viewer(session)) return redirect("/", { status: 303, headers: { "Cache-Control": "no-store" } });
  if (!flow || flow.provider !== provider || !sameSecret(state, flow.state) || Date.now() - flow.startedAt > FLOW_MAX_AGE_MS) {
    return fail(SOCIAL_MESSAGES.expired(provider));
  }
  const error = query.get("error");
  if (error) {
    // access_denied (Google, Facebook), user_cancelled_authorize (Apple): the person said no.
    return fail(/denied|cancel/i.test(error) ? SOCIAL_MESSAGES.cancelled(provider) : SOCIAL_MESSAGES.unavailable(provider));
  }
  const code = query.get("code");
  if (!code) return fail(SOCIAL_MESSAGES.expired(provider));

  let pair: TokenPair;
  try {
    const token = await exchangeCode(request, provider, code, pkceVerifier(flow.state));
    pair = await authApi.social(
      provider,
      provider === "facebook"
        ? { access_token: token }
        : {
            id_token: token,
            nonce: flow.nonce,
            first_name: query.get("first_name") ?? undefined,
            last_name: query.get("last_name") ?? undefined,
          },
      request,
    );
  } catch (e) {
    if (e instanceof SocialLoginFailure) return fail(e.message);
    if (e instanceof ApiError && e.status < 500) return fail(e.message);
    // Anything else (the API unreachable, a bug) is still a message on /login, never a 500.
    if (!(e instanceof ApiError)) logger.error({ err: e, provider, reqId: currentRequestId() }, "Inicio de sesión social fallido.");
    return fail(SOCIAL_MESSAGES.unavailable(provider));
  }
  return completeLogin(request, session, pair, redirectTo);
}

/**
 * The code for the provider's token: the ID token (Google, Apple) or the user access token
 * (Facebook). The provider being unreachable or answering 5xx is an outage; a 4xx means the code
 * was refused (used twice, too old).
 */
async function exchangeCode(request: Request, provider: SocialProvider, code: string, verifier: string): Promise<string> {
  const c = config();
  const redirectUri = callbackUrl(request, provider);
  let response: Response;
  try {
    if (provider === "facebook") {
      const query = new URLSearchParams({
        client_id: c.FACEBOOK_APP_ID!,
        client_secret: c.FACEBOOK_APP_SECRET!,
        redirect_uri: redirectUri,
        code,
        code_verifier: verifier,
      });
      response = await fetch(`${SOCIAL_ENDPOINTS.facebook.token}?${query}`, {
        headers: { Accept: "application/json" },
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } else {
      const body = new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
        client_id: provider === "google" ? c.GOOGLE_CLIENT_ID! : c.APPLE_CLIENT_ID!,
        client_secret: provider === "google" ? c.GOOGLE_CLIENT_SECRET! : await appleClientSecret(),
      });
      response = await fetch(SOCIAL_ENDPOINTS[provider].token, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
        body,
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    }
  } catch {
    throw new SocialLoginFailure(SOCIAL_MESSAGES.unavailable(provider));
  }
  const answer = (await response.json().catch(() => null)) as { id_token?: unknown; access_token?: unknown } | null;
  if (response.status >= 500 || !answer) throw new SocialLoginFailure(SOCIAL_MESSAGES.unavailable(provider));
  const token = provider === "facebook" ? answer.access_token : answer.id_token;
  if (!response.ok || typeof token !== "string") throw new SocialLoginFailure(SOCIAL_MESSAGES.expired(provider));
  return token;
}

let appleSecret: { value: string; until: number } | undefined;

/**
 * Apple's client secret is a JWT we sign (ES256, the .p8 key): issuer our team, subject our
 * client id, audience Apple. Made for an hour and reused for most of it. APPLE_CLIENT_SECRET,
 * when set, is used as it is.
 */
async function appleClientSecret(): Promise<string> {
  const c = config();
  if (c.APPLE_CLIENT_SECRET) return c.APPLE_CLIENT_SECRET;
  if (appleSecret && appleSecret.until > Date.now()) return appleSecret.value;
  const key = await importPKCS8(c.APPLE_PRIVATE_KEY!.replace(/\\n/g, "\n"), "ES256");
  const now = Math.floor(Date.now() / 1000);
  const value = await new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: c.APPLE_KEY_ID! })
    .setIssuer(c.APPLE_TEAM_ID!)
    .setSubject(c.APPLE_CLIENT_ID!)
    .setAudience("https://appleid.apple.com")
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(key);
  appleSecret = { value, until: Date.now() + 50 * 60_000 };
  return value;
}
