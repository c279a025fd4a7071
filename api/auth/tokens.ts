import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { Config } from "#platform/config.server";
import { isRole, type Role } from "#rules/roles";
import { isUuid } from "#rules/uuid";
import type { TokenPair } from "#contract/accounts";
import type { Database, Executor } from "#api/db/client";
import { accountSessions, refreshTokens, users } from "#api/db/schema";
import { HttpError } from "#api/http";
import { endSession } from "./sessions";

// Pinned on every verification: a token signed with another algorithm ("none", RS256 with our
// secret as a public key), for another audience or by another issuer is refused.
export const JWT_ALG = "HS256";
export const JWT_ISSUER = "ofertas";
export const JWT_AUDIENCE = "ofertas-api";
/** Anonymous session tokens (mobile apps without cookies) hold no identity; they live 90 days. */
const ANONYMOUS_SECONDS = 90 * 24 * 3600;

export type TokenKind = "access" | "refresh" | "anonymous";
/** sid names the session (account_sessions.id) the token belongs to; email and role are for display. */
export type AccessClaims = { sub: string; sid: string; email: string; role: Role };
export type RefreshClaims = { sub: string; jti: string; fam: string };
type TokenUser = { id: string; email: string; role: string };
type RefreshRow = typeof refreshTokens.$inferSelect;

const keys = new Map<string, Uint8Array>();
const keyOf = (config: Config) => {
  let key = keys.get(config.jwtSecret);
  if (!key) keys.set(config.jwtSecret, (key = new TextEncoder().encode(config.jwtSecret)));
  return key;
};

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** 401 in simplejwt's shape: detail plus code token_not_valid. */
export const invalidToken = (detail = "El token no es válido o ha caducado.") => new HttpError(401, detail, { code: "token_not_valid" });

/** HS256 with fixed iat and exp: the same inputs always sign to the same string. */
function sign(
  config: Config,
  kind: TokenKind,
  subject: string,
  times: { iat: number; exp: number },
  claims: Record<string, unknown>,
  jti: string,
) {
  return new SignJWT({ ...claims, typ: kind })
    .setProtectedHeader({ alg: JWT_ALG, typ: "JWT" })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(subject)
    .setIssuedAt(times.iat)
    .setExpirationTime(times.exp)
    .setJti(jti)
    .sign(keyOf(config));
}

const PINNED = { algorithms: [JWT_ALG], issuer: JWT_ISSUER, audience: JWT_AUDIENCE, requiredClaims: ["exp", "iat", "sub"] };

/**
 * Verifies signature, algorithm, issuer, audience, expiry and kind; anything wrong is a 401. A
 * token without an expiry (or without iat or a subject) is refused, whoever signed it.
 */
