import { createHmac } from "node:crypto";
import { createRemoteJWKSet, errors, jwtVerify } from "jose";
import type { Config } from "#platform/config.server";
import { ID_TOKEN_ALGORITHMS, SOCIAL_ENDPOINTS, SOCIAL_MESSAGES, type SocialProvider } from "#rules/social";
import { HttpError } from "#api/http";

/** Who the provider says the person is. Only a confirmed address ever reaches an account. */
export type SocialIdentity = { email: string; firstName?: string; lastName?: string };

const PROVIDER_TIMEOUT_MS = 8_000;

const invalid = (p: SocialProvider) => new HttpError(401, SOCIAL_MESSAGES.invalidToken(p), { code: "invalid_social_token" });
const unavailable = (p: SocialProvider) => new HttpError(503, SOCIAL_MESSAGES.unavailable(p), { code: "provider_unavailable" });
const noEmail = (p: SocialProvider) => new HttpError(400, SOCIAL_MESSAGES.noEmail(p), { code: "no_verified_email" });

// One key set per provider and process: jose caches the keys and refetches them (with a cooldown)
// when a token names a key it has not seen, which is how providers rotate.
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keySet(url: string) {
  let set = keySets.get(url);
  if (!set) keySets.set(url, (set = createRemoteJWKSet(new URL(url), { timeoutDuration: PROVIDER_TIMEOUT_MS })));
  return set;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim().slice(0, 150) : undefined);

/**
 * A Google or Apple ID token: signature by a key of the provider's published set (RS256 only),
 * issuer, audience = our client id, expiry, and the nonce of our authorization request when the
 * caller sends one (the storefront always does; a native app may not have one).
 */
export async function verifyIdToken(
  config: Config,
  provider: "google" | "apple",
  idToken: string,
  nonce?: string,
): Promise<SocialIdentity> {
  const endpoints = SOCIAL_ENDPOINTS[provider];
  const audience = provider === "google" ? config.GOOGLE_CLIENT_ID! : config.APPLE_CLIENT_ID!;
  let payload;
  try {
    ({ payload } = await jwtVerify(idToken, keySet(endpoints.jwks), {
      algorithms: ID_TOKEN_ALGORITHMS,
      issuer: [...endpoints.issuers],
      audience,
      requiredClaims: ["exp", "iat", "sub"],
      clockTolerance: 60,
    }));
  } catch (error) {
    throw isProviderDown(error) ? unavailable(provider) : invalid(provider);
  }
  if (nonce !== undefined && payload.nonce !== nonce) throw invalid(provider);
  const email = text(payload.email)?.toLowerCase();
  // Apple writes the flag as the string "true"; Google as a boolean.
  const verified = payload.email_verified === true || payload.email_verified === "true";
  if (!email || !verified) throw noEmail(provider);
  return { email, firstName: text(payload.given_name), lastName: text(payload.family_name) };
}

/** The key set could not be fetched or read: the provider's fault, not the token's. */
function isProviderDown(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  // fetch's own failures (DNS, refused connection, a 5xx answer) are not JOSE errors.
  return !(error instanceof errors.JOSEError);
}

/**
 * A Facebook user access token has no signature we can check: the Graph API says whether it is
 * valid and for which app (debug_token with our app token), and only a token issued to our app is
 * accepted — a token some other app obtained from the person must not log them in here. Then
 * /me gives the address; appsecret_proof binds that call to our secret.
 */
export async function verifyFacebookToken(config: Config, accessToken: string): Promise<SocialIdentity> {
  const appId = config.FACEBOOK_APP_ID!;
  const secret = config.FACEBOOK_APP_SECRET!;
  const graph = SOCIAL_ENDPOINTS.facebook.graph;
  const debug = await graphGet(
    `${graph}/debug_token?${new URLSearchParams({ input_token: accessToken, access_token: `${appId}|${secret}` })}`,
  );
  const data = (debug as { data?: { app_id?: unknown; is_valid?: unknown; user_id?: unknown; expires_at?: unknown } }).data;
  const expiresAt = typeof data?.expires_at === "number" ? data.expires_at : 0;
  if (
    !data ||
    data.is_valid !== true ||
    String(data.app_id) !== appId ||
    !data.user_id ||
    (expiresAt !== 0 && expiresAt * 1000 < Date.now())
  ) {
    throw invalid("facebook");
  }
  const proof = createHmac("sha256", secret).update(accessToken).digest("hex");
  const me = (await graphGet(
    `${graph}/me?${new URLSearchParams({ fields: "id,email,first_name,last_name", access_token: accessToken, appsecret_proof: proof })}`,
  )) as Record<string, unknown>;
  if (String(me.id) !== String(data.user_id)) throw invalid("facebook");
  // Facebook only hands out an address the person has confirmed; none when they declined it.
  const email = text(me.email)?.toLowerCase();
  if (!email) throw noEmail("facebook");
  return { email, firstName: text(me.first_name), lastName: text(me.last_name) };
}

/** Graph answers 4xx with an error body for a bad token; anything else going wrong is an outage. */
async function graphGet(url: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw unavailable("facebook");
  }
  const body = await response.json().catch(() => null);
  if (response.status >= 500 || body === null || typeof body !== "object") throw unavailable("facebook");
  if (!response.ok) throw invalid("facebook");
  return body;
}
