import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { normalizeEmail, type AccountUser } from "#lib/accounts";
import type { Executor } from "#api/db/client";
import { users } from "#api/db/schema";

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

export async function findUser(db: Executor, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** djoser's user shape. */
export function userAnswer(user: UserRow): AccountUser {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    role: user.role,
    is_active: user.isActive,
    email_verified: user.emailVerifiedAt !== null,
    has_password: user.passwordHash !== null,
    date_joined: user.createdAt.toISOString(),
  };
}

/**
 * Guest purchases made with this address join the account — only once the person has proven the
 * address (a code login, an activation link), or anyone could register a stranger's email and
 * read their vouchers.
 */
export async function claimGuestPurchases(db: Executor, user: Pick<UserRow, "id" | "email" | "emailVerifiedAt">) {
  if (!user.emailVerifiedAt) return;
  await db.execute(sql`UPDATE sales SET user_id = ${user.id} WHERE user_id IS NULL AND lower(email) = ${user.email}`);
}

export async function markLoggedIn(db: Executor, userId: string) {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}

export async function markEmailVerified(db: Executor, userId: string) {
  await db
    .update(users)
    .set({ emailVerifiedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  const [row] = await db.select().from(users).where(and(eq(users.id, userId), isNotNull(users.emailVerifiedAt)));
  return row ?? null;
}
