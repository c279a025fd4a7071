/**
 * A new address for an account. It must prove itself: the code goes there, and only that code
 * applies it. An address that already has an account gets a notice instead of the code, and the
 * asker the same answer.
 */
import { eq } from "drizzle-orm";
import type { TokenPair } from "#contract/accounts";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { badRequest } from "#api/http";
import { issueTokens } from "#api/auth/tokens";
import { endAllSessions } from "#api/auth/sessions";
import { checkCode, CODE_GONE, codeProblem, sendCode } from "#api/services/login-codes";
import { unlockPassword } from "#api/services/password-lockouts";
import { claimGuestPurchases, findUserByEmail, type UserRow } from "#api/services/users";
import { limitMailsTo } from "./mail-limits";

export const NEW_ADDRESS_CODE_SENT = "Te hemos enviado un código al nuevo correo para confirmarlo.";

/** The code that proves a new address goes to that address; one that has an account gets a notice. */
export async function askNewAddress(db: Database, config: Config, user: UserRow, newEmail: string) {
  if (newEmail === user.email) throw badRequest("Ese ya es tu correo.", { new_email: ["Ese ya es tu correo."] });
  await limitMailsTo("reset_email", newEmail);
  const taken = await findUserByEmail(db, newEmail);
  await sendCode(db, config, {
    email: user.email,
    purpose: "reset_email",
    userId: user.id,
    newEmail,
    mailTo: newEmail,
    notice: taken ? { kind: "account-exists", data: { reason: "email-change" } } : undefined,
  });
}

/**
 * reset_email_confirm. A code from reset_email (sent to the current address) proves the account,
 * not the new address: the new address gets its own code ("asked"), with which the same call is
 * made again. The applied address ends every session of the account; the caller gets a fresh pair.
 */
export async function confirmNewAddress(
  db: Database,
  config: Config,
  user: UserRow | null,
  given: { code: string; newEmail: string },
  device: string,
): Promise<{ asked: true } | { asked: false; pair: TokenPair }> {
  const check = await checkCode(db, config, { email: user?.email ?? "", purpose: "reset_email", code: given.code, consume: true });
  if (!check.valid) throw badRequest(codeProblem(check));
  if (!user || check.userId !== user.id) throw badRequest(CODE_GONE);
  if (!check.newEmail) {
    await askNewAddress(db, config, user, given.newEmail);
    return { asked: true };
  }
  if (check.newEmail !== given.newEmail) throw badRequest("El correo no es el que pediste confirmar.");
  const pair = await db.transaction(async (tx) => {
    // Taken meanwhile (the code of an address with an account is never mailed): as if no code.
    if (await findUserByEmail(tx, given.newEmail)) throw badRequest(CODE_GONE);
    const [changed] = await tx
      .update(users)
      .set({ email: given.newEmail, emailVerifiedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    await endAllSessions(tx, user.id);
    await claimGuestPurchases(tx, changed);
    await unlockPassword(tx, changed.email);
    return issueTokens(tx, config, changed, device);
  });
  return { asked: false, pair };
}
