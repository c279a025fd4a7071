import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Role } from "#rules/roles";
import { query, type Executor } from "#api/db/client";
import { users } from "#api/db/schema";
import { HttpError, notFound } from "#api/http";
import { userAnswer } from "#api/services/users";

/** GET /users/ (staff): by part of the email and by role, newest first is less useful than A–Z here. */
export async function searchUsers(db: Executor, filter: { email?: string; role?: Role }, limit = 100) {
  const parts: SQL[] = [];
  if (filter.email) parts.push(sql`${users.email} LIKE ${`%${filter.email.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
  if (filter.role) parts.push(eq(users.role, filter.role));
  const rows = await db
    .select()
    .from(users)
    .where(parts.length ? and(...parts) : undefined)
    .orderBy(asc(users.email))
    .limit(limit);
  return rows.map(userAnswer);
}

/**
 * DELETE /users/{id}/ (staff): erases the person. The account row goes (sessions and their tokens,
 * favourites, cart and memberships with it: the next request with one of its tokens is a 401); their sales stay for the accounts and the partners' coupons, with the
 * address anonymised and the receipt details dropped.
 */
export async function eraseUser(db: Executor, id: string, by: { id: string }) {
  if (id === by.id) throw new HttpError(409, "No puedes borrar tu propia cuenta desde aquí.");
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!user) throw notFound("Usuario no encontrado.");
    const anonymous = `borrado-${id}@ofertas.invalid`;
    await query(
      tx,
      sql`
      UPDATE sales SET email = ${anonymous},
        checkout_data = (checkout_data - 'user_fullname' - 'user_tax_number' - 'user_address') || jsonb_build_object('email', ${anonymous}::text)
      WHERE user_id = ${id} OR lower(email) = ${user.email}`,
    );
    await tx.execute(sql`UPDATE promo_code_uses SET email = ${anonymous} WHERE lower(email) = ${user.email}`);
    // The address must not live on in the marketing list (the digest would keep mailing it) or in codes.
    await tx.execute(sql`DELETE FROM mail_subscriptions WHERE email = ${user.email}`);
    await tx.execute(sql`DELETE FROM login_codes WHERE email = ${user.email}`);
    await tx.execute(sql`DELETE FROM password_lockouts WHERE email = ${user.email}`);
    await tx.delete(users).where(eq(users.id, id));
  });
}
