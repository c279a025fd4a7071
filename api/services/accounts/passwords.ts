/** A forgotten password replaced by a mailed code, and a known one changed by its owner. */
import { eq } from "drizzle-orm";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest } from "#api/http";
import { hashPassword } from "#api/auth/passwords";
import type { TokenPair } from "#contract/accounts";
import { issueTokens } from "#api/auth/tokens";
import { endAllSessions } from "#api/auth/sessions";
import { checkCode, CODE_GONE, codeProblem } from "#api/services/login-codes";
import { deactivatedAccount } from "#api/services/login";
import { unlockPassword } from "#api/services/password-lockouts";
import { isDeactivated, proveAddress, type UserRow } from "#api/services/users";

/** reset_password_confirm: the mailed code proves the address; the new password comes after the proof and stays. */
export async function resetPassword(
  db: Database,
  config: Config,
  user: UserRow | null,
  given: { email?: string; code: string; newPassword: string },
): Promise<void> {
  const check = await checkCode(db, config, {
    email: user?.email ?? given.email ?? "",
    purpose: "reset_password",
    code: given.code,
    consume: true,
  });
  if (!check.valid) throw badRequest(codeProblem(check));
  if (!user || check.userId !== user.id) throw badRequest(CODE_GONE);
  if (isDeactivated(user)) throw deactivatedAccount();
  const passwordHash = await hashPassword(given.newPassword);
  await db.transaction(async (tx) => {
    await proveAddress(tx, user);
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await endAllSessions(tx, user.id);
    await unlockPassword(tx, user.email);
  });
}

/**
 * A new password ends every session of the account, access tokens included. The device that
 * changed it gets a fresh pair.
 */
export async function setPassword(db: Database, config: Config, user: UserRow, newPassword: string, device: string): Promise<TokenPair> {
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await endAllSessions(tx, user.id);
    return issueTokens(tx, config, user, device);
  });
}
