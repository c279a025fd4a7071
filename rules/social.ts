/**
 * Social login: Google, Apple and Facebook, written once for both halves. The API
 * checks a provider's token (POST /auth/jwt/{provider}/); the storefront runs the OAuth
 * authorization-code flow with PKCE that obtains it (/login/social/{provider}).
 */

export const SOCIAL_PROVIDERS = ["google", "apple", "facebook"] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export const isSocialProvider = (value: unknown): value is SocialProvider =>
  typeof value === "string" && (SOCIAL_PROVIDERS as readonly string[]).includes(value);

/** Brand names as each provider writes them, for labels and messages. */
export const SOCIAL_PROVIDER_NAMES: Record<SocialProvider, string> = { google: "Google", apple: "Apple", facebook: "Facebook" };

/** Graph API version of every Facebook call (a version lives at least two years). */
export const FACEBOOK_GRAPH_VERSION = "v21.0";

/** The providers' published endpoints. Issuers are compared exactly; keys come from the JWKS. */
export const SOCIAL_ENDPOINTS = {
  google: {
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    jwks: "https://www.googleapis.com/oauth2/v3/certs",
    // Google signs with either spelling of its issuer.
    issuers: ["https://accounts.google.com", "accounts.google.com"],
  },
  apple: {
    authorize: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    jwks: "https://appleid.apple.com/auth/keys",
    issuers: ["https://appleid.apple.com"],
  },
  facebook: {
    authorize: `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}/dialog/oauth`,
    token: `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}/oauth/access_token`,
    graph: `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}`,
  },
} as const;

/** Google and Apple ID tokens are RS256; anything else (none, HS256 with a public key) is refused. */
export const ID_TOKEN_ALGORITHMS = ["RS256"];

/** The settings a provider needs; see socialProviders() in platform/config.server.ts. */
export type SocialSettings = {
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  APPLE_CLIENT_ID?: string;
  APPLE_CLIENT_SECRET?: string;
  APPLE_TEAM_ID?: string;
  APPLE_KEY_ID?: string;
  APPLE_PRIVATE_KEY?: string;
  FACEBOOK_APP_ID?: string;
  FACEBOOK_APP_SECRET?: string;
};

/** The providers that are configured, in the order their buttons are shown. */
export function enabledSocialProviders(c: SocialSettings): SocialProvider[] {
  return SOCIAL_PROVIDERS.filter((p) => isSocialProviderEnabled(c, p));
}

export function isSocialProviderEnabled(c: SocialSettings, provider: SocialProvider): boolean {
  switch (provider) {
    case "google":
      return Boolean(c.GOOGLE_CLIENT_ID && c.GOOGLE_CLIENT_SECRET);
    case "apple":
      return Boolean(c.APPLE_CLIENT_ID && (c.APPLE_CLIENT_SECRET || (c.APPLE_TEAM_ID && c.APPLE_KEY_ID && c.APPLE_PRIVATE_KEY)));
    case "facebook":
      return Boolean(c.FACEBOOK_APP_ID && c.FACEBOOK_APP_SECRET);
  }
}

export const SOCIAL_MESSAGES = {
  invalidToken: (p: SocialProvider) =>
    `${SOCIAL_PROVIDER_NAMES[p]} no ha confirmado tu identidad: el acceso no es válido o ha caducado. Vuelve a intentarlo.`,
  noEmail: (p: SocialProvider) =>
    `Tu cuenta de ${SOCIAL_PROVIDER_NAMES[p]} no nos ha dado un correo confirmado. Entra con un código por correo o permite compartir tu correo.`,
  unavailable: (p: SocialProvider) =>
    `No hemos podido comprobar tu cuenta con ${SOCIAL_PROVIDER_NAMES[p]} ahora mismo. Inténtalo de nuevo en unos minutos.`,
  cancelled: (p: SocialProvider) =>
    `Has cancelado el inicio de sesión con ${SOCIAL_PROVIDER_NAMES[p]}. Puedes volver a intentarlo o entrar con tu correo.`,
  expired: (p: SocialProvider) =>
    `El inicio de sesión con ${SOCIAL_PROVIDER_NAMES[p]} ha caducado o no viene de esta web. Vuelve a pulsar «Continuar con ${SOCIAL_PROVIDER_NAMES[p]}».`,
} as const;
