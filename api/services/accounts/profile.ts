/** An account's own fields, read and changed by its owner or by staff. */
import { eq } from "drizzle-orm";
import type { AccountUser } from "#contract/accounts";
import { isStaff, type Role } from "#rules/roles";
import { isUuid } from "#rules/uuid";
import type { Database, Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { notFound } from "#api/http";
import type { AuthUser } from "#api/auth/context";
import { endAllSessions } from "#api/auth/sessions";
import { findUser, userAnswer, type UserRow } from "#api/services/users";

export type UserChange = { first_name?: string; last_name?: string; is_active?: boolean; role?: Role };

/** A user another caller may see: staff see everyone, everyone else only themself. */
export async function visibleUser(db: Executor, caller: AuthUser, id: string): Promise<UserRow> {
  if (!isUuid(id)) throw notFound("No encontrado.");
  if (!isStaff(caller.role) && caller.id !== id.toLowerCase()) throw notFound("No encontrado.");
  const user = await findUser(db, id.toLowerCase());
  if (!user) throw notFound("No encontrado.");
  return user;
}

/** djoser lists every user to staff and only yourself to anyone else. */
export async function visibleUsers(db: Executor, caller: AuthUser): Promise<AccountUser[]> {
  const rows = isStaff(caller.role)
    ? await db.select().from(users).orderBy(users.createdAt).limit(500)
    : [await findUser(db, caller.id)].flatMap((u) => (u ? [u] : []));
  return rows.map(userAnswer);
}

export async function updateUser(db: Database, target: UserRow, change: UserChange): Promise<AccountUser> {
  const [row] = await db
    .update(users)
    .set({
      ...(change.first_name !== undefined ? { firstName: change.first_name } : {}),
      ...(change.last_name !== undefined ? { lastName: change.last_name } : {}),
      ...(change.is_active !== undefined ? { isActive: change.is_active } : {}),
      ...(change.role !== undefined ? { role: change.role } : {}),
    })
    .where(eq(users.id, target.id))
    .returning();
  // Switched off or given another role: every session ends now, access tokens included.
  if ((change.is_active === false && target.isActive) || (change.role !== undefined && change.role !== target.role))
    await endAllSessions(db, target.id);
  return userAnswer(row);
}
