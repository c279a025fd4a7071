import { eq } from "drizzle-orm";
import type { TokenPair } from "#lib/accounts";
import type { Config } from "#lib/config.server";
import type { Database } from "#api/db/client";
import { users } from "#api/db/schema";
import { issueTokens } from "#api/auth/tokens";
import { mergeAnonymousSession } from "#api/services/customer-data";
import { claimGuestPurchases, findUserByEmail, markLoggedIn } from "#api/services/users";

/**
 * Logs in whoever has just proven they own this address (a code sent to it, or Google, Apple or
 * Facebook vouching for it). The first time it creates the customer; a registration that was
 * never activated is activated, since proving the address is all activation asks — and loses the
 * password it was registered with: whoever chose it never proved the address, and could be someone
 * who registered a stranger's email to get into the account once its owner brings it to life
 * (account pre-hijacking). Guest purchases with the address join the account, and an anonymous
 * app session merges into it.
 */
export async function logInProvenEmail(
  db: Database,
  config: Config,
  login: { email: string; firstName?: string; lastName?: string; anonymousToken?: string },
): Promise<TokenPair> {
  return db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, login.email);
    if (!user) {
      [user] = await tx
        .insert(users)
        .values({ email: login.email, emailVerifiedAt: new Date(), firstName: login.firstName ?? "", lastName: login.lastName ?? "" })
        .returning();
    } else if (!user.emailVerifiedAt) {
      [user] = await tx.update(users).set({ emailVerifiedAt: new Date(), isActive: true, passwordHash: null }).where(eq(users.id, user.id)).returning();
    } else if (!user.isActive) {
      [user] = await tx.update(users).set({ isActive: true }).where(eq(users.id, user.id)).returning();
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
    if (login.anonymousToken) await mergeAnonymousSession(tx, config, login.anonymousToken, user.id);
    return issueTokens(tx, config, user);
  });
}
