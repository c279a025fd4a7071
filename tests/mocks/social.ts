/**
 * Google, Apple and Facebook for msw, on their real URLs (rules/social.ts): the published key sets
 * (JWKS) with RSA keys made here, the token endpoints of the authorization-code flow, and the Graph
 * API's debug_token and /me. ID tokens are signed with these keys, so the code under test verifies
 * real signatures.
 *
 * The authorization code is what the provider's consent page would hand back; here it is readable
 * (mockAuthorizationCode): it carries who consented and what the authorization request asked (the
 * PKCE challenge, nonce, redirect_uri), and the token endpoint checks those the way the provider
 * does — a wrong code_verifier, redirect_uri or secret is refused.
 */
import { createHash, createHmac, createPublicKey, randomUUID, type KeyObject } from "node:crypto";
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from "jose";
import { http, HttpResponse, type HttpHandler } from "msw";
import { SOCIAL_ENDPOINTS } from "#rules/social";

type Keys = { privateKey: CryptoKey; jwk: JWK };

export type SocialMockState = {
  google: { clientId: string; clientSecret: string; keys: Keys };
  apple: { clientId: string; teamId: string; keyId: string; clientSecret?: string; clientSecretKey?: KeyObject; keys: Keys };
  facebook: { appId: string; appSecret: string };
  /** Facebook user tokens handed out: token → app and person. */
  facebookTokens: Map<string, { appId: string; userId: string; email?: string; firstName?: string; expiresAt: number }>;
  /** Every request that reached a provider (method and URL), in order. */
  calls: { method: string; url: string }[];
  /** Makes every provider endpoint unreachable. */
  down: boolean;
};

/** What a consent page puts in the authorization code (see the top of this file). */
export type MockConsent = {
  email: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  nonce?: string;
  codeChallenge: string;
  redirectUri: string;
  /** The provider's token endpoint has an outage when this code is redeemed. */
  outage?: boolean;
};

export const mockAuthorizationCode = (consent: MockConsent) => Buffer.from(JSON.stringify(consent)).toString("base64url");
const readCode = (code: string): MockConsent | null => {
  try {
    return JSON.parse(Buffer.from(code, "base64url").toString("utf8")) as MockConsent;
  } catch {
    return null;
  }
};

async function rsaKeys(): Promise<Keys> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: "RS256", use: "sig" } };
}

export async function createSocialMockState(
  init: {
    googleClientId?: string;
    googleClientSecret?: string;
    appleClientId?: string;
    appleTeamId?: string;
    appleKeyId?: string;
    /** The .p8 key the shop signs its client secret with; the mock checks that JWT with it. */
    applePrivateKey?: string;
    /** Or a fixed client secret the shop sends as it is. */
    appleClientSecret?: string;
    facebookAppId?: string;
    facebookAppSecret?: string;
  } = {},
): Promise<SocialMockState> {
  return {
    google: {
      clientId: init.googleClientId ?? "google-client-test",
      clientSecret: init.googleClientSecret ?? "google-secret-test",
      keys: await rsaKeys(),
    },
    apple: {
      clientId: init.appleClientId ?? "es.ofertas.web",
      teamId: init.appleTeamId ?? "TEAM123456",
      keyId: init.appleKeyId ?? "KEY1234567",
      clientSecret: init.appleClientSecret,
      clientSecretKey: init.applePrivateKey ? createPublicKey(init.applePrivateKey) : undefined,
      keys: await rsaKeys(),
    },
    facebook: { appId: init.facebookAppId ?? "1234567890", appSecret: init.facebookAppSecret ?? "facebook-secret-test" },
    facebookTokens: new Map(),
    calls: [],
    down: false,
  };
}

/** An ID token as Google or Apple would sign it; override any claim (aud, iss, exp…) to spoil it. */
export async function signIdToken(
  state: SocialMockState,
  provider: "google" | "apple",
  claims: Record<string, unknown> & { email?: string },
  options: { keys?: Keys; alg?: string } = {},
): Promise<string> {
  const keys = options.keys ?? state[provider].keys;
  const now = Math.floor(Date.now() / 1000);
  const base = {
    iss: SOCIAL_ENDPOINTS[provider].issuers[0],
    aud: state[provider].clientId,
    sub: `${provider}-${claims.email ?? randomUUID()}`,
    iat: now,
    exp: now + 3600,
    email_verified: provider === "apple" ? "true" : true,
  };
  return new SignJWT({ ...base, ...claims }).setProtectedHeader({ alg: options.alg ?? "RS256", kid: keys.jwk.kid }).sign(keys.privateKey);
}