export async function verifyToken(config: Config, token: string, kind: TokenKind): Promise<JWTPayload> {
  try {
    const { payload } = await jwtVerify(token, keyOf(config), PINNED);
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
  if (typeof p.email !== "string" || !isRole(p.role) || typeof p.sid !== "string" || !isUuid(p.sid)) throw invalidToken();
  return { sub: p.sub!, sid: p.sid.toLowerCase(), email: p.email, role: p.role };
}

export function signAnonymous(config: Config, sessionId: string) {
  const iat = seconds(new Date());
  return sign(config, "anonymous", sessionId, { iat, exp: iat + ANONYMOUS_SECONDS }, {}, randomUUID());
}

/**
 * The pair of one refresh row. A row always gives the same two strings, so a replay inside the
 * grace window can be answered with exactly the successor the first request got.
 */
async function pairOf(config: Config, user: TokenUser, row: RefreshRow): Promise<TokenPair> {
  const iat = seconds(row.createdAt);
  const refresh = await sign(config, "refresh", user.id, { iat, exp: seconds(row.expiresAt) }, { fam: row.familyId }, row.jti);
  const access = await sign(
    config,
    "access",
    user.id,
    { iat, exp: iat + config.JWT_ACCESS_SECONDS },
    { email: user.email, role: user.role, sid: row.familyId },
    row.jti,
  );
  return { access, refresh };
}

/** A refresh token of the session, issued now (whole seconds, as the JWT carries them). */
async function addRefreshRow(db: Executor, config: Config, userId: string, sessionId: string): Promise<RefreshRow> {
  const now = seconds(new Date());
  const [row] = await db
    .insert(refreshTokens)
    .values({
      jti: randomUUID(),
      familyId: sessionId,
      userId,
      createdAt: new Date(now * 1000),
      expiresAt: new Date((now + config.JWT_REFRESH_SECONDS) * 1000),
    })
    .returning();
  return row;
}

/** A login: a new session on this device, and its first pair. */
export async function issueTokens(db: Executor, config: Config, user: TokenUser, device: string): Promise<TokenPair> {
  const sessionId = randomUUID();
  const expiresAt = new Date(Date.now() + config.JWT_REFRESH_SECONDS * 1000);
  await db.insert(accountSessions).values({ id: sessionId, userId: user.id, device: device.slice(0, 300), expiresAt });
  return pairOf(config, user, await addRefreshRow(db, config, user.id, sessionId));
}

/**
 * POST /auth/jwt/refresh/: rotation with reuse detection. Each refresh token works once and is
 * replaced by a successor in its session. A token that was already used coming back means two
 * holders — the customer and a thief — so the session ends and both must log in again. Inside
 * the grace window (one browser's parallel requests) the replay gets the same successor the
 * first use got, never a second one: a copy cannot grow a branch of the session of its own.
 */
export async function rotateRefresh(db: Database, config: Config, token: string): Promise<TokenPair> {
  const claims = await verifyToken(config, token, "refresh");
  const jti = claims.jti;
  if (typeof jti !== "string" || !isUuid(jti)) throw invalidToken();
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(refreshTokens).where(eq(refreshTokens.jti, jti)).for("update");
    if (!row || row.userId !== claims.sub) return { error: "invalid" as const };
    const [session] = await tx.select().from(accountSessions).where(eq(accountSessions.id, row.familyId));
    const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
    if (!session || session.revokedAt || !user || !user.isActive) return { error: "invalid" as const };
    if (row.usedAt) {
      const withinGrace = Date.now() - row.usedAt.getTime() <= config.JWT_REFRESH_REUSE_GRACE_SECONDS * 1000;
      const [successor] =
        withinGrace && row.replacedBy ? await tx.select().from(refreshTokens).where(eq(refreshTokens.jti, row.replacedBy)) : [];
      if (!successor) {
        await endSession(tx, row.userId, row.familyId);
        return { error: "reused" as const };
      }
      return { pair: await pairOf(config, user, successor) };
    }
    const successor = await addRefreshRow(tx, config, user.id, row.familyId);
    await tx.update(refreshTokens).set({ usedAt: new Date(), replacedBy: successor.jti }).where(eq(refreshTokens.jti, jti));
    await tx
      .update(accountSessions)
      .set({ lastUsedAt: new Date(), expiresAt: successor.expiresAt })
      .where(eq(accountSessions.id, row.familyId));
    return { pair: await pairOf(config, user, successor) };
  });
  if ("error" in outcome) {
    throw invalidToken(outcome.error === "reused" ? "Esta sesión se ha cerrado por seguridad. Vuelve a iniciar sesión." : undefined);
  }
  return outcome.pair;
}

/**
 * The session a refresh token belongs to, for logout: signature and kind checked, expiry not (an
 * expired token still names the session its holder wants to end).
 */
export async function sessionOfRefresh(config: Config, token: string): Promise<{ userId: string; sessionId: string }> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(config), { ...PINNED, currentDate: new Date(0) }));
  } catch {
    throw invalidToken();
  }
  if (payload.typ !== "refresh" || typeof payload.sub !== "string" || typeof payload.fam !== "string" || !isUuid(payload.fam))
    throw invalidToken();
  return { userId: payload.sub, sessionId: payload.fam.toLowerCase() };
}
