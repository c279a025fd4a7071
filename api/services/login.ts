import { eq } from "drizzle-orm";
import type { TokenPair } from "#contract/accounts";
import type { Config } from "#platform/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { HttpError } from "#api/http";
import { issueTokens } from "#api/auth/tokens";
import { mergeAnonymousSession } from "#api/services/customer-data";
import { unlockPassword } from "#api/services/password-lockouts";
import { claimGuestPurchases, findUserByEmail, isDeactivated, markLoggedIn, proveAddress } from "#api/services/users";

/** A deactivated account stays so whatever the person proves; only staff switch it back on. */
export const deactivatedAccount = () =>
  new HttpError(403, "Esta cuenta está desactivada. Escríbenos si crees que es un error.", { code: "account_deactivated" });

/**
 * Logs in whoever has just proven they own this address (a code sent to it, or Google, Apple or
 * Facebook vouching for it). The first time it creates the customer. A registration that was never
 * activated is activated, since proving the address is all activation asks — and loses the
 * password it was registered with and any session issued before (proveAddress): whoever chose
 * them never proved the address, and could be someone who registered a stranger's email to get
 * into the account once its owner brings it to life (account pre-hijacking). Guest purchases with
 * the address join the account, an anonymous app session merges into it, and a password lockout
 * of the address ends.
 */
export async function logInProvenEmail(
  db: Database,
  config: Config,
  login: { email: string; device: string; firstName?: string; lastName?: string; anonymousToken?: string },
): Promise<TokenPair> {
  return db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, login.email);
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({ email: login.email, emailVerifiedAt: new Date(), firstName: login.firstName ?? "", lastName: login.lastName ?? "" })
        .returning();
    } else if (isDeactivated(user)) {
      throw deactivatedAccount();
    } else {
      user = await proveAddress(tx, user);
    }
    // Names the provider knows fill only what the customer left empty; never overwrite theirs.
    if ((!user.firstName && login.firstName) || (!user.lastName && login.lastName)) {
      [user] = await tx
        .update(users)
        .set({ firstName: user.firstName || login.firstName || "", lastName: user.lastName || login.lastName || "" })
        .where(eq(users.id, user.id))
        .returning();
    }
    await markLoggedIn(tx, user.id);
    await claimGuestPurchases(tx, user);
    await unlockPassword(tx, user.email);
    if (login.anonymousToken) await mergeAnonymousSession(tx, config, login.anonymousToken, user.id);
    return issueTokens(tx, config, user, login.device);
  });
}
