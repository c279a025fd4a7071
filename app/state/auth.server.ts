import type { Session } from "@remix-run/node";
import { decodeJwt } from "jose";
import type { TokenPair } from "#contract/accounts";
import { isRole, type Role } from "#rules/roles";
import { field } from "./session.server";

/** spec section 3: authData.commonData, kept in the signed, httpOnly session cookie. */
export type CommonData = { access: string; refresh: string; token_expired_at: number; isAuth: true; email: string };
export type Viewer = { email: string; role: Role };

export function authData(session: Session): CommonData | null {
  const data = field(session, "authData")?.commonData;
  if (!data?.access || !data.refresh || typeof data.token_expired_at !== "number") return null;
  return { access: data.access, refresh: data.refresh, token_expired_at: data.token_expired_at, isAuth: true, email: data.email };
}

/** Who is logged in, as far as the page needs to know (the API checks the token itself). */
export function viewer(session: Session): Viewer | null {
  const data = authData(session);
  if (!data) return null;
  try {
    const role = decodeJwt(data.access).role;
    return { email: data.email, role: isRole(role) ? role : "customer" };
  } catch {
    return null;
  }
}

/**
 * Stores a token pair. token_expired_at is a little before the access token's expiry (a fifth of
 * its life, at most 30 s), so a call never leaves with a token that dies on the way.
 */
export function setAuth(session: Session, pair: TokenPair) {
  const claims = decodeJwt(pair.access);
  const exp = (claims.exp ?? 0) * 1000;
  const iat = (claims.iat ?? 0) * 1000;
  const margin = Math.min(30_000, Math.max(0, (exp - iat) / 5));
  session.set("authData", {
    commonData: {
      access: pair.access,
      refresh: pair.refresh,
      token_expired_at: exp - margin,
      isAuth: true,
      email: typeof claims.email === "string" ? claims.email : "",
    },
  });
}

/** Logged out: with no access token only the email is kept, blanked (spec section 3). */
export function clearAuth(session: Session) {
  session.set("authData", { commonData: { email: "" } });
}

export function accessToken(session: Session): string | null {
  return authData(session)?.access ?? null;
}