/** A Facebook user token as the OAuth dialog would give it, for our app unless told otherwise. */
export function facebookToken(state: SocialMockState, person: { email?: string; firstName?: string; appId?: string; expiresAt?: number }) {
  const token = `EAA${randomUUID().replace(/-/g, "")}`;
  state.facebookTokens.set(token, {
    appId: person.appId ?? state.facebook.appId,
    userId: String(10_000_000 + state.facebookTokens.size),
    email: person.email,
    firstName: person.firstName,
    expiresAt: person.expiresAt ?? Math.floor(Date.now() / 1000) + 3600,
  });
  return token;
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const oauthError = (error: string, description: string, status = 400) =>
  HttpResponse.json({ error, error_description: description }, { status });
const graphError = (message: string, code = 190) =>
  HttpResponse.json({ error: { message, type: "OAuthException", code, fbtrace_id: "mock" } }, { status: 400 });

/** The code's consent, if the PKCE verifier and redirect_uri match what the authorization asked. */
function redeem(form: URLSearchParams): MockConsent | Response {
  const consent = readCode(form.get("code") ?? "");
  if (!consent) return oauthError("invalid_grant", "Malformed auth code.");
  if (consent.outage)
    return new Response("<html><body>503 Service Unavailable</body></html>", { status: 503, headers: { "Content-Type": "text/html" } });
  if (form.get("redirect_uri") !== consent.redirectUri) return oauthError("redirect_uri_mismatch", "Bad Request");
  if (s256(form.get("code_verifier") ?? "") !== consent.codeChallenge) return oauthError("invalid_grant", "Invalid code verifier.");
  return consent;
}

export function socialHandlers(state: SocialMockState): HttpHandler[] {
  const record = (request: Request) => state.calls.push({ method: request.method, url: request.url });
  const jwks = (provider: "google" | "apple") =>
    http.get(SOCIAL_ENDPOINTS[provider].jwks, ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      return HttpResponse.json({ keys: [state[provider].keys.jwk] });
    });

  return [
    jwks("google"),
    jwks("apple"),
    http.post(SOCIAL_ENDPOINTS.google.token, async ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      const form = new URLSearchParams(await request.text());
      if (form.get("grant_type") !== "authorization_code") return oauthError("unsupported_grant_type", "Invalid grant_type");
      if (form.get("client_id") !== state.google.clientId || form.get("client_secret") !== state.google.clientSecret) {
        return oauthError("invalid_client", "Unauthorized", 401);
      }
      const consent = redeem(form);
      if (consent instanceof Response) return consent;
      const idToken = await signIdToken(state, "google", {
        email: consent.email,
        email_verified: consent.emailVerified ?? true,
        given_name: consent.givenName,
        family_name: consent.familyName,
        nonce: consent.nonce,
        azp: state.google.clientId,
      });
      return HttpResponse.json({
        access_token: `ya29.${randomUUID()}`,
        expires_in: 3599,
        token_type: "Bearer",
        scope: "openid email profile",
        id_token: idToken,
      });
    }),
    http.post(SOCIAL_ENDPOINTS.apple.token, async ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      const form = new URLSearchParams(await request.text());
      if (form.get("grant_type") !== "authorization_code") return oauthError("unsupported_grant_type", "");
      if (form.get("client_id") !== state.apple.clientId || !(await appleClientSecretOk(state, form.get("client_secret") ?? ""))) {
        return oauthError("invalid_client", "");
      }
      const consent = redeem(form);
      if (consent instanceof Response) return consent;
      const idToken = await signIdToken(state, "apple", { email: consent.email, nonce: consent.nonce, nonce_supported: true });
      return HttpResponse.json({
        access_token: `a${randomUUID()}`,
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: `r${randomUUID()}`,
        id_token: idToken,
      });
    }),
    http.get(SOCIAL_ENDPOINTS.facebook.token, ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      const query = new URL(request.url).searchParams;
      if (query.get("client_id") !== state.facebook.appId || query.get("client_secret") !== state.facebook.appSecret) {
        return graphError("Error validating client secret.", 1);
      }
      const consent = redeem(query);
      if (consent instanceof Response) return consent.status === 503 ? consent : graphError("Invalid verification code format.", 100);
      return HttpResponse.json({
        access_token: facebookToken(state, { email: consent.email, firstName: consent.givenName }),
        token_type: "bearer",
        expires_in: 5183944,
      });
    }),
    http.get(`${SOCIAL_ENDPOINTS.facebook.graph}/debug_token`, ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      const query = new URL(request.url).searchParams;
      // The app token (app id|secret) decides whose tokens may be inspected.
      if (query.get("access_token") !== `${state.facebook.appId}|${state.facebook.appSecret}`)
        return graphError("Invalid OAuth access token.");
      const token = state.facebookTokens.get(query.get("input_token") ?? "");
      if (!token) return HttpResponse.json({ data: { is_valid: false, error: { code: 190, message: "Invalid OAuth access token." } } });
      return HttpResponse.json({
        data: {
          app_id: token.appId,
          type: "USER",
          application: "ofertas",
          expires_at: token.expiresAt,
          is_valid: token.expiresAt * 1000 > Date.now(),
          scopes: ["email", "public_profile"],
          user_id: token.userId,
        },
      });
    }),
    http.get(`${SOCIAL_ENDPOINTS.facebook.graph}/me`, ({ request }) => {
      record(request);
      if (state.down) return HttpResponse.error();
      const query = new URL(request.url).searchParams;
      const accessToken = query.get("access_token") ?? "";
      const token = state.facebookTokens.get(accessToken);
      if (!token) return graphError("Invalid OAuth access token.");
      const proof = createHmac("sha256", state.facebook.appSecret).update(accessToken).digest("hex");
      if (query.get("appsecret_proof") !== proof) return graphError("Invalid appsecret_proof provided in the API argument", 100);
      return HttpResponse.json({
        id: token.userId,
        ...(token.email ? { email: token.email } : {}),
        ...(token.firstName ? { first_name: token.firstName } : {}),
      });
    }),
  ];
}

/** Apple's rule for the client secret: an ES256 JWT by our team, for our client id, from our key. */
async function appleClientSecretOk(state: SocialMockState, secret: string): Promise<boolean> {
  if (state.apple.clientSecret) return secret === state.apple.clientSecret;
  if (!state.apple.clientSecretKey) return false;
  try {
    const { payload, protectedHeader } = await jwtVerify(secret, state.apple.clientSecretKey, {
      algorithms: ["ES256"],
      issuer: state.apple.teamId,
      audience: "https://appleid.apple.com",
      subject: state.apple.clientId,
    });
    return protectedHeader.kid === state.apple.keyId && typeof payload.exp === "number";
  } catch {
    return false;
  }
}
