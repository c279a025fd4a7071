import { eq, sql } from "drizzle-orm";
import { normalizeEmail } from "#rules/accounts";
import type { AccountUser } from "#contract/accounts";
import type { Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { endAllSessions } from "#api/auth/sessions";

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)));
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

/**
 * The person has just proven they own the account's address: a code sent to it (code login,
 * activation, password reset) or a provider vouching for it. The first proof makes the address a
 * way in. Until then anybody could have typed it: the account is activated, every session issued
 * before ends, and the password chosen before goes, unless the one proving the address is the
 * client that chose it (`keepPassword`: the registration's ticket). Later proofs change nothing.
 */
export async function proveAddress(
  db: Executor,
  user: UserRow,
  { keepPassword = false }: { keepPassword?: boolean } = {},
): Promise<UserRow> {
  if (user.emailVerifiedAt) return user;
  await endAllSessions(db, user.id);
  const [proven] = await db
    .update(users)
    .set({ emailVerifiedAt: new Date(), isActive: true, ...(keepPassword ? {} : { passwordHash: null }) })
    .where(eq(users.id, user.id))
    .returning();
  return proven;
}

/** Switched off by staff: proving the address again does not bring the account back. */
export const isDeactivated = (user: UserRow) => Boolean(user.emailVerifiedAt) && !user.isActive;

export async function markLoggedIn(db: Executor, userId: string) {
  await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, userId));
}
