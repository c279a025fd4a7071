import { randomUUID } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { Config } from "#lib/config.server";
import { isRole, type Role } from "#lib/roles";
import type { TokenPair } from "#lib/accounts";
import type { Database, Executor } from "#api/db/client";
import { refreshTokens, users } from "#api/db/schema";
import { HttpError } from "#api/http";

// Pinned on every verification: a token signed with another algorithm ("none", RS256 with our
// secret as a public key), for another audience or by another issuer is refused.
export const JWT_ALG = "HS256";
export const JWT_ISSUER = "ofertas";
export const JWT_AUDIENCE = "ofertas-api";
/** Anonymous session tokens (mobile apps without cookies) hold no identity; they live 90 days. */
const ANONYMOUS_SECONDS = 90 * 24 * 3600;

export type TokenKind = "access" | "refresh" | "anonymous";
export type AccessClaims = { sub: string; email: string; role: Role };
export type RefreshClaims = { sub: string; jti: string; fam: string };

const keys = new Map<string, Uint8Array>();
const keyOf = (config: Config) => {
  let key = keys.get(config.jwtSecret);
  if (!key) keys.set(config.jwtSecret, (key = new TextEncoder().encode(config.jwtSecret)));
  return key;
};

/** 401 in simplejwt's shape: detail plus code token_not_valid. */
export const invalidToken = (detail = "El token no es válido o ha caducado.") => new HttpError(401, detail, { code: "token_not_valid" });

async function sign(config: Config, kind: TokenKind, subject: string, seconds: number, claims: Record<string, unknown>, jti = randomUUID()) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...claims, typ: kind })
    .setProtectedHeader({ alg: JWT_ALG, typ: "JWT" })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(subject)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .setJti(jti)
    .sign(keyOf(config));
}

/** Verifies signature, algorithm, issuer, audience, expiry and kind; anything wrong is a 401. */
export async function verifyToken(config: Config, token: string, kind: TokenKind): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keyOf(config), { algorithms: [JWT_ALG], issuer: JWT_ISSUER, audience: JWT_AUDIENCE });
    if (payload.typ !== kind || typeof payload.sub !== "string") throw invalidToken("El token no es del tipo correcto.");
    return payload;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (error instanceof errors.JWTExpired) throw invalidToken("El token ha caducado.");
    throw invalidToken();
  }
}

export async function verifyAccess(config: Config, token: string): Promise<AccessClaims> {
  const p = await verifyToken(config, token, "access");
  if (typeof p.email !== "string" || !isRole(p.role)) throw invalidToken();
  return { sub: p.sub!, email: p.email, role: p.role };
}

export function signAccess(config: Config, user: { id: string; email: string; role: string }) {
  return sign(config, "access", user.id, config.JWT_ACCESS_SECONDS, { email: user.email, role: user.role });
}

export function signAnonymous(config: Config, sessionId: string) {
  return sign(config, "anonymous", sessionId, ANONYMOUS_SECONDS, {});
}

/** A new pair; a new family unless this continues one (rotation). The refresh row is written first. */
export async function issueTokens(
  db: Executor,
  config: Config,
  user: { id: string; email: string; role: string },
  familyId: string = randomUUID(),
): Promise<TokenPair> {
  const jti = randomUUID();
  await db.insert(refreshTokens).values({
    jti,
    familyId,
    userId: user.id,
    expiresAt: new Date(Date.now() + config.JWT_REFRESH_SECONDS * 1000),
  });
  const refresh = await sign(config, "refresh", user.id, config.JWT_REFRESH_SECONDS, { fam: familyId }, jti);
  return { access: await signAccess(config, user), refresh };
}

/**
 * POST /auth/jwt/refresh/: rotation with reuse detection. Each refresh token works once and is
 * replaced by a successor in its family. A token that was already used coming back means two
 * holders — the customer and a thief — so the whole family is revoked and both must log in again.
 * The grace window lets one browser's parallel requests refresh with the same token.
 */
export async function rotateRefresh(db: Database, config: Config, token: string): Promise<TokenPair> {
  const claims = await verifyToken(config, token, "refresh");
  const jti = claims.jti;
  if (typeof jti !== "string" || !/^[0-9a-f-]{36}$/i.test(jti)) throw invalidToken();
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.jti, jti)).for("update");
    if (!row || row.revokedAt || row.userId !== claims.sub) return { error: "invalid" as const };
    if (row.usedAt) {
      const withinGrace = Date.now() - row.usedAt.getTime() <= config.JWT_REFRESH_REUSE_GRACE_SECONDS * 1000;
      if (!withinGrace) {
        await tx.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, row.familyId), isNull(refreshTokens.revokedAt)));
        return { error: "reused" as const };
      }
    } else {
      await tx.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.jti, jti));
    }
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!user || !user.isActive) return { error: "invalid" as const };
    return { pair: await issueTokens(tx, config, user, row.familyId) };
  });
  if ("error" in outcome) {
    throw invalidToken(outcome.error === "reused" ? "Esta sesión se ha cerrado por seguridad. Vuelve a iniciar sesión." : undefined);
  }
  return outcome.pair;
}

/** Logs a person out everywhere (password change, erasure). */
export async function revokeAllRefreshTokens(db: Executor, userId: string) {
  await db.update(refreshTokens).set({ revokedAt: sql`now()` }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
