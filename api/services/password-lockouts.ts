import { eq, sql } from "drizzle-orm";
import { PASSWORD_FAILURE_WINDOW_MINUTES, PASSWORD_FAILURES_BEFORE_LOCK } from "#rules/accounts";
import type { Database, Executor } from "#api/db/client";
import { passwordLockouts, users } from "#api/db/schema";
import { queueMail } from "#api/mail/outbox";
import { limits } from "#api/rate-limit";

/**
 * Password guessing per address, on top of the per-connection limit of /auth/jwt/create/: after
 * PASSWORD_FAILURES_BEFORE_LOCK wrong passwords within the window, the address logs in only by
 * code until its owner proves it (a code login, a reset), and the owner is told by mail. Counted
 * per address whether or not it has an account, so being locked says nothing about which do.
 */
const WINDOW = { points: PASSWORD_FAILURES_BEFORE_LOCK, durationSec: PASSWORD_FAILURE_WINDOW_MINUTES * 60 };
const failuresKey = (email: string) => `password-failures:email:${email}`;

export async function isPasswordLocked(db: Executor, email: string): Promise<boolean> {
  const [row] = await db.select({ email: passwordLockouts.email }).from(passwordLockouts).where(eq(passwordLockouts.email, email));
  return Boolean(row);
}

/** One more wrong password for this address; true when it has just been locked. */
export async function countPasswordFailure(db: Database, email: string): Promise<boolean> {
  await limits.consume(failuresKey(email), WINDOW).catch(() => {});
  if ((await limits.remaining(failuresKey(email), WINDOW)) > 0) return false;
  return db.transaction(async (tx) => {
    const locked = await tx.insert(passwordLockouts).values({ email }).onConflictDoNothing().returning();
    if (!locked.length) return false;
    const [owner] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.email} = ${email} AND ${users.emailVerifiedAt} IS NOT NULL`);
    if (owner) {
      await queueMail(tx, {
        kind: "password-locked",
        to: email,
        dedupeKey: `password-locked:${email}:${locked[0].lockedAt.toISOString()}`,
        data: { failures: PASSWORD_FAILURES_BEFORE_LOCK, minutes: PASSWORD_FAILURE_WINDOW_MINUTES },
      });
    }
    return true;
  });
}

/** A right password: earlier mistakes no longer count towards a lock. */
export async function forgetPasswordFailures(email: string) {
  await limits.clear(failuresKey(email), WINDOW);
}

/** The owner proved the address: the password works again, and the count starts afresh. */
export async function unlockPassword(db: Executor, email: string) {
  await db.delete(passwordLockouts).where(eq(passwordLockouts.email, email));
  await forgetPasswordFailures(email);
}
