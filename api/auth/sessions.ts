import type { Request } from "express";
import { and, desc, eq, gt, isNull, ne, sql } from "drizzle-orm";
import { isRole } from "#rules/roles";
import type { Executor } from "#api/db/client";
import { accountSessions, users } from "#api/db/schema";
import type { AuthUser } from "./context";

/**
 * Sessions: one per login on one device, the family of its refresh tokens (tokens.ts). The API
 * looks the caller's session up on every authenticated request, so ending one here ends its
 * access tokens at once.
 */

/** The device a login comes from: its User-Agent (the storefront forwards the browser's). */
export const deviceOf = (req: Request) => (req.get("user-agent") ?? "").slice(0, 300);

/**
 * The person behind an access token, as the database has them now: the session must still be
 * open and the account active. Role and email come from the account, never from the token, so a
 * demotion or an erasure counts from the next request.
 */
export async function sessionUser(db: Executor, userId: string, sessionId: string): Promise<AuthUser | null> {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(accountSessions)
    .innerJoin(users, eq(users.id, accountSessions.userId))
    .where(
      and(
        eq(accountSessions.id, sessionId),
        eq(accountSessions.userId, userId),
        isNull(accountSessions.revokedAt),
        eq(users.isActive, true),
      ),
    );
  if (!row || !isRole(row.role)) return null;
  return { id: row.id, email: row.email, role: row.role, sessionId };
}

/** The account's open sessions, the most recently used first (the newest hundred). */
export async function openSessions(db: Executor, userId: string) {
  return db
    .select()
    .from(accountSessions)
    .where(and(eq(accountSessions.userId, userId), isNull(accountSessions.revokedAt), gt(accountSessions.expiresAt, sql`now()`)))
    .orderBy(desc(accountSessions.lastUsedAt), desc(accountSessions.createdAt))
    .limit(100);
}

/** Ends one session of this account; false when it is not one of its open sessions. */
export async function endSession(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  const ended = await db
    .update(accountSessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(accountSessions.id, sessionId), eq(accountSessions.userId, userId), isNull(accountSessions.revokedAt)))
    .returning({ id: accountSessions.id });
  return ended.length > 0;
}

/**
 * Ends every session of the account, or all but one (the device that asked): password and email
 * changes, deactivation, a role change, the first proof of the address. Answers how many ended.
 */
export async function endAllSessions(db: Executor, userId: string, options: { except?: string } = {}): Promise<number> {
  const ended = await db
    .update(accountSessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(accountSessions.userId, userId),
        isNull(accountSessions.revokedAt),
        options.except ? ne(accountSessions.id, options.except) : undefined,
      ),
    )
    .returning({ id: accountSessions.id });
  return ended.length;
}
