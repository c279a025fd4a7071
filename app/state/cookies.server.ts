import { createCookie, createCookieSessionStorage, type Cookie } from "@remix-run/node";
import { CONSENT_MAX_AGE_SECONDS } from "#rules/consent";
import { config } from "#app/env.server";

// Secure when the shop is served over https (PUBLIC_URL); a plain-http start on a LAN address
// must still keep its cart, so the flag follows the public URL rather than NODE_ENV.
const secure = () => config().PUBLIC_URL?.startsWith("https://") ?? false;

/** Signed cookies: SESSION_SECRET's newest secret signs, every listed secret still verifies. */
function signedCookie(name: string, maxAgeSeconds?: number): Cookie {
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secure(),
    secrets: config().sessionSecrets,
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  });
}

let cache: { cart: Cookie; checkout: Cookie; session: ReturnType<typeof createCookieSessionStorage> } | undefined;

export function cookies() {
  cache ??= {
    cart: signedCookie("__cart", 60 * 60 * 24 * 30),
    checkout: signedCookie("__checkout", 60 * 60 * 2),
    session: createCookieSessionStorage({ cookie: signedCookie("__session", 60 * 60 * 24 * 30) }),
  };
  return cache;
}

/**
 * The visitor's cookie choice with its policy version and date (rules/consent.ts). Signed, so a
 * script or a crafted request cannot grant consent on the visitor's behalf.
 */
export function consentCookie(): Cookie {
  consentCache ??= signedCookie("ofertas_consent", CONSENT_MAX_AGE_SECONDS);
  return consentCache;
}
let consentCache: Cookie | undefined;

/** A cookie value that fails its signature or shape reads as null, never as an error. */
export async function readCookie<T>(cookie: Cookie, request: Request, parse: (value: unknown) => T | null): Promise<T | null> {
  try {
    const value = await cookie.parse(request.headers.get("Cookie"));
    return value === null || value === undefined ? null : parse(value);
  } catch {
    return null;
  }
}

/** The names of the cookies in a Cookie header. */
export function cookieNames(header: string | null | undefined): string[] {
  return (header ?? "")
    .split(";")
    .map((part) => part.split("=")[0].trim())
    .filter(Boolean);
}
